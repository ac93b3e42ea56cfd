/// What text a person may enter, the same in every view layer: a one-line field (a title, a
/// name) holds no control characters. A view model checks its input with it and shows the
/// refusal; a store checks again, so text from any source (a page's message, a paste, another
/// program) is held to one rule before it is kept.
///
/// ```swift
/// if let refusal = TextInputRule.oneLine.refusal(of: title, naming: "A title") {
///   errorMessage = refusal  // "A title cannot hold control characters (U+0000)."
///   return
/// }
/// ```
public struct TextInputRule: Sendable, Equatable {
  /// The control characters the rule lets through: none for one line; tab and line feed for
  /// several lines.
  public let allowed: Set<Unicode.Scalar>

  /// Creates a rule that lets `allowed` through and refuses every other control character.
  ///
  /// - Parameter allowed: The control characters text may hold.
  public init(allowing allowed: Set<Unicode.Scalar> = []) {
    self.allowed = allowed
  }

  /// One line: no control character at all.
  public static let oneLine = TextInputRule()
  /// Several lines: tabs and line feeds, and no other control character.
  public static let multiline = TextInputRule(allowing: ["\t", "\n"])

  /// Whether `scalar` is a control character: C0 (U+0000–U+001F), DEL (U+007F) or C1
  /// (U+0080–U+009F).
  ///
  /// - Parameter scalar: A scalar.
  /// - Returns: Whether it is one the rule judges.
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// The first control character of `text` the rule does not let through, if any.
  ///
  /// - Parameter text: The text.
  /// - Returns: The scalar, or `nil` for text the rule takes.
  public func firstRefused(in text: String) -> Unicode.Scalar? {
    text.unicodeScalars.first { Self.isControl($0) && !allowed.contains($0) }
  }

  /// The sentence that says why `text` is refused, or `nil` when it is taken.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - subject: What the text is, as the sentence starts: "A title".
  /// - Returns: Such as "A title cannot hold control characters (U+0000).".
  public func refusal(of text: String, naming subject: String) -> String? {
    guard let scalar = firstRefused(in: text) else { return nil }
    let hex = String(scalar.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    return "\(subject) cannot hold control characters (\(code))."
  }
}
