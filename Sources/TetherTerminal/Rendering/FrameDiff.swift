/// Turns two frames into the terminal output that changes the first into the second, writing
/// only cells that differ: the double buffer of the terminal renderer.
public enum FrameDiff {
  /// The escape sequences and text that turn `old` into `new` on screen.
  ///
  /// A missing `old`, or one of another size (the terminal was resized), redraws everything.
  /// Otherwise each run of changed cells is written after one cursor move. The output ends with
  /// the style reset.
  ///
  /// - Parameters:
  ///   - old: The frame on screen, or `nil`.
  ///   - new: The frame to show.
  /// - Returns: The output, empty when the frames are equal.
  public static func output(from old: Canvas?, to new: Canvas) -> String {
    let full = old.map { $0.width != new.width || $0.height != new.height } ?? true
    var output = full ? "\u{1B}[0m\u{1B}[2J" : ""
    var currentStyle: CellStyle? = full ? .plain : nil
    for row in 0..<new.height {
      var column = 0
      var cursorColumn: Int?  // where the cursor is on this row, if known
      while column < new.width {
        guard let cell = new[column, row] else { break }
        let unchanged = !full && old?[column, row] == cell
        if unchanged || cell.isContinuation {
          column += 1
          continue
        }
        if cursorColumn != column {
          output += "\u{1B}[\(row + 1);\(column + 1)H"
        }
        if currentStyle != cell.style {
          output += sgr(cell.style)
          currentStyle = cell.style
        }
        output += cell.content
        let cellWidth = new[column + 1, row]?.isContinuation == true ? 2 : 1
        column += cellWidth
        cursorColumn = column
      }
    }
    if output.isEmpty { return "" }
    return output + "\u{1B}[0m"
  }

  /// The SGR sequence selecting `style` from scratch.
  static func sgr(_ style: CellStyle) -> String {
    var codes = ["0"]
    if style.bold { codes.append("1") }
    if style.dim { codes.append("2") }
    if style.underline { codes.append("4") }
    if style.inverse { codes.append("7") }
    if let color = style.foreground { codes.append(String(30 + Int(color.rawValue))) }
    return "\u{1B}[" + codes.joined(separator: ";") + "m"
  }
}
