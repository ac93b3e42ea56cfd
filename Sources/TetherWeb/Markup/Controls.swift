import Tether
import TetherFlow

/// What kind of text a ``textField(_:type:placeholder:label:_:)`` takes: the `type` of its
/// `<input>`, which picks the browser's keyboard and checks.
public enum TextFieldType: String, Sendable, CaseIterable {
  /// Any text.
  case text
  /// A search.
  case search
  /// An email address.
  case email
  /// A number.
  case number
  /// A date (`yyyy-mm-dd`).
  case date
  /// A URL.
  case url
  /// A telephone number.
  case tel
  /// A password: shown as dots.
  case password
}

/// A text field bound both ways to a view model's text, with TetherFlow's `FieldBinding` rule:
/// each edit sets the text, numbered; a change the model makes on purpose (a field cleared
/// after submit) reaches the page; what was typed is never echoed back, and newer typing is
/// never overwritten. The edit numbers and acknowledgements are the library's, not the app's.
///
/// ```swift
/// textField(model.newTitle, placeholder: "What needs to be done?", label: "New todo",
///           .class("new-todo"))
///   .onSubmit(.add)
/// ```
///
/// - Parameters:
///   - text: The view model's text: shown, and written by each edit.
///   - type: The kind of text.
///   - placeholder: Shown while the field is empty.
///   - label: The field's accessible name (`aria-label`), for a field with no visible label;
///     a field inside a `label` element is named by it.
///   - attributes: Other attributes, such as its class.
/// - Returns: The field, to give actions with ``Markup/onSubmit(_:)`` and the like.
@MainActor
public func textField<Action>(
  _ text: MutableProperty<String>, type: TextFieldType = .text, placeholder: String = "",
  label: String? = nil, _ attributes: Attribute...
) -> Markup<Action> {
  var all: [Attribute] = [Attribute("type", type.rawValue)]
  if !placeholder.isEmpty { all.append(Attribute("placeholder", placeholder)) }
  if let label { all.append(Attribute("aria-label", label)) }
  all.append(Attribute("autocomplete", "off"))
  var element = MarkupElement<Action>(tag: "input", attributes: all + attributes, children: [])
  element.field = .text(text)
  return Markup(nodes: [.element(element)])
}

/// A multi-line text area bound both ways to a view model's text, by the same rule as
/// ``textField(_:type:placeholder:label:_:)``. Enter starts a new line (it submits nothing);
/// Escape sends ``Markup/onCancel(_:)``'s action.
///
/// ```swift
/// textArea(model.notes, label: "Notes", rows: 4, .class("notes"))
/// ```
///
/// - Parameters:
///   - text: The view model's text: shown, and written by each edit.
///   - placeholder: Shown while the area is empty.
///   - label: The area's accessible name (`aria-label`), for one with no visible label.
///   - rows: How many lines it shows.
///   - attributes: Other attributes, such as its class.
/// - Returns: The text area.
@MainActor
public func textArea<Action>(
  _ text: MutableProperty<String>, placeholder: String = "", label: String? = nil,
  rows: Int = 3, _ attributes: Attribute...
) -> Markup<Action> {
  var all: [Attribute] = [Attribute("rows", String(min(max(1, rows), 100)))]
  if !placeholder.isEmpty { all.append(Attribute("placeholder", placeholder)) }
  if let label { all.append(Attribute("aria-label", label)) }
  var element = MarkupElement<Action>(tag: "textarea", attributes: all + attributes, children: [])
  element.field = .text(text)
  return Markup(nodes: [.element(element)])
}

/// A checkbox bound both ways to a view model's flag, which each tick sets (the same rule as
/// ``textField(_:type:placeholder:label:_:)``).
///
/// - Parameters:
///   - isOn: The flag: shown, and set by each tick.
///   - label: The checkbox's accessible name (`aria-label`).
///   - attributes: Other attributes.
/// - Returns: The checkbox.
@MainActor
public func checkbox<Action>(
  _ isOn: MutableProperty<Bool>, label: String, _ attributes: Attribute...
) -> Markup<Action> {
  checkboxElement(.toggle(isOn), label: label, attributes)
}

