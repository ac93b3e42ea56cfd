import Tether
import TetherFlow

/// A one-line text field bound both ways to a view model's text (TetherFlow's
/// `FieldBinding`): each edit the person makes sets it, numbered, and a change the model
/// makes on purpose (clearing it after submit, trimming it) reaches the page — never the echo of
/// what was typed, and never over newer typing.
///
/// Enter sends `onSubmit`, Escape `onCancel`; the page sends focus and blur. The field is
/// focused when `isFocused` is `true`: the server decides focus, the page applies it.
@MainActor
@_spi(HandBuilt)
public final class TextField: WebView {
  private let binding: FieldBinding<String>
  private let placeholder: String
  private let label: String?
  private let className: String?
  private let isFocused: Property<Bool>?
  private let onSubmit: (() -> Void)?
  private let onCancel: (() -> Void)?
  private let onBlur: (() -> Void)?
  /// The element the field last rendered as, and the binding's edit number when it first did:
  /// a page numbers each element's edits from 1, so one field rendered under a new id (an edit
  /// field that moves from row to row) starts a new numbering on top of the binding's.
  private var element: (id: String, base: Int)?

  /// Creates a field.
  ///
  /// - Parameters:
  ///   - text: The view model's text: the field shows it and writes each edit to it.
  ///   - placeholder: Shown while the field is empty.
  ///   - label: The field's accessible name (`aria-label`), for a field with no visible label.
  ///   - className: The element's class.
  ///   - isFocused: When `true`, the page focuses the field; `nil` leaves focus alone.
  ///   - onSubmit: What Enter does.
  ///   - onCancel: What Escape does.
  ///   - onBlur: What losing focus does (edit in place commits on blur).
  public init(
    _ text: MutableProperty<String>, placeholder: String = "", label: String? = nil,
    className: String? = nil, isFocused: Property<Bool>? = nil,
    onSubmit: (() -> Void)? = nil, onCancel: (() -> Void)? = nil, onBlur: (() -> Void)? = nil
  ) {
    let binding = FieldBinding(text)
    self.binding = binding
    self.placeholder = placeholder
    self.label = label
    self.className = className
    self.isFocused = isFocused
    self.onSubmit = onSubmit
    self.onCancel = onCancel
    self.onBlur = onBlur
  }

  /// An `<input type="text">` carrying the model's text and the newest edit it has seen.
  public func render(id: String, in context: WebRenderContext) -> HTMLNode {
    if element?.id != id { element = (id, binding.sequence) }
    let base = element?.base ?? 0
    context.onField(
      id,
      WebRenderContext.FieldHandlers(
        input: { [weak binding] value, sequence in
          // The page's number is at most `ClientMessage.maximumNumber`, but the base grows
          // with every move: an edit whose number would not fit is refused, never a trap.
          let (number, overflow) = base.addingReportingOverflow(sequence)
          guard !overflow else { return }
          binding?.userEdited(value, sequence: number)
        },
        submit: onSubmit, cancel: onCancel, blur: onBlur))
    if isFocused?.value == true { context.focus = id }
    var attributes: [(name: String, value: String)] = [("type", "text")]
    if let className { attributes.append(("class", className)) }
    if !placeholder.isEmpty { attributes.append(("placeholder", placeholder)) }
    if let label { attributes.append(("aria-label", label)) }
    attributes.append(("autocomplete", "off"))
    attributes.append(("data-ack", "\(max(0, binding.sequence - base))"))
    attributes.append(("value", binding.state.value))
    return .element("input", id: id, attributes)
  }
}

/// A checkbox bound both ways to a view model's flag, with the same rules as ``TextField``:
/// a tick sets it, numbered; the model's own changes reach the page. It also carries the
/// version of the value it shows (`data-version`, TetherFlow's `FieldBinding.version`), and a
/// tick made on a value that has changed since — another tab changed the same item while this
/// page was away, and the page sends its old tick again on reconnecting — is refused: the box
/// shows the model's value instead.
///
/// A row of a list is bound to the row's flag and to the view model's input:
@MainActor
@_spi(HandBuilt)
public final class Checkbox: WebView {
  private let binding: FieldBinding<Bool>
  /// The checkbox's accessible name (`aria-label`); a row's box follows its row's title.
  public var label: String
  private let className: String?
  /// The element last rendered and the binding's edit number then; see ``TextField``.
  private var element: (id: String, base: Int)?

  /// Creates a checkbox over a flag it writes itself.
  ///
  /// - Parameters:
  ///   - isOn: The view model's flag: shown, and set by each tick.
  ///   - label: The checkbox's accessible name (`aria-label`).
  ///   - className: The element's class.
  public init(_ isOn: MutableProperty<Bool>, label: String, className: String? = nil) {
    binding = FieldBinding(isOn)
    self.label = label
    self.className = className
  }

  /// Creates a checkbox that shows a flag the view model derives and sends each tick to an
  /// input of the view model.
  ///
  /// - Parameters:
  ///   - isOn: What the box shows.
  ///   - label: The checkbox's accessible name (`aria-label`).
  ///   - className: The element's class.
  ///   - set: The view model's input for a tick.
  public init(
    _ isOn: Property<Bool>, label: String, className: String? = nil,
    set: @escaping @MainActor (Bool) -> Void
  ) {
    binding = FieldBinding(isOn, set: set)
    self.label = label
    self.className = className
  }

  /// An `<input type="checkbox">`, `checked` when the flag is on.
  public func render(id: String, in context: WebRenderContext) -> HTMLNode {
    if element?.id != id { element = (id, binding.sequence) }
    let base = element?.base ?? 0
    context.onField(
      id,
      WebRenderContext.FieldHandlers(check: { [weak binding] checked, sequence, version in
        let (number, overflow) = base.addingReportingOverflow(sequence)
        guard !overflow else { return }
        binding?.userEdited(checked, sequence: number, madeOn: version)
      }))
    var attributes: [(name: String, value: String)] = [("type", "checkbox")]
    if let className { attributes.append(("class", className)) }
    attributes.append(("aria-label", label))
    attributes.append(("data-ack", "\(max(0, binding.sequence - base))"))
    attributes.append(("data-version", "\(binding.version)"))
    if binding.state.value { attributes.append(("checked", "")) }
    return .element("input", id: id, attributes)
  }
}

/// A button whose title follows the model (`Clear completed (3)`, `Mark all done`), hidden
/// while `isHidden` is `true`.
@MainActor
final class DynamicButton: WebView {
  private let title: Property<String>
  private let isHidden: Property<Bool>
  private let className: String?
  private let action: () -> Void

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - title: The label, following the model.
  ///   - isHidden: When the button is not shown; never by default.
  ///   - className: The element's class.
  ///   - action: What a click does.
  init(
    _ title: Property<String>, isHidden: Property<Bool> = Property(value: false),
    className: String? = nil, action: @escaping () -> Void
  ) {
    self.title = title
    self.isHidden = isHidden
    self.className = className
    self.action = action
  }

  /// A `<button>`, with `hidden` while hidden.
  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    var attributes: [(name: String, value: String)] = [("type", "button")]
    if let className { attributes.append(("class", className)) }
    if isHidden.value {
      attributes.append(("hidden", ""))
    } else {
      context.onClick(id, action)
    }
    return .element("button", id: id, attributes, [.text(title.value)])
  }
}
