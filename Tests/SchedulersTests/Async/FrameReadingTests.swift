import Testing

@testable import SchedulersDeterministic

/// How a task's frames are read for a deadlock's report (`TaskHeader.resumePoints`): only
/// addresses that may be frames are followed, and the probe takes the layout as known only
/// when what it reads is its own task's frames.
@Suite("Reading a task's frames")
struct FrameReadingTests {
  /// User space ends at 1 << 47 on x86_64 and at 1 << 48 on arm64 (48-bit virtual addresses),
  /// where the stack and `mmap`'d memory lie just below 1 << 48: a bound of 1 << 47 there
  /// took every such frame for something else, and the probe failed.
  @Test func aFrameMayLieAnywhereInTheArchitecturesUserSpace() {
    let arm64UserAddress: UInt = 0x0000_ffff_8000_1000
    let x86UserAddress: UInt = 0x0000_7ffd_e000_1000
    #expect(TaskHeader.mayHoldAFrame(arm64UserAddress, on: .arm64))
    #expect(!TaskHeader.mayHoldAFrame(arm64UserAddress, on: .x86_64))
    #expect(TaskHeader.mayHoldAFrame(x86UserAddress, on: .x86_64))
    #expect(TaskHeader.mayHoldAFrame(x86UserAddress, on: .arm64))
    #expect(TaskHeader.mayHoldAFrame((1 << 48) - 16, on: .arm64))
    #expect(!TaskHeader.mayHoldAFrame(1 << 48, on: .arm64))
    #expect(TaskHeader.mayHoldAFrame((1 << 47) - 16, on: .x86_64))
    #expect(!TaskHeader.mayHoldAFrame(1 << 47, on: .x86_64))
  }

  /// Kernel addresses, a pointer with a tag in its top byte, an unaligned one and one in the
  /// first 64 KiB are never followed, on any architecture.
  @Test(arguments: UserSpace.Architecture.allCases)
  func whatCannotBeAFrameIsNotFollowed(on architecture: UserSpace.Architecture) {
    let x86KernelAddress: UInt = 0xffff_8880_0000_1000
    let arm64KernelAddress: UInt = 0xffff_0000_0800_1000
    let taggedAddress: UInt = 0x0f00_ffff_8000_1000
    for address in [x86KernelAddress, arm64KernelAddress, taggedAddress, 0x7ffd_e000_1008, 0x8000] {
      #expect(
        !TaskHeader.mayHoldAFrame(address, on: architecture),
        "\(String(address, radix: 16)) on \(architecture)")
    }
  }

  #if os(Linux)
    /// The probe's own task's frames are taken for the probe's.
    @Test func theProbeFindsItsOwnFrames() async {
      let points = await RuntimeABI.probesResumePoints()
      #expect(RuntimeABI.areTheProbesOwnFrames(points), "\(points.map(FunctionNames.name(of:)))")
    }

    /// Another task's frames, read as the probe reads its own (as many, all in loaded code, in
    /// the same image), are not: a layout read at the wrong offsets could find such a chain.
    @Test func anotherTasksFramesAreNotTakenForTheProbes() async throws {
      await RuntimeABI.probeOnce()
      let points = await Task { await Self.readsItsOwnResumePoints() }.value
      try #require(points.count >= 3, "the frames were not read here")
      #expect(
        !RuntimeABI.areTheProbesOwnFrames(points), "\(points.map(FunctionNames.name(of:)))")
    }

    /// Code of another image (the C library's), however many points there are, is not the
    /// probe's.
    @Test func codeOfAnotherImageIsNotTakenForTheProbesFrames() throws {
      let functions = ["strlen", "malloc", "free"].compactMap(processSymbol)
      try #require(functions.count == 3)
      #expect(!RuntimeABI.areTheProbesOwnFrames(functions.map { UInt(bitPattern: $0) }))
    }

    @inline(never)
    static func readsItsOwnResumePoints() async -> [UInt] {
      await withUnsafeContinuation { continuation in
        let points = withUnsafeCurrentTask { task in
          task.map { TaskHeader(unsafeBitCast($0, to: UnsafeRawPointer.self)) }?.resumePoints()
            ?? []
        }
        continuation.resume(returning: points)
      }
    }
  #endif
}
