import TetherFlow

/// A web view: renders itself into an ``HTMLNode`` and registers the gestures it answers.
///
/// A web view is a translation of a view model's outputs into HTML and of clicks and keys into
/// its inputs; it decides nothing. Rendering happens inside `observe { }`, so every property a
/// view reads while rendering re-renders the page when it changes.
@MainActor
@_spi(HandBuilt)
public protocol WebView: ScreenRestorable {
  /// The view's element, with id `id`.
  ///
  /// - Parameters:
  ///   - id: The element's id, given by the container so it is stable across renders.
  ///   - context: Where the view registers its gestures.
  /// - Returns: The element.
  func render(id: String, in context: WebRenderContext) -> HTMLNode

  /// Handles a key; returns `true` if it did.
  func handle(key: WebKey) -> Bool

  // From TetherFlow's `ScreenRestorable`: `restorationKey`, the view's transient state worth
  // keeping when its session moves to another server (a list's selected row id; it travels in
  // a signed resume token, so keep it short), and `restore(_:)`, which brings it back.

  /// Whether what this view's gestures started that must outlive the server — a write to a
  /// store — is done. The session acknowledges a gesture to the page only when every view on
  /// the stack is settled (or, if one is not, once ``settled()`` returns), so a page whose
  /// server dies first sends the gesture again (``ClientEnvelope``).
  var isSettled: Bool { get }

  /// Returns once ``isSettled`` is true.
  func settled() async
}

@_spi(HandBuilt)
extension WebView {
  /// Handles no keys.
  public func handle(key: WebKey) -> Bool { false }

  /// Starts nothing that must be kept: always settled.
  public var isSettled: Bool { true }

  /// Already settled.
  public func settled() async {}
}

/// What one render collects besides the HTML: the click handlers by element id, and the element
/// to focus.
@MainActor
@_spi(HandBuilt)
public final class WebRenderContext {
  private(set) var clickHandlers: [String: () -> Void] = [:]
  /// The element the page should focus after this render, if any.
  public var focus: String? {
    didSet { focusSetAfter = live.count }
  }
  /// How many live contexts had been adopted when ``focus`` was set: a component adopted
  /// later asks for focus after it.
  private var focusSetAfter = 0
  /// The contexts of the components rendered in this one, directly or in content it adopted:
  /// they change after they are adopted, so their focus is read from them when asked.
  private var live: [WebRenderContext] = []
  /// The fields' bindings of markup (``Markup``), kept from render to render by the session.
  let store: MarkupStore

  /// Creates an empty context.
  public init() {
    store = MarkupStore()
  }

  /// Creates an empty context whose markup fields keep their bindings in `store`.
  init(store: MarkupStore) {
    self.store = store
  }

  /// Runs `action` when the element `id` is clicked.
  ///
  /// - Parameters:
  ///   - id: The element.
  ///   - action: The view-model input to send.
  public func onClick(_ id: String, _ action: @escaping () -> Void) {
    clickHandlers[id] = action
  }

  /// The handler for a click on `id`, if one was registered in this render.
  public func clickHandler(for id: String) -> (() -> Void)? {
    if let handler = clickHandlers[id] { return handler }
    for context in adopted { if let handler = context.clickHandler(for: id) { return handler } }
    return streamRow(containing: id)?.clickHandler(for: id)
  }

  /// The streams drawn in this render (``stream(_:_:row:)``): their rows come and go between
  /// renders, so each row's handlers are looked up in its stream, not adopted.
  private var streams: [any StreamRows] = []

  /// Looks up the handlers of `stream`'s rows from now on.
  func addStream(_ stream: any StreamRows) {
    streams.append(stream)
  }

  /// What the stream row holding the element `id` registered, if a stream drawn here has it.
  private func streamRow(containing id: String) -> WebRenderContext? {
    for stream in streams {
      if let context = stream.rowContext(containing: id) { return context }
    }
    return nil
  }

  /// What a field of the page answers: its edits, Enter, Escape, focus and blur.
  public struct FieldHandlers {
    /// A text edit: the field's text and the edit's number.
    public var input: ((String, Int) -> Void)?
    /// A checkbox edit: ticked or not, the edit's number, and the version of the value the
    /// box showed (its `data-version`), if it had one.
    public var check: ((Bool, Int, Int?) -> Void)?
    /// Enter.
    public var submit: (() -> Void)?
    /// Escape.
    public var cancel: (() -> Void)?
    /// The field took focus.
    public var focus: (() -> Void)?
    /// The field lost focus.
    public var blur: (() -> Void)?