/// A checkbox that shows a flag the view model derives (a list row's) and sends an action for
/// each tick, given by ``Markup/onChange(_:)``:
///
/// ```swift
/// checkbox(model.allDoneProperty, label: "Mark all as complete", .class("toggle-all"))
///   .onChange { .setAllDone($0) }
/// ```
///
/// It carries the version of the value it shows (TetherFlow's `FieldBinding.version`): a tick
/// made on a value that has changed since — another tab changed the item while this page was
/// away — is refused, and the box shows the model's value.
///
/// - Parameters:
///   - isOn: What the box shows.
///   - label: The checkbox's accessible name (`aria-label`).
///   - attributes: Other attributes.
/// - Returns: The checkbox, to give its action with ``Markup/onChange(_:)``.
@MainActor
public func checkbox<Action>(
  _ isOn: Property<Bool>, label: String, _ attributes: Attribute...
) -> Markup<Action> {
  checkboxElement(.checkbox(isOn, nil), label: label, attributes)
}

/// A checkbox that shows `isOn` — a value of this render, such as a list row's flag — and
/// sends an action for each tick, given by ``Markup/onChange(_:)``:
///
/// ```swift
/// checkbox(row.completed, label: "Toggle \(row.title)", .class("toggle"))
///   .onChange { .setCompleted(id: row.id, $0) }
/// ```
///
/// The box keeps a version of the value it shows, moved on whenever a render shows another
/// value (TetherFlow's `FieldBinding.version`): a tick made on a value that has changed since
/// — another tab changed the item while this page was away — is refused, and the box shows
/// the model's value.
///
/// - Parameters:
///   - isOn: What the box shows.
///   - label: The checkbox's accessible name (`aria-label`).
///   - attributes: Other attributes.
/// - Returns: The checkbox, to give its action with ``Markup/onChange(_:)``.
@MainActor
public func checkbox<Action>(
  _ isOn: Bool, label: String, _ attributes: Attribute...
) -> Markup<Action> {
  checkboxElement(.value(isOn, nil), label: label, attributes)
}

@MainActor
private func checkboxElement<Action>(
  _ field: MarkupField<Action>, label: String, _ attributes: [Attribute]
) -> Markup<Action> {
  let all = [Attribute("type", "checkbox"), Attribute("aria-label", label)] + attributes
  var element = MarkupElement<Action>(tag: "input", attributes: all, children: [])
  element.field = field
  return Markup(nodes: [.element(element)])
}

/// A choice of one value among `options` (a `<select>`), bound both ways to a view model's
/// selection by the same rule as ``textField(_:type:placeholder:label:_:)``: each choice sets
/// the selection, numbered; a change the model makes on purpose reaches the page; a choice is
/// never echoed back, and a newer choice is never overwritten.
///
/// ```swift
/// picker(form.country, options: Country.allCases, label: "Country") { $0.name }
/// ```
///
/// The page sends the position of the option chosen; a position that is not one of them
/// (a page that sends one anyway) changes nothing.
///
/// - Parameters:
///   - selection: The view model's selection: shown, and set by each choice.
///   - options: The values offered, in order. A selection not among them shows no option
///     chosen.
///   - label: The picker's accessible name (`aria-label`).
///   - attributes: Other attributes, such as its class.
///   - title: An option's text.
/// - Returns: The picker.
@MainActor
public func picker<Action, Value: Equatable>(
  _ selection: MutableProperty<Value>, options: [Value], label: String,
  _ attributes: Attribute..., title: @escaping (Value) -> String = { "\($0)" }
) -> Markup<Action> {
  let choice = MarkupChoice(
    property: selection, titles: options.map(title),
    makeState: { ChoiceState(selection, options: options) })
  var element = MarkupElement<Action>(
    tag: "select", attributes: [Attribute("aria-label", label)] + attributes, children: [])
  element.field = .choice(choice)
  return Markup(nodes: [.element(element)])
}

