import Foundation
// Apple's Combine, as far as OpenCombine 0.14.0 reproduces it: the protocols and publishers,
// and the scheduler conformances of `DispatchQueue`, `RunLoop` and `OperationQueue` (which
// OpenCombine declares on platforms without Combine, with Apple's names and shapes).
//
// Like Apple's Combine, it is barely annotated for strict concurrency: `Scheduler`,
// `Cancellable` and `AnyCancellable` are not `Sendable`, and actions are plain `() -> Void`.
// What Apple's SDKs do declare `Sendable`, the stand-in declares too, so that the package's
// Combine side builds here against what it meets on Apple platforms (docs/apple-platforms.md):
// six of the seven scheduler time types. Dispatch's `Stride` is not `Sendable` on Apple.
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation

extension DispatchQueue.SchedulerTimeType: @retroactive @unchecked Sendable {}
extension DispatchQueue.SchedulerOptions: @retroactive @unchecked Sendable {}
extension RunLoop.SchedulerTimeType: @retroactive @unchecked Sendable {}
extension RunLoop.SchedulerTimeType.Stride: @retroactive @unchecked Sendable {}
extension OperationQueue.SchedulerTimeType: @retroactive @unchecked Sendable {}
extension OperationQueue.SchedulerTimeType.Stride: @retroactive @unchecked Sendable {}
