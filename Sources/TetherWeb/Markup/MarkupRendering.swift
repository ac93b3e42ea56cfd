import Tether
import TetherFlow

/// A web view written as markup: its ``body`` says what the page shows, its ``Action``s what
/// the gestures mean, and ``handle(_:)`` sends each to the view model.
///
/// ```swift
/// final class CounterScreen: WebScreen {
///   enum Action { case increment }
///   let model: CounterViewModel
///   init(_ model: CounterViewModel) { self.model = model }
///
///   var body: Markup<Action> {
///     vstack {
///       p { "Count: \(model.count)" }
///       button("Add one").onClick(.increment)
///     }
///   }
///
///   func handle(_ action: Action) {
///     switch action {
///     case .increment: model.increment()
///     }
///   }
/// }
/// ```
///
/// The body is rendered inside `observe { }`: every property it reads re-renders the page when
/// it changes. Ids, handlers, and the edit numbers of fields are the library's, and so is what
/// the page keeps across servers: a ``list(_:label:_:onSelect:onChoose:row:)``'s selection is
/// found while rendering and carried in the page's resume token, and the screen's view model
/// says what else to carry and when its writes are done (TetherFlow's `RestorableViewModel`
/// and `SettlingViewModel`) — a screen declares none of it.
@MainActor
public protocol WebScreen {
  /// What the screen's gestures send.
  associatedtype Action

  /// What the screen shows.
  @MarkupBuilder<Action> var body: Markup<Action> { get }

  /// Sends one action to the view model.
  ///
  /// An action that needs the page's gesture — an input that creates something takes its id,
  /// so a gesture the page sends again after a reconnect creates nothing twice — carries it:
  /// the markup makes it with `onSubmit { … }` or
  /// `onClick { … }`, whose closure is given the gesture.
  ///
  /// - Parameter action: What the gesture meant.
  func handle(_ action: Action)
}

extension WebScreen where Action == Never {
  /// A screen whose markup sends no action has none to handle.
  public func handle(_ action: Never) {}
}

/// The action of markup that calls its view model itself, as a SwiftUI button does: a screen
/// whose body is a `Markup<WebCall>` declares no action type and no ``WebScreen/handle(_:)``
/// — the session runs the call.
///
/// ```swift
/// struct CounterPage: WebScreen {
///   let model: CounterViewModel
///
///   var body: Markup<WebCall> {
///     p { "Count: \(model.count)" }
///     button("Add one").onClick(model.increment)
///     button("Reset").onClick { model.reset() }
///   }
/// }
/// ```
///
/// A typed ``WebScreen/Action`` still suits a screen whose gestures a test or another layer
/// names; both kinds of screen are rendered and tested alike.
public typealias WebCall = @MainActor () -> Void

extension WebScreen where Action == WebCall {
  /// Runs the call the gesture made.
  @MainActor public func handle(_ call: WebCall) { call() }
}

extension Markup {
  /// The markup as the element `id`: a single element takes the id, more than one are wrapped
  /// in a `div` that does. Each element inside gets an id from its place; the gestures
  /// registered in `context` send their actions to `dispatch`.
  ///
  /// - Parameters:
  ///   - id: The element's id, given by the container.
  ///   - context: Where the gestures and focus are registered.
  ///   - dispatch: Sends an action to the view model.
  /// - Returns: The element.
  @_spi(HandBuilt)
  public func render(
    id: String, in context: WebRenderContext, dispatch: @escaping (Action) -> Void
  ) -> HTMLNode {
    var renderer = MarkupRenderer(context: context, dispatch: dispatch)
    return renderer.single(nodes, id: id)
  }
}

extension Markup {
  /// The markup as the content of the element `id` (whose own element the caller makes):
  /// each element inside is named under `id`, as it would be in the element's block.
  func renderContent(
    of id: String, in context: WebRenderContext, dispatch: @escaping (Action) -> Void
  ) -> [HTMLNode] {
    var renderer = MarkupRenderer(context: context, dispatch: dispatch)
    var children: [HTMLNode] = []
    renderer.nodes(nodes, base: id, into: &children)
    return children
  }
}

