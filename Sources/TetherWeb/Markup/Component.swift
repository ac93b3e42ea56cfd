import Tether

/// Content that observes what it reads on its own: when only that changes, only this content
/// is rendered again and compared with what the page shows, whatever the size of the page
/// around it.
///
/// ```swift
/// header {
///   Component {
///     p(.class("hint")) { model.hint }
///   }
///   ForEach(model.rows) { row in Cached(row) { item(row) } }
/// }
/// ```
///
/// A change of `model.hint` renders the paragraph alone; the rows are not visited. A change of
/// what the page around the component reads renders the page, and the component with it.
///
/// Fields bound to a property (``textField(_:type:placeholder:label:_:)``, a `checkbox`
/// over a property) are components of their own: a keystroke renders its field and nothing
/// else.
///
/// The content is one element with the component's id, or several inside a `div` with the
/// class `tether-component` (which the default stylesheet lays out as if it were not there).
/// Reads of Apple's Observation (`@Observable` models) inside it render the page around it
/// too: only Tether's properties are observed by the component alone.
@MainActor
public func Component<Action>(
  @MarkupBuilder<Action> _ content: @escaping () -> Markup<Action>
) -> Markup<Action> {
  Markup(nodes: [.component(content)], isSingleExpression: true)
}

/// A component as the session keeps it: its own observation, its element as last rendered,
/// and the context its gestures are registered in (which the page's context holds).
@MainActor
final class ComponentState {
  /// The component's id.
  let name: String
  /// The names of the ``Cached(_:content:)`` contents it stands in, outermost first: a
  /// component rendered again alone makes their kept renders out of date.
  let caches: [String]
  /// Where its gestures are registered: the same object from render to render, so the page's
  /// context, which adopted it, sees each new render's handlers.
  let registered: WebRenderContext
  /// Renders the component into `registered`: set by each render of the page around it (its
  /// content may capture values of that render).
  var render: (WebRenderContext) -> HTMLNode = { _ in .text("") }
  /// The element as last rendered.
  private(set) var node: HTMLNode = .text("")
  private var token: ObservationToken?
  private unowned let store: MarkupStore

  /// The controls of the screen the component is in: its lists keep their state with the
  /// screen when the component is rendered again alone.
  private let screenControls: ControlStates?

  init(name: String, caches: [String], store: MarkupStore) {
    self.name = name
    self.caches = caches
    self.store = store
    screenControls = store.screenControls
    registered = WebRenderContext(store: store)
  }

  /// Renders the component now, inside the render of the page around it.
  func renderInPlace() -> HTMLNode {
    if let token {
      token.runNow()
    } else {
      token = observe { [weak self] in self?.run() }
    }
    return node
  }

  /// Renders the component now, alone.
  func runNow() {
    token?.runNow()
  }

  /// Renders the component now if something it read has changed.
  func runIfNeeded() {
    if let token, token.needsRun { token.runNow() }
  }

  /// Ends the component's observation.
  func cancel() {
    token?.cancel()
    token = nil
  }

  private func run() {
    registered.reset()
    let old = node
    let outer = store.screenControls
    store.screenControls = screenControls ?? outer
    node = render(registered)
    store.screenControls = outer
    // Outside a page render the component changed alone: the session patches the page.
    if !store.isRendering { store.componentChanged(self, from: old) }
  }
}
