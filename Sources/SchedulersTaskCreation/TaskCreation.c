// The task-creation shim: this executable's own `swift_task_create`, which the compiler calls
// for every `Task {}` and `Task.detached` of code linked into it (the stdlib's initializers are
// inlined into the caller, and the call binds to a definition in the executable before the
// runtime's). It adds an initial task executor preference to the task's options when the
// advisor asks for one, then calls the runtime's. Why: the runtime runs a hop between actors in
// place unless the task prefers a task executor (`swift_task_switch`, and `defaultActorDrain`,
// which takes each task's own preference for its turn), and child tasks inherit a preference
// while unstructured tasks do not.
//
// Linux only, where it is tested: ELF lets the executable's definition come first, and a
// weak definition gives way to the runtime's own where the runtime is linked statically (no
// duplicate symbol; the shim is then simply not in use, and says so).
//
// The option record is the compiler's ABI with the runtime (include/swift/ABI/TaskOptions.h):
// `Task(executorPreference:)` makes the same one. Flags' low byte is the record's kind.

#if defined(__linux__) && defined(__ELF__)
#define _GNU_SOURCE  // RTLD_NEXT; before any header
#endif

#include "SchedulersTaskCreation.h"

#if defined(__linux__) && defined(__ELF__)

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct SchedulersTaskOption {
  size_t flags;
  struct SchedulersTaskOption *_Nullable parent;
} SchedulersTaskOption;

/// `InitialTaskExecutorRefPreferenceTaskOptionRecord`: the record and a `TaskExecutorRef`.
typedef struct {
  SchedulersTaskOption base;
  void *_Nullable identity;
  uintptr_t implementation;
} SchedulersExecutorPreferenceOption;

/// `TaskOptionRecordKind`: the two kinds of initial task executor preference.
enum { InitialTaskExecutorUnowned = 5, InitialTaskExecutorOwned = 6 };

typedef struct {
  void *_Nullable task;
  void *_Nullable context;
} SchedulersTaskAndContext;

typedef SchedulersTaskAndContext (*SchedulersTaskCreate)(
    size_t, SchedulersTaskOption *_Nullable, const void *_Nullable, void *_Nullable,
    void *_Nullable) __attribute__((swiftcall));

static _Atomic(schedulers_task_creation_advisor) advisor;
static _Atomic(SchedulersTaskCreate) runtimeTaskCreate;
static atomic_bool interposed;

__attribute__((swiftcall)) void
schedulers_set_task_creation_advisor(schedulers_task_creation_advisor advice) {
  atomic_store_explicit(&advisor, advice, memory_order_release);
}

__attribute__((swiftcall)) bool schedulers_task_creation_is_interposed(void) {
  return atomic_load_explicit(&interposed, memory_order_relaxed);
}

static SchedulersTaskCreate theRuntimesTaskCreate(void) {
  SchedulersTaskCreate found = atomic_load_explicit(&runtimeTaskCreate, memory_order_acquire);
  if (found) return found;
  found = (SchedulersTaskCreate)dlsym(RTLD_NEXT, "swift_task_create");
  if (!found) {
    // Only reached if this definition is in use while no later object defines the symbol,
    // which a dynamically linked runtime always does.
    fputs("swift-schedulers: the runtime's swift_task_create was not found (dlsym)\n", stderr);
    abort();
  }
  atomic_store_explicit(&runtimeTaskCreate, found, memory_order_release);
  return found;
}

static bool prefersAnExecutor(const SchedulersTaskOption *_Nullable option) {
  for (; option; option = option->parent) {
    unsigned kind = option->flags & 0xFF;
    if (kind == InitialTaskExecutorUnowned || kind == InitialTaskExecutorOwned) return true;
  }
  return false;
}

__attribute__((swiftcall, weak, visibility("default"))) SchedulersTaskAndContext
swift_task_create(size_t flags, SchedulersTaskOption *_Nullable options,
                  const void *_Nullable futureResultType, void *_Nullable closureEntry,
                  void *_Nullable closureContext) {
  if (!atomic_load_explicit(&interposed, memory_order_relaxed)) {
    atomic_store_explicit(&interposed, true, memory_order_relaxed);
  }
  SchedulersExecutorPreferenceOption preference;
  schedulers_task_creation_advisor advise =
      atomic_load_explicit(&advisor, memory_order_acquire);
  if (advise && !prefersAnExecutor(options) &&
      advise(flags, &preference.identity, &preference.implementation)) {
    // Unowned: the executor outlives the task (the advisor's contract), as with
    // `withTaskExecutorPreference`.
    preference.base.flags = InitialTaskExecutorUnowned;
    preference.base.parent = options;
    options = &preference.base;
  }
  return theRuntimesTaskCreate()(flags, options, futureResultType, closureEntry, closureContext);
}

#else

__attribute__((swiftcall)) void
schedulers_set_task_creation_advisor(schedulers_task_creation_advisor advice) {
  (void)advice;
}

__attribute__((swiftcall)) bool schedulers_task_creation_is_interposed(void) { return false; }

#endif
