import Tether
import TetherFlow

/// What a button does when pressed, as the layer draws it.
public enum TerminalButtonRole: Sendable {
  /// An ordinary button.
  case normal
  /// A button that does what cannot be undone: drawn in red. It is never pressed by a key
  /// it was not focused for.
  case destructive
}

/// A control of terminal markup: something focus can rest on, with the actions it sends.
@MainActor
struct TerminalControl<Action> {
  enum Kind {
    case button(TerminalButtonRole)
    case checkbox(isOn: Bool, binding: MutableProperty<Bool>?, onToggle: ((Bool) -> Action)?)
    case field(MutableProperty<String>, placeholder: String)
    case area(MutableProperty<String>, placeholder: String, rows: Int)
    case list(TerminalListNode<Action>)
    case choice(
      options: [String], selected: Int, onSelect: ((Int) -> Action)?, looksLikeTabs: Bool)
  }

  var kind: Kind
  /// What a person and a test call it: the button's title, the field's label.
  var label: String
  var isEnabled = true
  var onPress: Action?
  var onSubmit: Action?
  var onCancel: Action?
  var onFocus: Action?
  /// The view model asks for focus here (``TerminalMarkup/focused(_:)``).
  var wantsFocus = false
  /// A button's key, which presses it from anywhere on the screen.
  var key: Character?

  /// What the control shows as its text: a button's title with its key.
  var caption: String { key.map { "\(label) (\($0))" } ?? label }
}

/// A list's rows, as markup hands them to the layer: how many, each one's markup, and the
/// selection's state kept from frame to frame.
@MainActor
struct TerminalListNode<Action> {
  let rowHeight: Int
  let count: Int
  let rowNodes: (Int) -> [TerminalMarkup<Action>.Node]
  let onChoose: ((Int) -> Action)?
  let onMove: ((Int) -> Action)?
  /// The state kept for this list: `existing` if it follows the same kind of rows, else a new
  /// one; in both cases given these rows.
  let attach: (AnyObject?) -> any TerminalListState
}

/// Text, cut to its frame with "…" (or wrapped, with `wraps`).
///
/// - Parameters:
///   - content: The text; its line breaks start new rows.
///   - wraps: Wraps at spaces to the frame's width instead of cutting.
/// - Returns: The text as markup.
@MainActor
public func text<Action>(_ content: String, wraps: Bool = false) -> TerminalMarkup<Action> {
  TerminalMarkup([.text(content, wraps: wraps)])
}

/// Views one under another: those with a height of their own get it, lists, boxes and spacers
/// share the rest.
@MainActor
public func vstack<Action>(
  spacing: Int = 0, @TerminalMarkupBuilder<Action> _ content: () -> TerminalMarkup<Action>
) -> TerminalMarkup<Action> {
  TerminalMarkup([.stack(.vertical, spacing: max(0, spacing), content().nodes)])
}

/// Views side by side: text and buttons take their own width, views with a
/// ``TerminalMarkup/width(_:)`` take that, and the rest share what is left.
@MainActor
public func hstack<Action>(
  spacing: Int = 1, @TerminalMarkupBuilder<Action> _ content: () -> TerminalMarkup<Action>
) -> TerminalMarkup<Action> {
  TerminalMarkup([.stack(.horizontal, spacing: max(0, spacing), content().nodes)])
}

/// A bordered box with a title on its top edge; its border is drawn bright while focus is
/// inside it.
@MainActor
public func box<Action>(
  _ title: String? = nil, @TerminalMarkupBuilder<Action> _ content: () -> TerminalMarkup<Action>
) -> TerminalMarkup<Action> {
  TerminalMarkup([.box(title: title, content().nodes)])
}

/// Empty space that takes what is left.
@MainActor
public func spacer<Action>() -> TerminalMarkup<Action> {
  TerminalMarkup([.spacer])
}

/// A spinner and its message, one frame of the animation per tick of `tick` (a session's
/// ``TerminalSession/tick``). The clock is read only while the spinner is in the markup, so
/// its ticks draw nothing while no spinner shows.
///
/// - Parameters:
///   - message: The text beside it.
///   - tick: The animation clock.
/// - Returns: The spinner.
@MainActor
public func spinner<Action>(_ message: String, tick: Property<Int>) -> TerminalMarkup<Action> {
  let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
  let frame = frames[Int(tick.value.magnitude % UInt(frames.count))]
  return TerminalMarkup([
    .styled(CellStyle(foreground: .cyan), .text("\(frame) \(message)", wraps: false))
  ])
}

/// A thin rule across the frame.
@MainActor
public func divider<Action>() -> TerminalMarkup<Action> {
  TerminalMarkup([.divider])
}

