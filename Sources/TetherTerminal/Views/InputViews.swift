import Tether
import TetherFlow

/// A one-line text field bound both ways to a view model's text: what the person types sets
/// it, and what the model sets (clearing it after submit, trimming it) shows.
///
/// It edits as a shell's line editor does (TetherFlow's `LineEditor`): typing inserts at the
/// cursor; Backspace, Delete, ←/→, Home/End, Ctrl-A/E/U/K/W and Alt-B/F do what they do in a
/// shell; a bracketed paste is inserted as text on one line. Enter submits, Escape cancels when
/// the field has an `onCancel` (otherwise Escape goes back). The cursor never splits a
/// character, and a field narrower than its text scrolls to keep the cursor in view.
///
/// A field takes keys only while `isFocused` is `true`; the screen's view model decides which
/// field that is (TetherFlow's `FocusOrder`). ↑, ↓, Tab and Shift-Tab pass through it to the
/// screen.
///
/// ```swift
/// TextField(viewModel.newTitle, placeholder: "What needs to be done?",
///           onSubmit: { viewModel.addRequested() })
/// ```
@MainActor
public final class TextField: TerminalView {
  private let binding: FieldBinding<String>
  private let placeholder: String
  private let isFocused: Property<Bool>
  private let onSubmit: () -> Void
  private let onCancel: (() -> Void)?
  private var editor: LineEditor
  private var scroll = 0
  private var edits = 0
  private var token: ObservationToken?

  /// Creates a field.
  ///
  /// - Parameters:
  ///   - text: The view model's text: the field shows it and writes each edit to it.
  ///   - placeholder: Shown, dimmed, while the text is empty.
  ///   - isFocused: Whether the field takes keys and shows its cursor; always by default.
  ///   - onSubmit: What Enter does.
  ///   - onCancel: What Escape does; `nil` leaves Escape to the screen (back).
  public init(
    _ text: MutableProperty<String>, placeholder: String = "",
    isFocused: Property<Bool> = Property(value: true), onSubmit: @escaping () -> Void = {},
    onCancel: (() -> Void)? = nil
  ) {
    binding = FieldBinding(text)
    self.placeholder = placeholder
    self.isFocused = isFocused
    self.onSubmit = onSubmit
    self.onCancel = onCancel
    editor = LineEditor(text.value)
    token = binding.updates.observe { [weak self] update in
      // The terminal's edits reach the model at once, so the model has always seen them all.
      self?.editor.setText(update.value)
    }
  }

  /// The text and cursor being edited.
  public var editing: LineEditor { editor }

  /// Draws `› text` with the cursor as an inverse cell when focused, or the placeholder dimmed.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    guard frame.width > 2, frame.height > 0 else { return }
    let focused = isFocused.value
    _ = binding.state.value  // a frame that drew the field redraws when the text changes
    canvas.draw(focused ? "›" : " ", x: frame.x, y: frame.y, style: CellStyle(bold: true))
    let x = frame.x + 2
    let width = frame.width - 2
    if editor.text.isEmpty, !focused || !placeholder.isEmpty {
      canvas.draw(placeholder, x: x, y: frame.y, maxWidth: width, style: CellStyle(dim: true))
    }
    let window = editor.window(width: width, scroll: scroll, columns: DisplayWidth.of)
    scroll = window.firstCharacter
    if !window.visible.isEmpty {
      canvas.draw(window.visible, x: x, y: frame.y, maxWidth: width)
    }
    guard focused else { return }
    // The cursor: the character under it in inverse, or an inverse space at the end.
    // The cursor: the character under it in inverse, or an inverse space at the end (over an
    // empty field, the placeholder's first character, dimmed).
    let characters = Array(editor.text)
    var under: Character = editor.cursor < characters.count ? characters[editor.cursor] : " "
    var style = CellStyle(inverse: true)
    if editor.text.isEmpty, let first = placeholder.first {
      under = first
      style.dim = true
    }
    let shown = DisplayWidth.of(under) == 0 ? " " : under
    canvas.draw(
      String(shown), x: x + window.cursorColumn, y: frame.y,
      maxWidth: width - window.cursorColumn, style: style)
  }

  /// Edits on the line-editor keys while focused; Enter submits; Escape cancels if it can.
  public func handle(_ key: Key) -> Bool {
    guard isFocused.value else { return false }
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
    case .enter:
      onSubmit()
      return true
    case .escape:
      guard let onCancel else { return false }
      onCancel()
      return true
    default:
      return false
    }
    let before = editor.text
    editor.apply(edit)
    if editor.text != before {
      edits += 1
      binding.userEdited(editor.text, sequence: edits)
    }
    return true
  }
}

