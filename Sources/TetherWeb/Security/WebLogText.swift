/// Text a client sent, made safe to write into a log line: every control character (a
/// newline, a carriage return, an escape sequence, a line or paragraph separator) is written
/// as an escape, so a message cannot start a forged line of its own or move a terminal's
/// cursor, and long text is cut.
///
/// ```swift
/// let line = WebLogText.escaped("x\nFORGED: admin logged in")  // "x\\nFORGED: admin logged in"
/// ```
public enum WebLogText {
  /// The most characters (Unicode scalars, escapes counted as written) of one client value a
  /// log line carries.
  public static let defaultLimit = 120

  /// `text` with its control characters escaped, cut to `limit` scalars as written (then `…`).
  ///
  /// - Parameters:
  ///   - text: What the client sent.
  ///   - limit: The most characters kept.
  /// - Returns: One line of printable text.
  public static func escaped(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
    var output = ""
    var written = 0
    for scalar in text.unicodeScalars {
      let piece: String
      switch scalar {
      case "\n": piece = "\\n"
      case "\r": piece = "\\r"
      case "\t": piece = "\\t"
      case "\\": piece = "\\\\"
      default:
        let value = scalar.value
        // C0, DEL, C1, and the line and paragraph separators some log viewers break on.
        if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
          piece = "\\u{\(String(value, radix: 16))}"
        } else {
          piece = String(scalar)
        }
      }
      // The limit is on what is written: an escape is longer than the character it stands for.
      guard written + piece.unicodeScalars.count <= limit else {
        output += "…"
        break
      }
      written += piece.unicodeScalars.count
      output += piece
    }
    return output
  }
}
