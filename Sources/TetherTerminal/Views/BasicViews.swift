import Tether

/// One or more lines of text from a property (or a constant), wrapped or truncated to width.
@MainActor
public final class Label: TerminalView {
  private let text: Property<String>
  private let style: CellStyle
  private let wraps: Bool

  /// Creates a label bound to `text`.
  ///
  /// - Parameters:
  ///   - text: The text; its line breaks start new rows.
  ///   - style: How it is drawn.
  ///   - wraps: Wrap long lines instead of truncating them with "…".
  public init(_ text: Property<String>, style: CellStyle = .plain, wraps: Bool = false) {
    self.text = text
    self.style = style
    self.wraps = wraps
  }

  /// Creates a label with constant text.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - style: How it is drawn.
  ///   - wraps: Wrap long lines instead of truncating them.
  public convenience init(_ text: String, style: CellStyle = .plain, wraps: Bool = false) {
    self.init(Property(value: text), style: style, wraps: wraps)
  }

  /// As many rows as the lines need.
  public func preferredHeight(width: Int) -> Int? {
    max(1, lines(width: width).count)
  }

  /// Draws the lines.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    for (row, line) in lines(width: frame.width).prefix(frame.height).enumerated() {
      canvas.draw(line, x: frame.x, y: frame.y + row, maxWidth: frame.width, style: style)
    }
  }

  private func lines(width: Int) -> [String] {
    let paragraphs = text.value.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    guard wraps, width > 0 else { return paragraphs }
    return paragraphs.flatMap { Self.wrap($0, width: width) }
  }

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
public final class Header: TerminalView {
  private let title: String
  private let hint: String

  /// Creates a title bar.
  ///
  /// - Parameters:
  ///   - title: The screen's title.
  ///   - hint: Key help shown on the right.
  public init(title: String, hint: String) {
    self.title = title
    self.hint = hint
  }

  /// Two rows: the title and a rule.
  public func preferredHeight(width: Int) -> Int? { 2 }

  /// Draws the title, the hint and the rule.
  public func draw(in canvas: inout Canvas, frame: Rect) {
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

/// A spinner with a message, shown while `isActive` is true (and taking no room otherwise).
@MainActor
public final class Spinner: TerminalView {
  /// The animation frames.
  public static let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
  private let isActive: Property<Bool>
  private let message: String
  private let tick: Property<Int>

  /// Creates a spinner.
  ///
  /// - Parameters:
  ///   - isActive: When to show it.
  ///   - message: The text beside it.
  ///   - tick: The animation clock; it is read only while the spinner is drawn, so ticks
  ///     redraw nothing when no spinner is visible.
  public init(isActive: Property<Bool>, message: String = "Loading…", tick: Property<Int>) {
    self.isActive = isActive
    self.message = message
    self.tick = tick
  }

  /// One row while active, none otherwise.
  public func preferredHeight(width: Int) -> Int? { isActive.value ? 1 : 0 }

  /// Draws the current frame and the message.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    guard isActive.value, frame.height > 0 else { return }
    let glyph = Self.frames[abs(tick.value) % Self.frames.count]
    canvas.draw(
      "\(glyph) \(message)", x: frame.x, y: frame.y, maxWidth: frame.width,
      style: CellStyle(foreground: .cyan))
  }
}

/// A key-triggered button: `[ Title (k) ]`.
@MainActor
public final class Button: TerminalView {
  private let title: String
  private let key: Character
  private let isEnabled: Property<Bool>
  private let action: () -> Void

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - title: The label.
  ///   - key: The key that presses it.
  ///   - isEnabled: When it can be pressed.
  ///   - action: What pressing does.
  public init(
    _ title: String, key: Character, isEnabled: Property<Bool> = Property(value: true),
    action: @escaping () -> Void
  ) {
    self.title = title
    self.key = key
    self.isEnabled = isEnabled
    self.action = action
  }

  /// Draws the button, dimmed when disabled.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    let style = isEnabled.value ? CellStyle(bold: true, foreground: .green) : CellStyle(dim: true)
    canvas.draw(
      "[ \(title) (\(key)) ]", x: frame.x, y: frame.y, maxWidth: frame.width, style: style)
  }

  /// Presses the button on its key, when enabled.
  public func handle(_ key: Key) -> Bool {
    guard key == .character(self.key), isEnabled.value else { return false }
    action()
    return true
  }
}

/// An empty view that takes the space left over.
@MainActor
public final class Spacer: TerminalView {
  /// Creates a spacer.
  public init() {}
  /// Flexible.
  public func preferredHeight(width: Int) -> Int? { nil }
  /// Draws nothing.
  public func draw(in canvas: inout Canvas, frame: Rect) {}
}

/// A row of tabs, the selected one in brackets and reverse, for a screen whose tabs are TetherFlow's
/// `TabSelection` (or any selection by position): it only draws; the screen's keys select.
@MainActor
public final class TabBar: TerminalView {
  private let titles: [String]
  private let selected: Property<Int>

  /// Creates a tab bar.
  ///
  /// - Parameters:
  ///   - titles: The tabs' titles, in order.
  ///   - selected: The position of the tab shown.
  public init(_ titles: [String], selected: Property<Int>) {
    self.titles = titles
    self.selected = selected
  }

  /// One row.
  public func preferredHeight(width: Int) -> Int? { 1 }

  /// Draws the tabs side by side; those that do not fit are cut at the frame's edge.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    guard frame.height > 0 else { return }
    let current = selected.value
    var column = frame.x
    for (index, title) in titles.enumerated() {
      let room = frame.x + frame.width - column
      guard room > 0 else { break }
      // Marked in the text too, not only in reverse: a terminal read aloud, or without
      // colour, still says which tab is shown.
      let label = index == current ? "[\(title)]" : " \(title) "
      canvas.draw(
        label, x: column, y: frame.y, maxWidth: room,
        style: index == current ? CellStyle(bold: true, inverse: true) : CellStyle(dim: true))
      column += DisplayWidth.of(label) + 1
    }
  }
}