@MainActor
private struct MarkupRenderer<Action> {
  let context: WebRenderContext
  let dispatch: (Action) -> Void
  /// The names of the ``Cached(_:content:)`` contents being built around this point.
  let caches: [String]

  init(
    context: WebRenderContext, dispatch: @escaping (Action) -> Void, caches: [String] = []
  ) {
    self.context = context
    self.dispatch = dispatch
    self.caches = caches
  }

  /// `nodes` as the one element `id`: a single element takes the id, more are wrapped in a
  /// `div` that does.
  mutating func single(
    _ nodes: [Markup<Action>.Node], id: String, className: String? = nil
  ) -> HTMLNode {
    if nodes.count == 1, case .element(let element) = nodes[0] {
      return self.element(element, id: id)
    }
    var children: [HTMLNode] = []
    self.nodes(nodes, base: id, into: &children)
    return .element("div", id: id, className.map { [("class", $0)] } ?? [], children)
  }

  /// Renders a component named `name`: its own observation renders it, now and whenever what
  /// it read changes.
  func component(name: String, _ render: @escaping (inout MarkupRenderer) -> HTMLNode) -> HTMLNode {
    let component = context.store.component(name, caches: caches)
    let dispatch = self.dispatch
    let caches = self.caches
    component.render = { registered in
      var renderer = MarkupRenderer(context: registered, dispatch: dispatch, caches: caches)
      return render(&renderer)
    }
    let node = component.renderInPlace()
    context.ownComponents.append(name)
    context.adopt(component.registered, live: true)
    return node
  }

  /// Renders `nodes`, the content numbered under `base`, into `output`.
  mutating func nodes(
    _ nodes: [Markup<Action>.Node], base: String, into output: inout [HTMLNode]
  ) {
    for (index, node) in nodes.enumerated() {
      self.node(node, name: base + "." + String(index), into: &output)
    }
  }

  /// Renders one node named `name`: an element takes it as its id; content inside other nodes
  /// is named under it.
  mutating func node(_ node: Markup<Action>.Node, name: String, into output: inout [HTMLNode]) {
    switch node {
    case .element(let element):
      if element.field?.isBoundToProperty == true {
        // A field bound to a property observes it alone: a keystroke renders the field, not
        // the page.
        output.append(component(name: name) { $0.element(element, id: name) })
      } else {
        output.append(self.element(element, id: name))
      }
    case .component(let build):
      output.append(
        component(name: name) { renderer in
          renderer.single(build().nodes, id: name, className: "tether-component")
        })
    case .text(let text): output.append(.text(text))
    case .list(let children): nodes(children, base: name, into: &output)
    case .branch(let branch, let children): nodes(children, base: name + branch, into: &output)
    case .keyed(let items):
      for item in items {
        // A row of one element is named by its key alone: `<list>.<place>.k<key>`.
        if item.nodes.count == 1 {
          self.node(item.nodes[0], name: name + "." + item.key, into: &output)
        } else {
          nodes(item.nodes, base: name + "." + item.key, into: &output)
        }
      }
    case .view(let view): output.append(view.render(id: name, in: context))
    case .control(let render): output.append(render(name, context, dispatch))
    case .cached(let key, let build):
      if let kept = context.store.cached(name, key: key) {
        context.adopt(kept.registered)
        output.append(contentsOf: kept.nodes)
        return
      }
      let registered = WebRenderContext(store: context.store)
      let streamsBefore = context.store.drawnStreamCount
      var renderer = MarkupRenderer(
        context: registered, dispatch: dispatch, caches: caches + [name])
      var rendered: [HTMLNode] = []
      // What the content reads beside its key is read only when it is built: on a hit the
      // page would no longer follow it. A debug build says so (components and bound fields
      // inside observe their own reads, and are not counted).
      let (_, reads) = trackedReads {
        let content = build().nodes
        if content.count == 1 {
          renderer.node(content[0], name: name, into: &rendered)
        } else {
          renderer.nodes(content, base: name, into: &rendered)
        }
      }
      #if DEBUG
        if reads > 0 { CachedContentCheck.readOutsideKey(name, reads) }
      #else
        _ = reads
      #endif
      context.adopt(registered)
      context.store.keep(
        name, key: key, nodes: rendered, registered: registered, streamsFrom: streamsBefore)
      output.append(contentsOf: rendered)
    }
  }

