/// A small seedable random number generator (SplitMix64), so the bundled catalogs are the same
/// on every machine and every run.
///
/// The test kit has the same algorithm as `SeededRandomNumberGenerator`; the examples keep
/// their own because the showcase binaries must not link the test kit (it links Testing).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
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

  /// One element of `choices`, chosen by this generator.
  ///
  /// - Parameter choices: A non-empty array.
  /// - Returns: The chosen element, or `nil` if `choices` is empty.
  public mutating func pick<Element>(_ choices: [Element]) -> Element? {
    choices.isEmpty ? nil : choices[Int(next() % UInt64(choices.count))]
  }
}
