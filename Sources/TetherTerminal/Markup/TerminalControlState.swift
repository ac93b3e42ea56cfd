import Tether
import TetherFlow

/// What the layer keeps of a list from frame to frame: its selection and scroll.
@MainActor
protocol TerminalListState: AnyObject {
  var index: Int { get }
  var offset: Int { get set }
  var pageSize: Int { get set }
  var onMove: (Int) -> Void { get set }
  var onActivate: (Int) -> Void { get set }
  var restorationKey: String? { get }
  func restore(_ key: String)
  func handle(_ key: ScreenKey) -> Bool
}

/// A list's rows and its `ListSelection`, which follows the selected row by identity as the
/// rows each frame hands it change.
@MainActor
final class TerminalListModel<Row: Identifiable & Equatable>: TerminalListState {
  private let rows: MutableProperty<[Row]>
  let selection: ListSelection<Row>
  var offset = 0
  var pageSize = 1
  var onMove: (Int) -> Void = { _ in }
  var onActivate: (Int) -> Void = { _ in }

  init(_ rows: [Row]) {
    let property = MutableProperty(rows)
    self.rows = property
    // The selection calls back through a weak reference: it is owned by this model.
    weak var model: TerminalListModel?
    selection = ListSelection(
      rows: property, onMove: { model?.onMove($0) }, onActivate: { model?.onActivate($0) })
    model = self
  }

  /// Hands the list this frame's rows; the selection follows its row through the change.
  func update(_ newRows: [Row]) {
    if rows.value != newRows { rows.value = newRows }
  }

  var index: Int { selection.index }
  var restorationKey: String? { selection.restorationKey }
  func restore(_ key: String) { selection.restore(key) }
  func handle(_ key: ScreenKey) -> Bool { selection.handle(key, pageSize: pageSize) }
}

/// A view model's text as a field or text area edits it: a `FieldBinding`, so each edit
/// reaches the model numbered and what the model sets comes back.
@MainActor
final class TerminalBoundText {
  let text: MutableProperty<String>
  let binding: FieldBinding<String>
  private var edits = 0

  init(_ text: MutableProperty<String>) {
    self.text = text
    binding = FieldBinding(text)
  }

  /// Reads the model's text, so that a frame showing it is drawn again when it changes.
  func track() { _ = binding.state.value }

  /// The person changed the text to `newText`.
  func edited(_ newText: String) {
    edits += 1
    binding.userEdited(newText, sequence: edits)
  }
}

/// What a text field or area keeps from frame to frame.
@MainActor
protocol TerminalTextState: AnyObject {
  init(_ text: MutableProperty<String>)
  var bound: TerminalBoundText { get }
}

/// A text field's editor, bound to its view model's text.
@MainActor
final class TerminalFieldState: TerminalTextState {
  let bound: TerminalBoundText
  private(set) var editor: LineEditor
  var scroll = 0
  private var token: ObservationToken?

  init(_ text: MutableProperty<String>) {
    bound = TerminalBoundText(text)
    editor = LineEditor(text.value)
    token = bound.binding.updates.observe { [weak self] update in
      // Every edit reaches the model at once, so the model has always seen them all.
      self?.editor.setText(update.value)
    }
  }

  /// The text, read so that a frame showing it is drawn again when it changes.
  var shownText: String {
    bound.track()
    return editor.text
  }

  /// Applies a line-editing key; `false` for a key that is not one.
  func handle(_ key: Key) -> Bool {
    let edit: LineEdit
    switch key {
    case .character(let character): edit = .insert(String(character))
    case .paste(let text): edit = .insert(text)
    case .backspace, .control("h"): edit = .deleteBackward
    case .delete, .control("d"): edit = .deleteForward
    case .left, .control("b"): edit = .moveLeft
    case .right, .control("f"): edit = .moveRight
    case .home, .control("a"): edit = .moveToStart
    case .end, .control("e"): edit = .moveToEnd
    case .alt("b"): edit = .moveWordLeft
    case .alt("f"): edit = .moveWordRight
    case .control("u"): edit = .deleteToStart
    case .control("k"): edit = .deleteToEnd
    case .control("w"): edit = .deleteWordBackward
    default: return false
    }
    let before = editor.text
    editor.apply(edit)
    if editor.text != before { bound.edited(editor.text) }
    return true
  }
}

/// A text area's text and cursor, bound to its view model's text. Unlike a field it keeps line
/// breaks: Enter starts a new line and a paste keeps its own.
@MainActor
final class TerminalAreaState: TerminalTextState {
  let bound: TerminalBoundText
  /// The text as characters, and the cursor: how many stand before it.
  private(set) var characters: [Character]
  private(set) var cursor: Int
  var scroll = 0
  private var token: ObservationToken?

  init(_ text: MutableProperty<String>) {
    bound = TerminalBoundText(text)
    characters = Array(text.value)
    cursor = characters.count
    token = bound.binding.updates.observe { [weak self] update in
      guard let self else { return }
      self.characters = Array(update.value)
      self.cursor = min(self.cursor, self.characters.count)
    }
  }

  /// The text, read so that a frame showing it is drawn again when it changes.
  var shownText: String {
    bound.track()
    return String(characters)
  }

  /// Applies an editing key; `false` for a key that is not one (Tab, Escape, shortcuts).
  func handle(_ key: Key) -> Bool {
    switch key {
    case .character(let character): insert([character])
    case .paste(let pasted): insert(Array(pasted.replacing("\r\n", with: "\n")))
    case .enter: insert(["\n"])
    case .backspace, .control("h"):
      guard cursor > 0 else { return true }
      characters.remove(at: cursor - 1)
      cursor -= 1
      edited()
    case .delete, .control("d"):
      guard cursor < characters.count else { return true }
      characters.remove(at: cursor)
      edited()
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(characters.count, cursor + 1)
    case .home, .control("a"): cursor = lineStart(cursor)
    case .end, .control("e"): cursor = lineEnd(cursor)
    case .up, .down:
      let start = lineStart(cursor)
      let column = cursor - start
      if key == .up {
        guard start > 0 else { return false }
        let previous = lineStart(start - 1)
        cursor = min(previous + column, start - 1)
      } else {
        let end = lineEnd(cursor)
        guard end < characters.count else { return false }
        cursor = min(end + 1 + column, lineEnd(end + 1))
      }
    default: return false
    }
    return true
  }

  /// The lines of the text, each with the position of its first character.
  var lines: [(start: Int, text: String)] {
    var result: [(Int, String)] = []
    var start = 0
    var line = ""
    for (position, character) in characters.enumerated() {
      if character == "\n" {
        result.append((start, line))
        line = ""
        start = position + 1
      } else {
        line.append(character)
      }
    }
    result.append((start, line))
    return result
  }

  private func insert(_ typed: [Character]) {
    let clean = typed.filter { $0 == "\n" || !($0.asciiValue.map { $0 < 0x20 } ?? false) }
    guard !clean.isEmpty else { return }
    characters.insert(contentsOf: clean, at: cursor)
    cursor += clean.count
    edited()
  }

  private func edited() { bound.edited(String(characters)) }

  private func lineStart(_ position: Int) -> Int {
    var start = min(position, characters.count)
    while start > 0, characters[start - 1] != "\n" { start -= 1 }
    return start
  }

  private func lineEnd(_ position: Int) -> Int {
    var end = min(position, characters.count)
    while end < characters.count, characters[end] != "\n" { end += 1 }
    return end
  }
}
