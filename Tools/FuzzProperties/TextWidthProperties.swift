import TetherTerminal

/// Display widths, truncation and drawing on any Unicode text: ZWJ sequences, flags,
/// combining marks, controls and replaced invalid scalars.
///
/// Input: byte 0 is the canvas width (0...63), byte 1 the column to draw at (signed), byte 2
/// the most columns to use, byte 3 how to read the rest: odd as UTF-8 (invalid bytes become
/// U+FFFD), even as 3-byte scalar values (surrogates and values past U+10FFFF become U+FFFD),
/// which reaches every plane quickly.
/// Properties:
/// - a character is 0, 1 or 2 columns, and a text is the sum of its characters;
/// - `truncated(toWidth:)` never exceeds the width, keeps text that fits in a positive width,
///   and otherwise is a prefix of the text followed by "…" (cut to 0 columns, it is empty);
/// - `Canvas.draw` reports the columns it used, within the limits; every row of the canvas
///   is exactly as wide as the canvas (a wide character is followed by its continuation
///   cell), and nothing outside the drawn span changes.
enum TextWidthProperties {
  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    guard input.count >= 4 else { return }
    let width = Int(input[0] % 64)
    let x = Int(Int8(bitPattern: input[1])) % 70
    let maxWidth = Int(input[2] % 70)
    let text = Self.text(input[3] % 2 == 1, Array(input.dropFirst(4)))

    var sum = 0
    for character in text {
      let columns = DisplayWidth.of(character)
      try require((0...2).contains(columns), "\(scalars(String(character))) is \(columns) columns")
      sum += columns
    }
    try require(DisplayWidth.of(text) == sum, "the text's width is not its characters' sum")

    for limit in [0, 1, 2, 3, width, maxWidth] {
      let cut = text.truncated(toWidth: limit)
      let cutWidth = DisplayWidth.of(cut)
      try require(
        cutWidth <= limit, "\(scalars(text)) cut to \(limit) is \(cutWidth) columns wide")
      if limit == 0 {
        try require(cut.isEmpty, "\(scalars(text)) cut to 0 columns is \(scalars(cut))")
      } else if sum <= limit {
        try require(cut == text, "\(scalars(text)) fits in \(limit) but was cut")
      } else {
        // Scalars, not characters: a prepended mark (U+0600…) joins the "…" into one cluster.
        try require(
          cut.unicodeScalars.last == "…", "\(scalars(text)) cut to \(limit) has no ellipsis")
        let kept = cut.unicodeScalars.dropLast()
        try require(
          text.unicodeScalars.starts(with: kept),
          "\(scalars(text)) cut to \(limit) is not a prefix of it")
      }
    }

    var canvas = Canvas(width: width, height: 2)
    let used = canvas.draw(text, x: x, y: 0, maxWidth: maxWidth)
    try require(used >= 0, "draw used \(used) columns")
    try require(
      used <= max(0, min(maxWidth, width - x)),
      "draw used \(used) columns from x \(x) within \(maxWidth) on a canvas \(width) wide")
    for row in 0..<2 {
      var columns = 0
      var column = 0
      while column < width {
        guard let cell = canvas[column, row] else {
          throw PropertyViolation("no cell at \(column), \(row) on a canvas \(width) wide")
        }
        try require(!cell.isContinuation, "a continuation cell at \(column) follows no wide cell")
        let cellWidth = DisplayWidth.of(cell.content)
        try require(
          cellWidth == 1 || cellWidth == 2,
          "the cell at \(column) holds \(scalars(cell.content)), \(cellWidth) columns")
        if cellWidth == 2 {
          try require(
            canvas[column + 1, row]?.isContinuation == true,
            "the wide cell at \(column) has no continuation cell")
        }
        if row == 1 || column < x || column >= x + used {
          try require(cell == .blank, "the cell at \(column), \(row) outside the text changed")
        }
        columns += cellWidth
        column += cellWidth
      }
      try require(columns == width, "row \(row) is \(columns) columns on a canvas \(width) wide")
    }
  }

  private static func text(_ utf8: Bool, _ bytes: [UInt8]) -> String {
    if utf8 { return String(decoding: bytes, as: UTF8.self) }
    var scalars = String.UnicodeScalarView()
    var index = 0
    while index + 3 <= bytes.count {
      let value =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
      index += 3
    }
    return String(scalars)
  }

  private static func scalars(_ text: some StringProtocol) -> String {
    text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
      .joined(separator: " ")
  }
}
