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

/// Each field's binding, kept across renders by the field's id: a field's edit numbers and
/// the version of the value it shows carry from render to render while the field stands.
@MainActor
final class MarkupStore {
  private var fields: [String: (state: AnyObject, generation: Int)] = [:]

  /// The state of the field `id`, or a new one from `make` if it has none or its state was
  /// made for another property.
  func state<State: FieldState>(
    _ id: String, for property: AnyObject, make: () -> State
  ) -> State {
    if let state = fields[id]?.state as? State, state.property === property {
      fields[id]?.generation = generation
      return state
    }
    let state = make()
    fields[id] = (state, generation)
    return state
  }

  /// The state of the field `id` that shows a value of each render (not a property): one per
  /// id while the field stands.
  func valueState(_ id: String, showing value: Bool) -> CheckboxState {
    if let state = fields[id]?.state as? CheckboxState, let shown = state.shown {
      if shown.value != value { shown.value = value }
      fields[id]?.generation = generation
      return state
    }
    let state = CheckboxState(showing: value)
    fields[id] = (state, generation)
    return state
  }

  /// The controls of the screen being rendered, kept with the screen (``ControlStates``):
  /// set by the screen around its render.
  var screenControls: ControlStates?

  /// The state of the control `id` (a list's selection), kept while the control stands — with
  /// its screen, when one is rendering, so a screen pushed over it takes nothing away — or a
  /// new one from `make`.
  func control<State: AnyObject>(_ id: String, make: () -> State) -> State {
    if let screenControls { return screenControls.state(id, make: make) }
    if let state = fields[id]?.state as? State {
      fields[id]?.generation = generation
      return state
    }
    let state = make()
    fields[id] = (state, generation)
    return state
  }

  /// Selections a resumed session brings back, by their list's id, until the list is drawn.
  private var pendingSelections: [String: String] = [:]

  /// Keeps `key` for the list `id`, to give it when the list is next drawn.
  func restoreSelection(_ id: String, _ key: String) {
    pendingSelections[id] = key
  }

  /// The selection kept for the list `id`, once.
  func takeSelection(_ id: String) -> String? {
    pendingSelections.removeValue(forKey: id)
  }

  /// Content of ``Cached(_:content:)`` as last rendered, by name: its key, its nodes, what
  /// it registered, and the render that last used it.
  private var cache: [String: (key: AnyHashable, kept: Kept, generation: Int)] = [:]
  /// The fields of each cached content, by its name: kept while the content is.
  private var cachedFields: [String: [String]] = [:]
  private var generation = 0

  /// Rendered content and the gestures it registered.
  struct Kept {
    var nodes: [HTMLNode]
    var registered: WebRenderContext
  }

  /// The content named `name` as rendered for `key`, if it was.
  func cached(_ name: String, key: AnyHashable) -> Kept? {
    guard var entry = cache[name], entry.key == key else { return nil }
    entry.generation = generation
    cache[name] = entry
    for id in cachedFields[name] ?? [] { fields[id]?.generation = generation }
    for id in cachedComponents[name] ?? [] { components[id]?.generation = generation }
    return entry.kept
  }

  /// Keeps the content named `name`, rendered for `key`.
  func keep(_ name: String, key: AnyHashable, nodes: [HTMLNode], registered: WebRenderContext) {
    cache[name] = (key, Kept(nodes: nodes, registered: registered), generation)
    let ids = registered.fieldIDs
    cachedFields[name] = ids.isEmpty ? nil : ids
    let names = registered.componentNames
    cachedComponents[name] = names.isEmpty ? nil : names
  }

  /// Ends a render: forgets the fields, components and cached content it did not use (gone
  /// from the page).
  func endRender() {
    isRendering = false
    if fields.contains(where: { $0.value.generation != generation }) {
      fields = fields.filter { $0.value.generation == generation }
    }
    if cache.contains(where: { $0.value.generation != generation }) {
      cache = cache.filter { $0.value.generation == generation }
      cachedFields = cachedFields.filter { cache[$0.key] != nil }
      cachedComponents = cachedComponents.filter { cache[$0.key] != nil }
    }
    if components.contains(where: { $0.value.generation != generation }) {
      for (_, entry) in components where entry.generation != generation { entry.state.cancel() }
      components = components.filter { $0.value.generation == generation }
    }
    generation &+= 1
  }

  /// Starts a render of the whole page: components rendered in it tell no one.
  func beginRender() {
    isRendering = true
  }

  /// Whether a render of the whole page is under way.
  private(set) var isRendering = false

  /// The components, by name, with the render that last used each.
  private var components: [String: (state: ComponentState, generation: Int)] = [:]
  /// The components of each cached content, by its name: kept while the content is.
  private var cachedComponents: [String: [String]] = [:]

