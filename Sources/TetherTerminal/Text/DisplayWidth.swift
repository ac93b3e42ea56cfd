/// How many terminal columns text occupies.
///
/// Widths are per grapheme cluster (a Swift `Character`), which is what a terminal draws as one
/// glyph: `e` + U+0301 is one column, `👩‍💻` is two, `东` is two.
public enum DisplayWidth {
  /// The columns `character` occupies: 0, 1 or 2.
  ///
  /// - 0: control characters and zero-width characters (ZWSP, ZWJ and BOM alone, a combining
  ///   mark with nothing to combine with);
  /// - 2: East Asian wide and fullwidth characters (CJK, Hangul, kana, fullwidth forms), emoji
  ///   shown as emoji (emoji presentation, or text-default emoji followed by VS16), and flags;
  /// - 1: everything else, including a base character with combining marks.
  ///
  /// - Parameter character: One grapheme cluster.
  /// - Returns: Its width in columns.
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    let value = first.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if isZeroWidth(first) { return scalars.count == 1 ? 0 : of(rest: scalars) }
    if isWide(value) { return 2 }
    let properties = first.properties
    if properties.isEmojiPresentation { return 2 }
    if scalars.count > 1 {
      if properties.isEmoji && scalars.contains("\u{FE0F}") { return 2 }
      if (0x1F1E6...0x1F1FF).contains(value) { return 2 }  // a flag: two regional indicators
      if scalars.contains("\u{200D}") && properties.isEmoji { return 2 }
    }
    return 1
  }

  /// The columns `text` occupies.
  ///
  /// - Parameter text: Any text.
  /// - Returns: The sum of its characters' widths.
  public static func of(_ text: some StringProtocol) -> Int {
    var total = 0
    for character in text { total += of(character) }
    return total
  }

  /// Width of a cluster whose first scalar is zero-width: that of what follows it.
  private static func of(rest scalars: Character.UnicodeScalarView) -> Int {
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars.dropFirst())
    return of(String(text))
  }

  private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF: return true
    default:
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format: return true
      default: return false
      }
    }
  }

  /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth W and F), the ones a
  /// terminal draws in two columns whatever their emoji status.
  private static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
      0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
      0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
      0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F251, 0x20000...0x2FFFD,
      0x30000...0x3FFFD:
      true
    default:
      false
    }
  }
}

extension String {
  /// This text cut to at most `width` columns, ending in "…" when cut. A wide character that
  /// would straddle the limit is left out whole, never split.
  ///
  /// - Parameter width: The most columns the result may occupy.
  /// - Returns: The text, or a prefix of it followed by "…".
  public func truncated(toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    if DisplayWidth.of(self) <= width { return self }
    var result = ""
    var used = 0
    for character in self {
      let characterWidth = DisplayWidth.of(character)
      if used + characterWidth > width - 1 { break }
      result.append(character)
      used += characterWidth
    }
    return result + "…"
  }
}