  mutating func element(_ element: MarkupElement<Action>, id: String) -> HTMLNode {
    var attributes = Self.merged(element.attributes)
    if element.tag == "button", !attributes.contains(where: { $0.name == "type" }) {
      attributes.insert(("type", "button"), at: 0)
    }
    let dispatch = self.dispatch
    var field = WebRenderContext.FieldHandlers()
    // A disabled control takes no gesture: a page that sends one anyway (a browser would not)
    // finds no handler, and is refused.
    let isDisabled = attributes.contains { $0.name == "disabled" }
    for (kind, action) in element.events where !isDisabled {
      let send = { dispatch(action()) }
      switch kind {
      case .click:
        context.onClick(id, send)
        // A hooked button says it takes clicks too: the page sends a hooked element's clicks
        // only when it does, the hook's script answering the rest.
        if element.tag != "button" || element.hook != nil {
          attributes.append(("data-click", ""))
        }
      case .doubleClick:
        context.onDoubleClick(id, send)
        attributes.append(("data-dblclick", ""))
      case .submit: field.submit = send
      case .cancel: field.cancel = send
      case .focus: field.focus = send
      case .blur: field.blur = send
      }
    }
    if element.isFocused { context.focus = id }
    if let hook = element.hook {
      attributes.append(("data-hook", hook.name))
      attributes.append(("data-hook-value", hook.value))
      for (event, action) in element.hookEvents where !isDisabled {
        context.onHookEvent(id, event) { value in dispatch(action(value)) }
      }
    }
    switch element.field {
    case .text(let text)?:
      let state = context.store.state(id, for: text) { TextFieldState(text) }
      if !isDisabled {
        field.input = { [weak binding = state.binding] value, sequence in
          binding?.userEdited(value, sequence: sequence)
        }
      }
      context.onField(id, field)
      attributes.append(("data-ack", "\(state.binding.sequence)"))
      if element.tag == "textarea" {
        // A text area's text is its content, not a `value` attribute.
        return .element(element.tag, id: id, attributes, [.text(state.binding.state.value)])
      }
      attributes.append(("value", state.binding.state.value))
    case .toggle(let isOn)?:
      let state = context.store.state(id, for: isOn) { CheckboxState(isOn) }
      checkbox(state, id: id, handlers: field, into: &attributes, answers: !isDisabled)
    case .checkbox(let isOn, let change)?:
      let state = context.store.state(id, for: isOn) { CheckboxState(isOn) }
      state.relay.change = change.map { change in { value in dispatch(change(value)) } }
      checkbox(
        state, id: id, handlers: field, into: &attributes, answers: change != nil && !isDisabled)
    case .value(let isOn, let change)?:
      // The box's state follows the render's value; the render does not depend on it.
      let state = untracked { context.store.valueState(id, showing: isOn) }
      state.relay.change = change.map { change in { value in dispatch(change(value)) } }
      // The box shows the render's own value: reading it back through the state would make the
      // render observe a property it writes, and render again.
      checkbox(
        state, id: id, handlers: field, into: &attributes, answers: change != nil && !isDisabled,
        checked: isOn)
    case .choice(let choice)?:
      let state = choiceState(choice, id: id, handlers: field, answers: !isDisabled)
      let selected = state.selectedIndex()
      attributes.append(("data-ack", "\(state.sequence())"))
      // `value` is what the page's script compares and sets; `selected` is the first paint.
      attributes.append(("value", selected.map(String.init) ?? ""))
      let options = choice.titles.enumerated().map { index, title -> HTMLNode in
        let mark: [(name: String, value: String)] = index == selected ? [("selected", "")] : []
        return .element(
          "option", id: id + "." + String(index), [("value", String(index))] + mark,
          [.text(title)])
      }
      return .element(element.tag, id: id, attributes, options)
    case .radios(let choice)?:
      let state = choiceState(choice, id: id, handlers: field, answers: !isDisabled)
      let selected = state.selectedIndex()
      let acknowledged = String(state.sequence())
      // The radios share the group's id as their name, so the browser checks one at a time;
      // each sends the group's choice, the option's position.
      var children: [HTMLNode] = [
        .element("legend", id: id + ".l", [], [.text(choice.titles.first ?? "")])
      ]
      for (index, title) in choice.titles.dropFirst().enumerated() {
        let option = id + "." + String(index)
        var radio: [(name: String, value: String)] = [
          ("type", "radio"), ("name", id), ("value", String(index)), ("data-ack", acknowledged),
        ]
        if isDisabled { radio.append(("disabled", "")) }
        if index == selected { radio.append(("checked", "")) }
        children.append(
          .element(
            "label", id: option, [],
            [
              .element("input", id: option + ".r", radio),
              // Its own element, so a change of the radio alone is a patch of the radio.
              .element("span", id: option + ".t", [], [.text(title)]),
            ]))
      }
      return .element(element.tag, id: id, attributes, children)
    case nil:
      if field.submit != nil || field.cancel != nil || field.focus != nil || field.blur != nil {
        context.onField(id, field)
      }
    }
    var children: [HTMLNode] = []
    nodes(element.children, base: id, into: &children)
    return .element(element.tag, id: id, attributes, children)
  }