/// A choice of one value among `options` shown all at once, as radio buttons in a
/// `<fieldset role="radiogroup">` whose legend is `label`: bound both ways to a view model's
/// selection by the same rule as ``picker(_:options:label:_:title:)``.
///
/// ```swift
/// radioGroup(form.size, options: Size.allCases, label: "Size") { $0.rawValue }
/// ```
///
/// - Parameters:
///   - selection: The view model's selection: shown, and set by each choice.
///   - options: The values offered, in order. A selection not among them checks no radio.
///   - label: The group's legend, shown and announced.
///   - attributes: Other attributes of the group, such as its class.
///   - title: An option's text.
/// - Returns: The radio group.
@MainActor
public func radioGroup<Action, Value: Equatable>(
  _ selection: MutableProperty<Value>, options: [Value], label: String,
  _ attributes: Attribute..., title: @escaping (Value) -> String = { "\($0)" }
) -> Markup<Action> {
  let choice = MarkupChoice(
    property: selection, titles: [label] + options.map(title),
    makeState: { ChoiceState(selection, options: options) })
  var element = MarkupElement<Action>(
    tag: "fieldset",
    attributes: [.class("radio-group"), .attribute("role", "radiogroup")] + attributes,
    children: [])
  element.field = .radios(choice)
  return Markup(nodes: [.element(element)])
}

/// Tabs: a row of buttons, one per tab, the selected one marked (`role="tablist"` and `"tab"`,
/// `aria-selected`), each sending `action` for its tab. Which tab is selected, and its place in
/// the page's address, is the view model's or the flow's (TetherFlow's `TabSelection`): this
/// only draws it.
///
/// ```swift
/// tabList(model.styles, selected: model.style, label: "Binding style") { $0.rawValue }
///   action: { .choose($0) }
/// ```
///
/// - Parameters:
///   - tabs: The tabs, in order.
///   - selected: The tab shown.
///   - label: The tab list's accessible name.
///   - attributes: Other attributes of the list.
///   - title: A tab's title.
///   - action: The action a tab's click sends.
/// - Returns: The tab list.
@MainActor
public func tabList<Action, Tab: Equatable>(
  _ tabs: [Tab], selected: Tab, label: String, _ attributes: Attribute...,
  title: (Tab) -> String, action: (Tab) -> Action
) -> Markup<Action> {
  let buttons = tabs.flatMap { tab in
    Markup.element(
      "button",
      [
        .class("tab"), .attribute("role", "tab"),
        .attribute("aria-selected", tab == selected ? "true" : "false"),
      ], Markup(nodes: [.text(title(tab))])
    ).onClick(action(tab)).nodes
  }
  return Markup.element(
    "div",
    [.class("tabs"), .attribute("role", "tablist"), Attribute("aria-label", label)] + attributes,
    Markup(nodes: buttons))
}

/// A button with a title: `button("Save").onClick(.save)`.
@MainActor
public func button<Action>(_ title: String, _ attributes: Attribute...) -> Markup<Action> {
  Markup.element("button", attributes, Markup(nodes: [.text(title)]))
}

/// Views side by side, wrapping when the row is too narrow (a flex row, `gap` between).
@MainActor
public func hstack<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("div", [.class("hstack")] + attributes, content())
}

/// Views one under another (a flex column, `gap` between).
@MainActor
public func vstack<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("div", [.class("vstack")] + attributes, content())
}

/// Space that pushes the views after it in an ``hstack(_:content:)`` to the far end.
@MainActor
public func spacer<Action>() -> Markup<Action> {
  Markup.element("div", [.class("spacer"), Attribute("aria-hidden", "true")], .empty)
}
