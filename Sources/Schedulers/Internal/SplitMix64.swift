/// The SplitMix64 generator: tiny, fast and seeded, for reproducible shuffles, benchmark
/// deadlines and fuzzed programs. The one copy in the repository, shared with `package` access.
@usableFromInline
package struct SplitMix64: RandomNumberGenerator, Sendable {
  @usableFromInline var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  @inlinable package init(seed: UInt64) { state = seed }

  /// The next 64 pseudo-random bits.
  @inlinable
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }
}
