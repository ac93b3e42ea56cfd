/// A small, fast, seedable generator (SplitMix64), so randomized tests are reproducible: a
/// failing seed fails the same way on every machine.
///
/// ```swift
/// var random = SeededRandomNumberGenerator(seed: 42)
/// let script = (0..<100).map { _ in Int.random(in: 0..<4, using: &random) }
/// ```
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  ///
  /// - Parameter seed: Any value; equal seeds give equal sequences.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