  /// Told when a component was rendered again alone, with its element before.
  var onComponentChange: ((ComponentState, HTMLNode) -> Void)?

  /// The component named `name`, kept from render to render, or a new one.
  func component(_ name: String, caches: [String]) -> ComponentState {
    if let state = components[name]?.state {
      components[name]?.generation = generation
      return state
    }
    let state = ComponentState(name: name, caches: caches, store: self)
    components[name] = (state, generation)
    return state
  }

  /// The component named `name`, if the page has one.
  func existingComponent(_ name: String) -> ComponentState? {
    components[name]?.state
  }

  /// Renders now every component whose reads changed since its last render, each alone.
  func runDirtyComponents() {
    guard !components.isEmpty else { return }
    for (_, entry) in components { entry.state.runIfNeeded() }
  }

  /// A component was rendered again alone: the kept renders of the content around it are out
  /// of date, and the session patches the page.
  func componentChanged(_ component: ComponentState, from old: HTMLNode) {
    for name in component.caches { cache[name] = nil }
    onComponentChange?(component, old)
  }

  /// Ends every component's observation, for a session that closes.
  func cancelAll() {
    for (_, entry) in components { entry.state.cancel() }
    components = [:]
  }
}

@MainActor
protocol FieldState: AnyObject {
  var property: AnyObject { get }
}

@MainActor
final class TextFieldState: FieldState {
  let property: AnyObject
  let binding: FieldBinding<String>

  init(_ text: MutableProperty<String>) {
    property = text
    binding = FieldBinding(text)
  }
}

@MainActor
final class CheckboxState: FieldState {
  let property: AnyObject
  let binding: FieldBinding<Bool>
  /// What a tick does now: the newest render's action.
  let relay: ChangeRelay

  /// Holds the newest render's action for a tick.
  @MainActor
  final class ChangeRelay {
    var change: ((Bool) -> Void)?
  }

  init(_ isOn: MutableProperty<Bool>) {
    property = isOn
    shown = nil
    relay = ChangeRelay()
    binding = FieldBinding(isOn)
  }

  init(_ isOn: Property<Bool>) {
    property = isOn
    shown = nil
    let relay = ChangeRelay()
    self.relay = relay
    binding = FieldBinding(isOn) { value in relay.change?(value) }
  }

  /// A box over a value each render gives: the value lives here, and a render showing another
  /// one is a change of the model's.
  init(showing value: Bool) {
    let shown = MutableProperty(value)
    self.shown = shown
    property = shown
    let relay = ChangeRelay()
    self.relay = relay
    binding = FieldBinding(Property(shown)) { value in relay.change?(value) }
  }

  /// The value shown, for a box over a value of each render.
  let shown: MutableProperty<Bool>?
}

/// A picker's options and how to make its state, without its value type.
@MainActor
struct MarkupChoice {
  let property: AnyObject
  let titles: [String]
  let makeState: () -> ChoiceState
}

/// A picker's binding, kept across renders: the selection's position among the options, and
/// each choice applied through TetherFlow's `FieldBinding`.
@MainActor
final class ChoiceState: FieldState {
  let property: AnyObject
  /// The selection's position among the options, if it is one of them.
  let selectedIndex: () -> Int?
  /// The newest choice the model has taken.
  let sequence: () -> Int
  private let choose: (Int, Int) -> Void

  init<Value: Equatable>(_ selection: MutableProperty<Value>, options: [Value]) {
    property = selection
    let binding = FieldBinding(selection)
    selectedIndex = { options.firstIndex(of: binding.state.value) }
    sequence = { binding.sequence }
    choose = { index, sequence in
      guard options.indices.contains(index) else { return }
      binding.userEdited(options[index], sequence: sequence)
    }
  }

  /// The person chose the option at `index`, as edit `sequence`; an index that is no option's
  /// changes nothing.
  func chose(_ index: Int, sequence: Int) {
    choose(index, sequence)
  }
}

/// The controls with state of their own (a list's selection) one screen drew, kept with the
/// screen: a screen under another is not drawn, and its controls must not go with the page's
/// render. A control the screen's render no longer draws is dropped.
@MainActor
final class ControlStates {
  private var states: [String: (state: AnyObject, generation: Int)] = [:]
  private var generation = 0

  /// The state of control `id`, or a new one from `make`.
  func state<State: AnyObject>(_ id: String, make: () -> State) -> State {
    if let state = states[id]?.state as? State {
      states[id]?.generation = generation
      return state
    }
    let state = make()
    states[id] = (state, generation)
    return state
  }

  /// Ends one render of the screen: forgets the controls it did not draw.
  func endRender() {
    if states.contains(where: { $0.value.generation != generation }) {
      states = states.filter { $0.value.generation == generation }
    }
    generation &+= 1
  }
}
