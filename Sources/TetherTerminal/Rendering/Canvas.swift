/// A terminal color: the 8 standard ones and their bright variants.
public enum TerminalColor: UInt8, Equatable, Hashable, Sendable {
  case black = 0, red, green, yellow, blue, magenta, cyan, white
  case brightBlack = 60, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta
  case brightCyan, brightWhite
}

/// How a cell is drawn.
public struct CellStyle: Equatable, Hashable, Sendable {
  /// Heavier text.
  public var bold = false
  /// Fainter text.
  public var dim = false
  /// Underlined text.
  public var underline = false
  /// Foreground and background swapped: the selection highlight.
  public var inverse = false
  /// The text color, or the terminal's default.
  public var foreground: TerminalColor?

  /// The terminal's default look.
  public static let plain = CellStyle()

  /// Creates a style.
  ///
  /// - Parameters:
  ///   - bold: Heavier text.
  ///   - dim: Fainter text.
  ///   - underline: Underlined text.
  ///   - inverse: Swapped colors.
  ///   - foreground: The text color.
  public init(
    bold: Bool = false, dim: Bool = false, underline: Bool = false, inverse: Bool = false,
    foreground: TerminalColor? = nil
  ) {
    self.bold = bold
    self.dim = dim
    self.underline = underline
    self.inverse = inverse
    self.foreground = foreground
  }
}

/// One cell of the grid.
public struct Cell: Equatable, Hashable, Sendable {
  /// The grapheme cluster drawn here; empty for the right half of a wide character.
  public var content: String
  /// The cell's style.
  public var style: CellStyle

  /// A blank cell.
  public static let blank = Cell(content: " ", style: .plain)

  /// Whether this is the right half of a two-column character.
  public var isContinuation: Bool { content.isEmpty }

  /// Creates a cell.
  ///
  /// - Parameters:
  ///   - content: The grapheme cluster to draw.
  ///   - style: The style.
  public init(content: String, style: CellStyle) {
    self.content = content
    self.style = style
  }
}

/// A grid of cells that views draw into: the in-memory screen. The terminal renderer writes
/// only the cells that differ from the previous frame, and tests read ``text`` as a snapshot.
///
/// Drawing is total: coordinates outside the grid are clipped, control characters are not
/// drawn, and a two-column character never ends up half drawn (a wide character that does not
/// fit in the last column is replaced by a space, and overwriting either half of one clears
/// the other).
public struct Canvas: Equatable, Sendable {
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
  private var cells: [Cell]

  /// Creates a blank canvas; negative sizes count as 0.
  ///
  /// - Parameters:
  ///   - width: Columns.
  ///   - height: Rows.
  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  /// The cell at column `x`, row `y`, or `nil` outside the grid.
  public subscript(x: Int, y: Int) -> Cell? {
    guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
    return cells[y * width + x]
  }

  /// Draws `text` from column `x` on row `y`, within `maxWidth` columns (the rest of the row by
  /// default), truncating with "…" if it does not fit.
  ///
  /// - Parameters:
  ///   - text: The text; line breaks and tabs are drawn as spaces, other controls not at all.
  ///   - x: The first column.
  ///   - y: The row.
  ///   - maxWidth: The most columns to use.
  ///   - style: The style of the drawn cells.
  /// - Returns: The columns used.
  @discardableResult
  public mutating func draw(
    _ text: String, x: Int, y: Int, maxWidth: Int? = nil, style: CellStyle = .plain
  ) -> Int {
    guard (0..<height).contains(y), x < width else { return 0 }
    let limit = min(maxWidth ?? (width - x), width - x)
    guard limit > 0 else { return 0 }
    let clean = Self.printable(text).truncated(toWidth: limit)
    var column = x
    for character in clean {
      let characterWidth = DisplayWidth.of(character)
      if characterWidth == 0 { continue }
      if column + characterWidth > x + limit { break }
      if column >= 0 { put(character, width: characterWidth, x: column, y: y, style: style) }
      column += characterWidth
    }
    return column - x
  }

