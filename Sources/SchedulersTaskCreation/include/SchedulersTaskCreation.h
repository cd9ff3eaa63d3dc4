// What the deterministic run needs from the task-creation shim (TaskCreation.c): a way to give
// every task that a run's task creates with `Task {}` or `Task.detached` a task executor
// preference, as child tasks inherit one, so that its hops between actors are jobs the run
// can order (docs/deterministic-execution.md, "Hops between actors").
//
// Swift calls these two functions by name (`@_silgen_name`, in
// Sources/SchedulersDeterministic/Routing/HopsAsJobs.swift) rather than importing this header,
// so that no Swift module's interface depends on a C module: hence `swiftcall`.

#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Asked at each task creation while set, on the creating task's thread: returns true, with
/// the executor's two words (`UnownedTaskExecutor`: identity and witness table), when the new
/// task should prefer that executor. The executor must outlive every task that prefers it.
typedef bool (*schedulers_task_creation_advisor)(size_t flags, void *_Nullable *_Nonnull identity,
                                                 uintptr_t *_Nonnull implementation);

/// Sets the advisor (NULL: none, and task creation costs one atomic load more than without the
/// shim).
__attribute__((swiftcall)) void
schedulers_set_task_creation_advisor(schedulers_task_creation_advisor _Nullable advisor);

/// Whether task creations of this process pass through the shim: true once one has (the
/// shim's definition of `swift_task_create` is the one the executable calls). False where the
/// shim is not compiled in (it is on Linux only) or the runtime is linked statically.
__attribute__((swiftcall)) bool schedulers_task_creation_is_interposed(void);