/// A ``TerminalView`` drawn in place: for a custom drawing (a picture in shade blocks) the
/// markup has no words for. It takes no focus and no keys.
@MainActor
public func canvas<Action>(_ view: any TerminalView) -> TerminalMarkup<Action> {
  TerminalMarkup([.canvas(view)])
}

/// A button: Enter or Space presses it while it is focused; ``TerminalMarkup/onPress(_:)`` says
/// what it sends.
///
/// - Parameters:
///   - title: Its label.
///   - key: A key that presses it from anywhere on the screen (unless a field takes the
///     character), shown after the title: `[ Fetch user (f) ]`.
///   - role: A destructive button is drawn in red, and focus never starts on it.
/// - Returns: The button.
@MainActor
public func button<Action>(
  _ title: String, key: Character? = nil, role: TerminalButtonRole = .normal
) -> TerminalMarkup<Action> {
  var control = TerminalControl<Action>(kind: .button(role), label: title)
  control.key = key
  return TerminalMarkup([.control(control)])
}

/// A checkbox bound to a view model's flag: Space or Enter toggles it while it is focused.
@MainActor
public func checkbox<Action>(_ title: String, isOn: MutableProperty<Bool>) -> TerminalMarkup<
  Action
> {
  TerminalMarkup([
    .control(
      TerminalControl(
        kind: .checkbox(isOn: isOn.value, binding: isOn, onToggle: nil), label: title))
  ])
}

/// A checkbox that shows `isOn` and sends `onToggle` with the new value; the view model decides.
@MainActor
public func checkbox<Action>(
  _ title: String, isOn: Bool, onToggle: @escaping (Bool) -> Action
) -> TerminalMarkup<Action> {
  TerminalMarkup([
    .control(
      TerminalControl(kind: .checkbox(isOn: isOn, binding: nil, onToggle: onToggle), label: title))
  ])
}

/// A one-line text field bound both ways to a view model's text (through TetherFlow's
/// `FieldBinding`): each edit writes it, and what the model sets shows. It edits as a shell's
/// line editor does (TetherFlow's `LineEditor`); a paste is inserted as text.
/// ``TerminalMarkup/onSubmit(_:)`` says what Enter sends, ``TerminalMarkup/onCancel(_:)`` what
/// Escape sends.
///
/// - Parameters:
///   - text: The view model's text.
///   - placeholder: Shown, dimmed, while the text is empty.
///   - label: What a test and a person call it; the placeholder by default.
/// - Returns: The field.
@MainActor
public func textField<Action>(
  _ text: MutableProperty<String>, placeholder: String = "", label: String? = nil
) -> TerminalMarkup<Action> {
  TerminalMarkup([
    .control(
      TerminalControl(
        kind: .field(text, placeholder: placeholder), label: label ?? placeholder))
  ])
}

/// A text area of `rows` rows bound both ways to a view model's text: Enter starts a new line,
/// a paste keeps its line breaks, and Tab leaves it.
@MainActor
public func textArea<Action>(
  _ text: MutableProperty<String>, placeholder: String = "", label: String? = nil, rows: Int = 3
) -> TerminalMarkup<Action> {
  TerminalMarkup([
    .control(
      TerminalControl(
        kind: .area(text, placeholder: placeholder, rows: max(1, rows)),
        label: label ?? placeholder))
  ])
}

/// One of several options, side by side as `(•) A  ( ) B`: ← and → choose while it is
/// focused, and each choice sends `onSelect` with its position.
@MainActor
public func radioGroup<Action>(
  _ label: String, options: [String], selected: Int, onSelect: @escaping (Int) -> Action
) -> TerminalMarkup<Action> {
  TerminalMarkup([
    .control(
      TerminalControl(
        kind: .choice(
          options: options, selected: selected, onSelect: onSelect, looksLikeTabs: false),
        label: label))
  ])
}

/// A row of tabs, the selected one in brackets: ← and → (or a tab's number) choose while it is
/// focused. For TetherFlow's `TabSelection`, pass its `selectedIndex`.
@MainActor
public func tabs<Action>(
  _ titles: [String], selected: Int, label: String = "Tabs",
  onSelect: @escaping (Int) -> Action
) -> TerminalMarkup<Action> {
  TerminalMarkup([
    .control(
      TerminalControl(
        kind: .choice(options: titles, selected: selected, onSelect: onSelect, looksLikeTabs: true),
        label: label))
  ])
}