/// A checkbox bound both ways to a view model's flag: `[x] title`. Space toggles it while it
/// is focused.
///
/// ```swift
/// Checkbox("Remember me", isOn: viewModel.remembers)
/// ```
@MainActor
public final class Checkbox: TerminalView {
  private let title: Property<String>
  private let isOn: MutableProperty<Bool>
  private let isFocused: Property<Bool>

  /// Creates a checkbox.
  ///
  /// - Parameters:
  ///   - title: The label, following the model.
  ///   - isOn: The view model's flag: shown, and toggled by Space.
  ///   - isFocused: Whether Space reaches it; always by default.
  public init(
    _ title: Property<String>, isOn: MutableProperty<Bool>,
    isFocused: Property<Bool> = Property(value: true)
  ) {
    self.title = title
    self.isOn = isOn
    self.isFocused = isFocused
  }

  /// Creates a checkbox with a fixed label.
  ///
  /// - Parameters:
  ///   - title: The label.
  ///   - isOn: The view model's flag.
  ///   - isFocused: Whether Space reaches it; always by default.
  public convenience init(
    _ title: String, isOn: MutableProperty<Bool>, isFocused: Property<Bool> = Property(value: true)
  ) {
    self.init(Property(value: title), isOn: isOn, isFocused: isFocused)
  }

  /// Draws `[x] title` (or `[ ] title`), bold when focused.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    let box = isOn.value ? "[x]" : "[ ]"
    let label = title.value
    canvas.draw(
      label.isEmpty ? box : "\(box) \(label)", x: frame.x, y: frame.y, maxWidth: frame.width,
      style: CellStyle(bold: isFocused.value))
  }

  /// Space toggles the flag while focused.
  public func handle(_ key: Key) -> Bool {
    guard isFocused.value, key == .character(" ") else { return false }
    isOn.value.toggle()
    return true
  }
}

/// Lays views left to right on one row band: fixed-width views get their columns, flexible
/// ones share the rest. Keys are offered to each view in turn.
@MainActor
public final class HStack: TerminalView {
  /// The views, left first, each with its width (`nil`: a share of what is left).
  public let children: [(view: any TerminalView, width: Int?)]
  private let spacing: Int

  /// Creates a row.
  ///
  /// - Parameters:
  ///   - spacing: Blank columns between views.
  ///   - children: The views, left first, each with its width in columns or `nil` for a share
  ///     of what is left.
  public init(spacing: Int = 1, _ children: [(view: any TerminalView, width: Int?)]) {
    self.children = children
    self.spacing = spacing
  }

  /// The tallest child's rows at its width; flexible if any child is.
  public func preferredHeight(width: Int) -> Int? {
    var tallest = 0
    for (child, childWidth) in zip(children.map(\.view), widths(in: width)) {
      guard let height = child.preferredHeight(width: childWidth) else { return nil }
      tallest = max(tallest, height)
    }
    return tallest
  }

  /// Lays the children out left to right and draws them.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    var x = frame.x
    for (child, width) in zip(children.map(\.view), widths(in: frame.width)) {
      let columns = min(width, frame.x + frame.width - x)
      guard columns > 0 else { continue }
      child.draw(in: &canvas, frame: Rect(x: x, y: frame.y, width: columns, height: frame.height))
      x += columns + spacing
    }
  }

  /// Offers the key to each child in turn.
  public func handle(_ key: Key) -> Bool {
    children.contains { $0.view.handle(key) }
  }

  private func widths(in width: Int) -> [Int] {
    let fixed =
      children.reduce(0) { $0 + ($1.width ?? 0) } + spacing * max(0, children.count - 1)
    let flexible = children.filter { $0.width == nil }.count
    let share = flexible > 0 ? max(0, width - fixed) / flexible : 0
    return children.map { max(0, $0.width ?? share) }
  }
}