    /// Creates handlers; each is optional.
    ///
    /// - Parameters:
    ///   - input: A text edit.
    ///   - check: A checkbox edit.
    ///   - submit: Enter.
    ///   - cancel: Escape.
    ///   - focus: Focus taken.
    ///   - blur: Focus lost.
    public init(
      input: ((String, Int) -> Void)? = nil, check: ((Bool, Int, Int?) -> Void)? = nil,
      submit: (() -> Void)? = nil, cancel: (() -> Void)? = nil, focus: (() -> Void)? = nil,
      blur: (() -> Void)? = nil
    ) {
      self.input = input
      self.check = check
      self.submit = submit
      self.cancel = cancel
      self.focus = focus
      self.blur = blur
    }
  }

  private(set) var fieldHandlers: [String: FieldHandlers] = [:]
  private(set) var doubleClickHandlers: [String: () -> Void] = [:]
  /// Answers the field `id`'s edits and keys.
  ///
  /// - Parameters:
  ///   - id: The field (an `input` element).
  ///   - handlers: What each of its messages does.
  public func onField(_ id: String, _ handlers: FieldHandlers) {
    fieldHandlers[id] = handlers
  }

  /// Runs `action` when the element `id` is double-clicked. The element must carry the
  /// attribute `data-dblclick` for the page to send it.
  ///
  /// - Parameters:
  ///   - id: The element.
  ///   - action: The view-model input to send.
  public func onDoubleClick(_ id: String, _ action: @escaping () -> Void) {
    doubleClickHandlers[id] = action
  }

  private(set) var hookHandlers: [String: [String: (String) -> Void]] = [:]
  /// Runs `handler` with the value a client hook attached to the element `id` sends with its
  /// event `event` (`pushEvent` in the hook's script). An event no render declared is refused.
  ///
  /// - Parameters:
  ///   - id: The element the hook is attached to.
  ///   - event: The event's name.
  ///   - handler: The view-model input to send, given the event's value.
  public func onHookEvent(_ id: String, _ event: String, _ handler: @escaping (String) -> Void) {
    hookHandlers[id, default: [:]][event] = handler
  }

  /// The handler registered in this render for the hook event `event` of the element `id`.
  public func hookHandler(for id: String, event: String) -> ((String) -> Void)? {
    if let handler = hookHandlers[id]?[event] { return handler }
    for context in adopted {
      if let handler = context.hookHandler(for: id, event: event) { return handler }
    }
    return streamRow(containing: id)?.hookHandler(for: id, event: event)
  }

  private(set) var uploadHandlers: [String: FileUpload] = [:]
  /// Takes the files a person chooses or drops on the file input `id` into `upload`.
  ///
  /// - Parameters:
  ///   - id: The file input.
  ///   - upload: The view model's upload.
  public func onUpload(_ id: String, _ upload: FileUpload) {
    uploadHandlers[id] = upload
  }

  /// The upload the file input `id` feeds in this render, if any.
  public func uploadHandler(for id: String) -> FileUpload? {
    if let upload = uploadHandlers[id] { return upload }
    for context in adopted { if let upload = context.uploadHandler(for: id) { return upload } }
    return streamRow(containing: id)?.uploadHandler(for: id)
  }

  /// Whether anything registered a handler here or in what this adopted.
  var hasHandlers: Bool {
    !clickHandlers.isEmpty || !fieldHandlers.isEmpty || !doubleClickHandlers.isEmpty
      || !hookHandlers.isEmpty || !uploadHandlers.isEmpty || adopted.contains { $0.hasHandlers }
  }

  /// The handlers registered in this render for the field `id`, if any.
  public func fieldHandler(for id: String) -> FieldHandlers? {
    if let handlers = fieldHandlers[id] { return handlers }
    for context in adopted { if let handlers = context.fieldHandler(for: id) { return handlers } }
    return streamRow(containing: id)?.fieldHandler(for: id)
  }

  /// The controls with state of their own drawn in this render (a list's selection), and in
  /// the parts of the page it adopted, in page order.
  private var ownSelectables: [any SelectableState] = []

  /// Registers a control drawn in this render whose keys and state the session asks for.
  func found(_ control: any SelectableState) {
    ownSelectables.append(control)
  }

  /// The controls with state of their own drawn in this render and the parts it adopted.
  var selectables: [any SelectableState] {
    ownSelectables + adopted.flatMap(\.selectables)
  }

  /// The ids of every field registered in this render.
  var fieldIDs: [String] {
    Array(fieldHandlers.keys) + adopted.flatMap(\.fieldIDs)
  }

  /// What kept parts of the page registered when they were rendered (``WebRenderCache``,
  /// `Cached` markup): looked up after this context's own, so that a render reusing a
  /// thousand rows costs a thousand appends, not a thousand dictionary merges.
  private var adopted: [WebRenderContext] = []

