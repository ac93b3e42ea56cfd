import Tether
import TetherFlow

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
    (screenControls ?? pageControls).state(id, make: make)
  }

  /// The controls drawn outside any screen's render (a hand-built view's), kept with the page.
  private var pageControls = ControlStates()

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
    /// The streams drawn in it: drawn again whenever the content is reused.
    var streams: [any StreamPatches] = []
  }

  /// The content named `name` as rendered for `key`, if it was.
  func cached(_ name: String, key: AnyHashable) -> Kept? {
    guard var entry = cache[name], entry.key == key else { return nil }
    entry.generation = generation
    cache[name] = entry
    for id in cachedFields[name] ?? [] { fields[id]?.generation = generation }
    for id in cachedComponents[name] ?? [] { components[id]?.generation = generation }
    for stream in entry.kept.streams { drew(stream) }
    return entry.kept
  }

  /// Keeps the content named `name`, rendered for `key`, with the streams drawn since the
  /// ``drawnStreamCount`` its render began at.
  func keep(
    _ name: String, key: AnyHashable, nodes: [HTMLNode], registered: WebRenderContext,
    streamsFrom start: Int
  ) {
    let streams = Array(drawnStreams[min(start, drawnStreams.count)...])
    cache[name] = (
      key, Kept(nodes: nodes, registered: registered, streams: streams), generation
    )
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
    pageControls.endRender()
    generation &+= 1
  }

  /// Starts a render of the whole page: components rendered in it tell no one.
  func beginRender() {
    isRendering = true
    drawnStreams.removeAll(keepingCapacity: true)
  }

  /// The streams (``stream(_:_:row:)``) the last render of the page drew: only theirs go to
  /// the page, which has their lists. A stream not drawn keeps its changes until it is.
  private var drawnStreams: [any StreamPatches] = []

  /// Told when a stream has changes to send: `true` when its buffer is full and they should
  /// go now.
  var onStreamChange: ((Bool) -> Void)?

  /// How many streams this render has drawn so far.
  var drawnStreamCount: Int { drawnStreams.count }

  /// The stream `state` is drawn in this render.
  func drew(_ state: any StreamPatches) {
    if !drawnStreams.contains(where: { $0 === state }) { drawnStreams.append(state) }
  }

  /// A stream has changes to send (now, when `full`); the session sends them if the page
  /// shows it.
  func streamChanged(full: Bool) {
    onStreamChange?(full)
  }

  /// The patches of the streams the page shows, which they then forget.
  func takeStreamPatches() -> [HTMLPatch] {
    guard !drawnStreams.isEmpty else { return [] }
    return drawnStreams.flatMap { $0.takePatches() }
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
    // What the page's markup was built of goes too: its gestures' calls may hold the view
    // models (a `WebCall` does), and a closed session must hold none, however long a socket
    // or a test keeps the session itself.
    fields = [:]
    cache = [:]
    cachedFields = [:]
    cachedComponents = [:]
    pendingSelections = [:]
    screenControls = nil
    pageControls = ControlStates()
    onComponentChange = nil
    drawnStreams = []
    onStreamChange = nil
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
