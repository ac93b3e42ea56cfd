/// The input boundaries the fuzzers cover, one target each. `check` holds the properties; the
/// libFuzzer executables in `Fuzz/` and the corpus tests in `swift test` both call it.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// The terminal's `KeyParser`: arbitrary byte streams split at arbitrary points.
  case keys
  /// Every app's JSON decoding: the first byte picks the decoder, the rest is the body.
  case json
  /// `DisplayWidth`, `truncated(toWidth:)` and `Canvas.draw`: arbitrary Unicode.
  case text
  /// `ListDiff`: arbitrary pairs of lists, duplicate ids included.
  case diff
  /// The web protocol's `ClientMessage` decoder.
  case web

  /// Checks this target's properties for one input.
  ///
  /// - Parameter input: The fuzzer's bytes.
  /// - Throws: ``PropertyViolation`` naming the property that did not hold.
  public func check(_ input: [UInt8]) throws(PropertyViolation) {
    switch self {
    case .keys: try KeyStreamProperties.check(input)
    case .json: try JSONDecodingProperties.check(input)
    case .text: try TextWidthProperties.check(input)
    case .diff: try ListDiffProperties.check(input)
    case .web: try WebMessageProperties.check(input)
    }
  }
}