  /// Takes over what `other` registered: its handlers, and its focus if it set one.
  ///
  /// - Parameters:
  ///   - other: What a part of the page registered.
  ///   - live: Whether `other` changes after this (a component rendered again alone): its
  ///     focus is then read from it each time, not taken now.
  func adopt(_ other: WebRenderContext, live: Bool = false) {
    adopted.append(other)
    if live {
      self.live.append(other)
    } else {
      // Kept content does not change after it is adopted: its focus is taken now, and only
      // the components inside it are asked again.
      self.live += other.live
      if let focus = other.focus { self.focus = focus }
    }
  }

  /// The element to focus: the last one a part of the page asked for, looked up anew each
  /// time, so a component rendered again alone (its context changed in place) is heard.
  var requestedFocus: String? {
    let split = min(focusSetAfter, live.count)
    for context in live[split...].reversed() {
      if let focus = context.requestedFocus { return focus }
    }
    if let focus { return focus }
    for context in live[..<split].reversed() {
      if let focus = context.requestedFocus { return focus }
    }
    return nil
  }

  /// The names of the components (``Component(_:)``) rendered in this context and the ones it
  /// adopted: kept while the content that holds them is.
  var componentNames: [String] {
    ownComponents + adopted.flatMap(\.componentNames)
  }

  /// The components rendered directly in this context.
  var ownComponents: [String] = []

  /// Forgets everything registered: a component rendered again registers anew in the same
  /// context, which its parent still holds.
  func reset() {
    clickHandlers.removeAll(keepingCapacity: true)
    fieldHandlers.removeAll(keepingCapacity: true)
    doubleClickHandlers.removeAll(keepingCapacity: true)
    hookHandlers.removeAll(keepingCapacity: true)
    uploadHandlers.removeAll()
    streams.removeAll()
    adopted.removeAll(keepingCapacity: true)
    ownSelectables.removeAll()
    live.removeAll()
    ownComponents.removeAll()
    focus = nil
    focusSetAfter = 0
  }

  /// The double-click handler registered in this render for `id`, if any.
  public func doubleClickHandler(for id: String) -> (() -> Void)? {
    if let handler = doubleClickHandlers[id] { return handler }
    for context in adopted {
      if let handler = context.doubleClickHandler(for: id) { return handler }
    }
    return streamRow(containing: id)?.doubleClickHandler(for: id)
  }
}

/// Makes any text safe as part of an element id: ASCII letters and digits stay, every other
/// byte of its UTF-8 becomes `_` and two hex digits.
func idComponent(_ text: String) -> String {
  func isKept(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
  let utf8 = text.utf8
  guard !utf8.allSatisfy(isKept) else { return text }
  let digits = Array("0123456789abcdef".utf8)
  var output: [UInt8] = []
  output.reserveCapacity(utf8.count * 3)
  for byte in utf8 {
    if isKept(byte) {
      output.append(byte)
    } else {
      // Two digits for every byte: the encoding is one-to-one (`_12` is never two ids).
      output += [UInt8(ascii: "_"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
    }
  }
  return String(decoding: output, as: UTF8.self)
}

/// Keeps the elements a view rendered, each with the key it was rendered for, so a render in
/// which an element's key is unchanged reuses it — the element and the gestures it registered
/// — instead of building it again. A list of a thousand rows, of which a keystroke elsewhere
/// changes none, then costs a lookup per row, and the page diff compares the same storage.
///
/// The key must hold everything the element shows: what the element's render reads but its
/// key does not will not redraw it (the key's own reads are observed as usual).
@MainActor
@_spi(HandBuilt)
public final class WebRenderCache {
  private struct Kept {
    var key: AnyHashable
    var node: HTMLNode
    var registered: WebRenderContext
    var generation: Int
  }

  private var kept: [String: Kept] = [:]
  private var generation = 0

  /// Creates an empty cache.
  public init() {}

  /// The element `id`: the one kept for `key`, or a new one from `render`, kept for next time.
  ///
  /// - Parameters:
  ///   - id: The element's id.
  ///   - key: Everything the element shows.
  ///   - context: The render's context: the element's gestures are registered in it either way.
  ///   - render: Renders the element, registering its gestures in the context it is given.
  /// - Returns: The element.
  public func element(
    _ id: String, key: some Hashable, in context: WebRenderContext,
    _ render: (String, WebRenderContext) -> HTMLNode
  ) -> HTMLNode {
    let key = AnyHashable(key)
    if var entry = kept[id], entry.key == key {
      entry.generation = generation
      kept[id] = entry
      context.adopt(entry.registered)
      return entry.node
    }
    let registered = WebRenderContext(store: context.store)
    let node = render(id, registered)
    context.adopt(registered)
    kept[id] = Kept(key: key, node: node, registered: registered, generation: generation)
    return node
  }

  /// Ends a render: elements not asked for since the last call are forgotten (rows that left
  /// the list).
  public func sweep() {
    kept = kept.filter { $0.value.generation == generation }
    generation &+= 1
  }
}
