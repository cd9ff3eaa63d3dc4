import Schedulers

/// Frames and offsets for any scheduler stride: a stride has addition but, in general, no
/// multiplication by an integer or division, so both directions work by doubling (O(log n)
/// additions).
struct MarbleFrames<
  Stride: SchedulerTimeIntervalConvertible & Comparable & SignedNumeric & Sendable
>:
  Sendable
{
  /// The length of one frame, greater than zero.
  let frame: Stride

  /// The offset of frame `index` from the start: `index × frame`.
  func offset(ofFrame index: Int) -> Stride {
    precondition(index >= 0, "A frame index is zero or more, got \(index)")
    var result = Stride.zero
    var addend = frame
    var remaining = index
    while remaining > 0 {
      if remaining & 1 == 1 { result += addend }
      remaining >>= 1
      if remaining > 0 { addend += addend }
    }
    return result
  }

  /// The frame an offset falls in, and whether it falls exactly on that frame.
  func position(of offset: Stride) -> (frame: Int, onFrame: Bool) {
    guard offset > .zero else { return (0, offset == .zero) }
    // Gallop up with doubling steps, then come back down through them.
    var steps: [(stride: Stride, frames: Int)] = []
    var covered = Stride.zero
    var frames = 0
    var step = (stride: frame, frames: 1)
    while covered + step.stride <= offset {
      covered += step.stride
      frames += step.frames
      steps.append(step)
      step = (step.stride + step.stride, step.frames * 2)
    }
    for step in steps.reversed() where covered + step.stride <= offset {
      covered += step.stride
      frames += step.frames
    }
    return (frames, covered == offset)
  }
}