/// A scrolling list with a selection, each row drawn from `row`'s markup. ↑/↓ (or k/j),
/// PageUp/PageDown and Home/End move the selection while the list is focused, and Enter chooses.
/// The selection is TetherFlow's `ListSelection`: it follows the selected row by identity, and
/// only the focused list draws it.
///
/// - Parameters:
///   - rows: The rows.
///   - label: What a test and a person call the list.
///   - rowHeight: Lines per row.
///   - onChoose: What Enter on a row sends.
///   - onMove: What a move of the selection sends, by a key or by a change of the rows.
///   - row: A row's markup.
/// - Returns: The list.
@MainActor
public func list<Row: Identifiable & Equatable, Action>(
  _ rows: [Row], label: String = "List", rowHeight: Int = 1,
  onChoose: ((Int) -> Action)? = nil, onMove: ((Int) -> Action)? = nil,
  @TerminalMarkupBuilder<Action> row: @escaping (Row) -> TerminalMarkup<Action>
) -> TerminalMarkup<Action> {
  let node = TerminalListNode<Action>(
    rowHeight: max(1, rowHeight), count: rows.count,
    rowNodes: { index in rows.indices.contains(index) ? row(rows[index]).nodes : [] },
    onChoose: onChoose, onMove: onMove,
    attach: { existing in
      if let kept = existing as? TerminalListModel<Row> {
        kept.update(rows)
        return kept
      }
      return TerminalListModel(rows)
    })
  return TerminalMarkup([.control(TerminalControl(kind: .list(node), label: label))])
}

/// A list whose screen calls its view model directly (``TerminalCall``): `onChoose` and
/// `onMove` are the view model's inputs themselves.
///
/// - Parameters:
///   - rows: The rows.
///   - label: What a test and a person call the list.
///   - rowHeight: Lines per row.
///   - onChoose: The input Enter on a row calls, with its position.
///   - onMove: The input a move of the selection calls, with the new position.
///   - row: A row's markup.
/// - Returns: The list.
@MainActor
public func list<Row: Identifiable & Equatable>(
  _ rows: [Row], label: String = "List", rowHeight: Int = 1,
  onChoose: (@MainActor (Int) -> Void)? = nil, onMove: (@MainActor (Int) -> Void)? = nil,
  @TerminalMarkupBuilder<TerminalCall> row: @escaping (Row) -> TerminalMarkup<TerminalCall>
) -> TerminalMarkup<TerminalCall> {
  list(
    rows, label: label, rowHeight: rowHeight,
    onChoose: onChoose.map { choose in { index in { choose(index) } } },
    onMove: onMove.map { move in { index in { move(index) } } }, row: row)
}

extension TerminalMarkup {
  /// What pressing this button sends.
  public func onPress(_ action: Action) -> TerminalMarkup {
    mapControls { $0.onPress = action }
  }

  /// What Enter in this field sends.
  public func onSubmit(_ action: Action) -> TerminalMarkup {
    mapControls { $0.onSubmit = action }
  }

  /// What Escape in this field sends; without one, Escape goes back.
  public func onCancel(_ action: Action) -> TerminalMarkup {
    mapControls { $0.onCancel = action }
  }

  /// What moving focus here with a key sends: the view model hears where focus went.
  public func onFocus(_ action: Action) -> TerminalMarkup {
    mapControls { $0.onFocus = action }
  }

  /// Puts focus on this control whenever `isFocused` becomes `true`: the view model decides
  /// (TetherFlow's `FocusOrder`), as a web page's `.focused(…)` does.
  public func focused(_ isFocused: Bool) -> TerminalMarkup {
    mapControls { $0.wantsFocus = isFocused }
  }

  /// Disables this control: it is drawn dimmed and takes no focus.
  public func disabled(_ isDisabled: Bool) -> TerminalMarkup {
    mapControls { $0.isEnabled = !isDisabled }
  }

  /// A shortcut: `key` sends `action` while this markup is shown, unless the focused control
  /// uses the key itself (a field takes typed letters).
  public func onKey(_ key: Key, _ action: Action) -> TerminalMarkup {
    TerminalMarkup([.shortcut(key, action, single)])
  }

  /// A shortcut on a typed character: `.onKey("n", .newCard)`.
  public func onKey(_ character: Character, _ action: Action) -> TerminalMarkup {
    onKey(.character(character), action)
  }

  /// A fixed width in columns, in a horizontal stack.
  public func width(_ columns: Int) -> TerminalMarkup {
    TerminalMarkup([.framed(width: max(0, columns), height: nil, single)])
  }

  /// A fixed height in rows, in a vertical stack.
  public func height(_ rows: Int) -> TerminalMarkup {
    TerminalMarkup([.framed(width: nil, height: max(0, rows), single)])
  }

  /// Draws the markup in `style` (added to what it draws itself).
  public func style(_ style: CellStyle) -> TerminalMarkup {
    TerminalMarkup([.styled(style, single)])
  }

  /// Bold.
  public func bold() -> TerminalMarkup { style(CellStyle(bold: true)) }

  /// Dimmed.
  public func dim() -> TerminalMarkup { style(CellStyle(dim: true)) }

  /// In `color`.
  public func foreground(_ color: TerminalColor) -> TerminalMarkup {
    style(CellStyle(foreground: color))
  }
}
