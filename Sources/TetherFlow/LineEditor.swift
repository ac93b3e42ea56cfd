/// A one-line text field being edited: its text, a cursor, and the editing keys of a shell's
/// line editor. It is a value with no view in it, so a terminal field, a test and any view layer
/// that draws its own field share one set of rules.
///
/// The cursor stands between two characters — Swift `Character`s, grapheme clusters — so no key
/// ever splits an emoji, a flag or a letter from its accent. Its position is counted in
/// characters from the start.
///
/// ```swift
/// var field = LineEditor("Buy mlk")
/// field.apply(.moveLeft)
/// field.apply(.insert("i"))
/// print(field.text)  // "Buy milk"
/// ```
public struct LineEditor: Equatable, Hashable, Sendable {
  /// The text.
  public private(set) var text: String
  /// The cursor: how many characters stand before it, from 0 to `text.count`.
  public private(set) var cursor: Int

  /// Creates a field holding `text`.
  ///
  /// - Parameters:
  ///   - text: The text; line breaks and tabs become spaces and other control characters are
  ///     dropped, as for typed text.
  ///   - cursor: The cursor, clamped to the text; the end when `nil`.
  public init(_ text: String = "", cursor: Int? = nil) {
    self.text = Self.singleLine(text)
    self.cursor = 0
    self.cursor = min(max(cursor ?? self.text.count, 0), self.text.count)
  }

  /// Replaces the text, as a model's deliberate change does (a field cleared after submit, a
  /// title put in for editing, a trimmed value). The cursor keeps its place when the text
  /// before it is unchanged (the model changed only what follows); otherwise it goes to the
  /// end, to type on.
  ///
  /// - Parameter newText: The new text.
  public mutating func setText(_ newText: String) {
    let before = text.prefix(cursor)
    text = Self.singleLine(newText)
    cursor = cursor > 0 && text.starts(with: before) ? cursor : text.count
  }

  /// Applies one editing key.
  ///
  /// - Parameter edit: The key.
  /// - Returns: Whether the text or the cursor changed (a Backspace at the start does not).
  @discardableResult
  public mutating func apply(_ edit: LineEdit) -> Bool {
    let before = self
    switch edit {
    case .insert(let typed):
      let inserted = Self.singleLine(typed)
      guard !inserted.isEmpty else { return false }
      let head = String(text.prefix(cursor)) + inserted
      text = head + text.dropFirst(cursor)
      // A combining mark typed after a letter joins it: count what the head became.
      cursor = min(head.count, text.count)
    case .deleteBackward:
      guard cursor > 0 else { return false }
      remove(from: cursor - 1, to: cursor)
    case .deleteForward:
      guard cursor < text.count else { return false }
      remove(from: cursor, to: cursor + 1)
    case .moveLeft:
      cursor = max(cursor - 1, 0)
    case .moveRight:
      cursor = min(cursor + 1, text.count)
    case .moveToStart:
      cursor = 0
    case .moveToEnd:
      cursor = text.count
    case .moveWordLeft:
      cursor = wordStart(before: cursor)
    case .moveWordRight:
      cursor = wordEnd(after: cursor)
    case .deleteToStart:
      remove(from: 0, to: cursor)
    case .deleteToEnd:
      remove(from: cursor, to: text.count)
    case .deleteWordBackward:
      remove(from: wordStart(before: cursor), to: cursor)
    }
    return self != before
  }