  /// The state of a picker or radio group, with its handlers registered: a choice is the
  /// option's position, and anything else the page sends is no option's.
  private func choiceState(
    _ choice: MarkupChoice, id: String, handlers: WebRenderContext.FieldHandlers, answers: Bool
  ) -> ChoiceState {
    let state = context.store.state(id, for: choice.property) { choice.makeState() }
    var handlers = handlers
    if answers {
      handlers.input = { [weak state] value, sequence in
        guard let index = Int(value) else { return }
        state?.chose(index, sequence: sequence)
      }
    }
    context.onField(id, handlers)
    return state
  }

  private func checkbox(
    _ state: CheckboxState, id: String, handlers: WebRenderContext.FieldHandlers,
    into attributes: inout [(name: String, value: String)], answers: Bool = true,
    checked: Bool? = nil
  ) {
    var handlers = handlers
    if answers {
      handlers.check = { [weak binding = state.binding] checked, sequence, version in
        binding?.userEdited(checked, sequence: sequence, madeOn: version)
      }
    }
    context.onField(id, handlers)
    attributes.append(("data-ack", "\(state.binding.sequence)"))
    attributes.append(("data-version", "\(state.binding.version)"))
    if checked ?? state.binding.state.value { attributes.append(("checked", "")) }
  }

  /// The attributes an app may write, in order: classes joined, a flag that is off left out,
  /// a later value of a name replacing an earlier one.
  private static func merged(_ attributes: [Attribute]) -> [(name: String, value: String)] {
    var output: [(name: String, value: String)] = []
    for attribute in attributes where attribute.isAllowed {
      guard let value = attribute.value else { continue }
      if let index = output.firstIndex(where: { $0.name == attribute.name }) {
        if attribute.name == "class" {
          output[index].value += output[index].value.isEmpty ? value : " " + value
        } else {
          output[index].value = value
        }
      } else {
        output.append((attribute.name, value))
      }
    }
    return output
  }
}
