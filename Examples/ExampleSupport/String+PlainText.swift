import Foundation

extension String {
  /// This text with HTML tags removed and the common entities decoded, for showing user-written
  /// descriptions (500px descriptions often carry `<a href=…>` links) as plain text.
  ///
  /// - Parameter singleLine: Collapse every run of whitespace, newlines included, into one space.
  /// - Returns: The plain text, trimmed.
  public func plainText(singleLine: Bool) -> String {
    var text = ""
    var insideTag = false
    for character in self {
      switch character {
      case "<": insideTag = true
      case ">" where insideTag: insideTag = false
      default: if !insideTag { text.append(character) }
      }
    }
    for (entity, character) in [
      ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "),
      ("&amp;", "&"),
    ] {
      text = text.replacingOccurrences(of: entity, with: character)
    }
    if singleLine {
      return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
