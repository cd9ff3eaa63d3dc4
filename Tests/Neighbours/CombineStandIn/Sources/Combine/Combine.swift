// Apple's Combine, as far as OpenCombine 0.14.0 reproduces it: the protocols and publishers,
// and the scheduler conformances of `DispatchQueue`, `RunLoop` and `OperationQueue` (which
// OpenCombine declares on platforms without Combine, with Apple's names and shapes).
//
// Like Apple's Combine, none of it is annotated for strict concurrency: `Scheduler`,
// `Cancellable`, `AnyCancellable` and the scheduler time types are not `Sendable`, and
// actions are plain `() -> Void`.
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
