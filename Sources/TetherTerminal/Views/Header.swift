import Tether

/// Text broken into lines that fit a width, at spaces where possible: wrapped text in markup
/// and the alerts' messages.
enum TextWrapping {
  /// Breaks `text` into lines of at most `width` columns, at spaces where possible.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      let wordWidth = DisplayWidth.of(word)
      let needed = lineWidth == 0 ? wordWidth : lineWidth + 1 + wordWidth
      if needed <= width {
        line += lineWidth == 0 ? String(word) : " " + word
        lineWidth = needed
        continue
      }
      if lineWidth > 0 { lines.append(line) }
      // A word wider than the line is cut at character boundaries.
      line = ""
      lineWidth = 0
      for character in word {
        let characterWidth = DisplayWidth.of(character)
        if lineWidth + characterWidth > width, lineWidth > 0 {
          lines.append(line)
          line = ""
          lineWidth = 0
        }
        line.append(character)
        lineWidth += characterWidth
      }
    }
    lines.append(line)
    return lines
  }
}

/// The title bar: the screen's title, and what the back key does.
@MainActor
final class Header: TerminalView {
  private let title: String
  private let hint: String

  /// Creates a title bar.
  ///
  /// - Parameters:
  ///   - title: The screen's title.
  ///   - hint: Key help shown on the right.
  init(title: String, hint: String) {
    self.title = title
    self.hint = hint
  }

  /// Two rows: the title and a rule.
  func preferredHeight(width: Int) -> Int? { 2 }

  /// Draws the title, the hint and the rule.
  func draw(in canvas: inout Canvas, frame: Rect) {
    let style = CellStyle(bold: true, inverse: true)
    canvas.fill(x: frame.x, y: frame.y, width: frame.width, height: 1, style: style)
    // The hint shows when title and hint both fit; otherwise the title has the whole row.
    let hintWidth = DisplayWidth.of(hint)
    let showsHint = DisplayWidth.of(title) + hintWidth + 4 <= frame.width
    let titleSpace = showsHint ? frame.width - hintWidth - 2 : frame.width
    canvas.draw(" " + title, x: frame.x, y: frame.y, maxWidth: titleSpace, style: style)
    if showsHint {
      canvas.draw(hint + " ", x: frame.x + frame.width - hintWidth - 1, y: frame.y, style: style)
    }
    if frame.height > 1 {
      canvas.draw(
        String(repeating: "─", count: frame.width), x: frame.x, y: frame.y + 1,
        style: CellStyle(dim: true))
    }
  }
}
