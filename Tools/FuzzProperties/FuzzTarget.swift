/// The library's input boundaries the fuzzers cover, one target each. `check` holds the
/// properties; the libFuzzer executables in `Fuzz/` and the corpus tests in `swift test` both
/// call it. (The apps' JSON decoding is the examples' own target, `json`.)
///
/// This module exists for Tether's own fuzzing and tests; it is not an API to build on.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// The terminal's `KeyParser`: arbitrary byte streams split at arbitrary points.
  case keys
  /// `DisplayWidth`, `truncated(toWidth:)` and `Canvas.draw`: arbitrary Unicode.
  case text
  /// `ListDiff`: arbitrary pairs of lists, duplicate ids included.
  case diff
  /// The web protocol's `ClientMessage` decoder.
  case web
  /// Deliveries through chains of derived properties that free, cancel and set parts of the
  /// chain from inside them.
  case delivery

  /// Checks this target's properties for one input.
  ///
  /// - Parameter input: The fuzzer's bytes.
  /// - Throws: ``PropertyViolation`` naming the property that did not hold.
  public func check(_ input: [UInt8]) throws(PropertyViolation) {
    switch self {
    case .keys: try KeyStreamProperties.check(input)
    case .text: try TextWidthProperties.check(input)
    case .diff: try ListDiffProperties.check(input)
    case .web: try WebMessageProperties.check(input)
    case .delivery: try DeliveryProperties.check(input)
    }
  }
}