  /// The part of the text a field `width` columns wide shows, scrolled so that the cursor is
  /// in view, and where the cursor stands in it.
  ///
  /// The field keeps its scroll while the cursor stays in view, so the text does not jump at
  /// each key; it scrolls just enough when the cursor leaves. A character that would not fit
  /// whole at the right edge is left out, never cut in half.
  ///
  /// - Parameters:
  ///   - width: The field's width in columns.
  ///   - scroll: The first character shown before this key (the last window's
  ///     ``Window/firstCharacter``); 0 for a new field.
  ///   - columns: The columns a character takes: 1, 2 for wide (East Asian, emoji), 0 for none.
  /// - Returns: What to draw.
  public func window(width: Int, scroll: Int, columns: (Character) -> Int) -> Window {
    guard width > 0 else { return Window(visible: "", cursorColumn: 0, firstCharacter: cursor) }
    let characters = Array(text)
    let widths = characters.map { max(columns($0), 0) }
    var first = min(max(scroll, 0), cursor)
    // The cursor needs a column of its own: the width of the character under it, or 1 at the
    // end of the text.
    let cursorWidth = cursor < characters.count ? max(widths[cursor], 1) : 1
    func columnsBeforeCursor() -> Int { widths[first..<cursor].reduce(0, +) }
    while first < cursor, columnsBeforeCursor() + cursorWidth > width {
      first += 1
    }
    var visible = ""
    var used = 0
    var index = first
    while index < characters.count, used + widths[index] <= width {
      visible.append(characters[index])
      used += widths[index]
      index += 1
    }
    return Window(visible: visible, cursorColumn: columnsBeforeCursor(), firstCharacter: first)
  }

  /// What a field of a given width shows: see ``window(width:scroll:columns:)``.
  public struct Window: Equatable, Sendable {
    /// The characters shown, none cut.
    public var visible: String
    /// The column of the cursor, from the field's left edge.
    public var cursorColumn: Int
    /// The first character shown: pass it as the next call's `scroll`.
    public var firstCharacter: Int
  }

  private mutating func remove(from start: Int, to end: Int) {
    guard start < end else { return }
    text = String(text.prefix(start)) + text.dropFirst(end)
    cursor = start
  }

  /// Where the word before `position` starts: back over spaces, then over the word (what
  /// Ctrl-W deletes in a shell).
  private func wordStart(before position: Int) -> Int {
    let characters = Array(text.prefix(position))
    var index = characters.count
    while index > 0, characters[index - 1].isWhitespace { index -= 1 }
    while index > 0, !characters[index - 1].isWhitespace { index -= 1 }
    return index
  }

  /// Where the word after `position` ends: over spaces, then over the word.
  private func wordEnd(after position: Int) -> Int {
    let characters = Array(text)
    var index = position
    while index < characters.count, characters[index].isWhitespace { index += 1 }
    while index < characters.count, !characters[index].isWhitespace { index += 1 }
    return index
  }

  /// Text as a one-line field takes it: a line break (`\n`, `\r\n`, `\r`) or a tab becomes a
  /// space, and any other control character is dropped, so a paste never breaks the line.
  static func singleLine(_ text: String) -> String {
    var result = ""
    for character in text {
      if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
        if character.isNewline || character == "\t" { result.append(" ") }
      } else {
        result.append(character)
      }
    }
    return result
  }
}

/// One editing key of a ``LineEditor``. The keys a terminal binds them to are listed with each.
public enum LineEdit: Equatable, Hashable, Sendable {
  /// Typed or pasted text, at the cursor.
  case insert(String)
  /// Backspace: the character before the cursor.
  case deleteBackward
  /// Delete: the character under the cursor.
  case deleteForward
  /// ←: one character left.
  case moveLeft
  /// →: one character right.
  case moveRight
  /// Home, Ctrl-A: to the start.
  case moveToStart
  /// End, Ctrl-E: to the end.
  case moveToEnd
  /// Alt-B, Ctrl-←: to the start of the word before the cursor.
  case moveWordLeft
  /// Alt-F, Ctrl-→: to the end of the word after the cursor.
  case moveWordRight
  /// Ctrl-U: everything before the cursor.
  case deleteToStart
  /// Ctrl-K: everything from the cursor on.
  case deleteToEnd
  /// Ctrl-W: the word before the cursor, and the spaces after it.
  case deleteWordBackward
}
