// The package's API speaks in dispatch queues (`AnySchedulerOf<DispatchQueue>`,
// `DispatchQueue.test`), so `import Schedulers` alone is enough to use it, on Linux too, where
// Dispatch is not imported implicitly.
@_exported import Dispatch