  /// Fills `width × height` cells from `(x, y)` with `character`.
  ///
  /// - Parameters:
  ///   - x: The left column.
  ///   - y: The top row.
  ///   - width: Columns to fill.
  ///   - height: Rows to fill.
  ///   - character: A one-column character.
  ///   - style: The style.
  public mutating func fill(
    x: Int, y: Int, width: Int, height: Int, with character: Character = " ",
    style: CellStyle = .plain
  ) {
    let line = String(repeating: character, count: max(0, width))
    for row in y..<(y + max(0, height)) { draw(line, x: x, y: row, maxWidth: width, style: style) }
  }

  /// The canvas as plain text, one line per row, trailing spaces removed: the form snapshot
  /// tests compare.
  public var text: String {
    (0..<height).map { row in
      var line = ""
      for column in 0..<width { line += cells[row * width + column].content }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
    .joined(separator: "\n")
  }

  private mutating func put(
    _ character: Character, width characterWidth: Int, x: Int, y: Int, style: CellStyle
  ) {
    if characterWidth == 2 && x + 1 >= width {
      clear(x: x, y: y)
      cells[y * width + x] = Cell(content: " ", style: style)
      return
    }
    clear(x: x, y: y)
    if characterWidth == 2 { clear(x: x + 1, y: y) }
    cells[y * width + x] = Cell(content: String(character), style: style)
    if characterWidth == 2 { cells[y * width + x + 1] = Cell(content: "", style: style) }
  }

  /// Blanks the cell at `(x, y)` and the other half of a wide character it belongs to.
  private mutating func clear(x: Int, y: Int) {
    let index = y * width + x
    if cells[index].isContinuation, x > 0 {
      cells[index - 1] = .blank
    } else if x + 1 < width, cells[index + 1].isContinuation {
      cells[index + 1] = .blank
    }
    cells[index] = .blank
  }

  private static func printable(_ text: String) -> String {
    var result = ""
    for character in text {
      if character == "\t" || character.isNewline {
        result.append(" ")
      } else if let scalar = character.unicodeScalars.first,
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
      {
        continue
      } else {
        result.append(character)
      }
    }
    return result
  }
}

extension Canvas {
  /// Clears `frame` and draws a border around it (bold by default), with `title` on its top
  /// edge: the modal boxes' frame (alerts, confirmation dialogs, sheets) and markup's boxes.
  ///
  /// - Parameters:
  ///   - frame: The box, border included; at least 2 × 2.
  ///   - title: Written on the top edge, cut to fit.
  ///   - titleStyle: How the title is drawn.
  ///   - rounded: Rounded corners (a sheet) rather than square ones (an alert).
  ///   - borderStyle: How the border is drawn.
  mutating func drawBox(
    _ frame: Rect, title: String, titleStyle: CellStyle, rounded: Bool = false,
    borderStyle: CellStyle = CellStyle(bold: true)
  ) {
    let border = borderStyle
    guard frame.width >= 2, frame.height >= 2 else { return }
    let (topLeft, topRight, bottomLeft, bottomRight) =
      rounded
      ? ("╭", "╮", "╰", "╯") : ("┌", "┐", "└", "┘")
    let line = String(repeating: "─", count: frame.width - 2)
    fill(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
    draw(topLeft + line + topRight, x: frame.x, y: frame.y, style: border)
    for row in 1..<(frame.height - 1) {
      draw("│", x: frame.x, y: frame.y + row, style: border)
      draw("│", x: frame.x + frame.width - 1, y: frame.y + row, style: border)
    }
    draw(bottomLeft + line + bottomRight, x: frame.x, y: frame.y + frame.height - 1, style: border)
    guard !title.isEmpty else { return }
    draw(" \(title) ", x: frame.x + 2, y: frame.y, maxWidth: frame.width - 4, style: titleStyle)
  }
}
