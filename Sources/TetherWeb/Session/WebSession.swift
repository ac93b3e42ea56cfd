import Tether
import TetherFlow

/// One browser tab's app: its own `ScreenStack` (and through it its flows and view models),
/// rendered to HTML inside `observe { }`. Each render is compared with what the page has, and
/// only the difference travels, as patches.
///
/// A session knows nothing of sockets: ``attach(_:resync:shown:)`` gives it a function that sends text, and
/// ``receive(_:)-(String)`` takes the page's messages. Sessions never share state: each is built from
/// its own stack, and an event can only reach the handlers of the page it rendered.
@MainActor
public final class WebSession {
  /// The session's id. It travels in the socket's URL (`/ws?session=…`), where a proxy may log
  /// it: it names the session, it does not open it (``secret`` does).
  public let id: String
  /// What a socket shows in its first message (``ClientMessage/hello(secret:token:shown:)``) to
  /// prove it is this session's page: 128 random bits, served in the page and carried in the
  /// resume token, never in a URL. A session rebuilt from a token keeps the token's.
  public private(set) var secret: String = WebClient.newID()
  /// The browser the session belongs to.
  public let client: WebClient
  /// Messages the session refused, newest last (at most 20), for logs and tests.
  public private(set) var refused: [WebSessionError] = []

  /// The stack, its views, the key rule and the snapshot: what every view layer shares.
  private let presenter: ScreenPresenter<any WebView>
  private let open: @MainActor (ScreenPath) async -> Void
  private let appTitle: String
  private var context = WebRenderContext()
  /// The tree the page shows, as far as the session knows (what it last sent, with the page's
  /// own edits): what an in-process page test reads.
  package private(set) var pageTree: HTMLNode?
  private var sentPath: String?
  package private(set) var sentTitle: String?
  /// The element the page was last told to focus.
  package private(set) var sentFocus: String?
  private var send: ((String) -> Void)?
  private var renderToken: ObservationToken?
  /// How many times the session has rendered (for tests: one change, one render).
  private(set) var renders = 0
  private let resumeSigner: WebResumeSigner?
  /// The resume state of the last token sent (its `issuedAt` is 0).
  private var sentResume: WebResumeState?
  /// The newest gesture number handled, the newest whose effects are kept (every view
  /// settled), and the newest the page was told of (``ClientEnvelope``).
  private var handledGesture = 0
  private var settledGesture = 0
  private var sentAcknowledgement = 0
  /// Waits for the views to settle, then acknowledges.
  private var settling: Task<Void, Never>?
  /// Set by ``holdMessagesUntilAppeared(timeout:)``: the next message waits for the screens'
  /// first loads.
  private var appearanceHold: Duration?

  /// Creates a session over `stack`.
  ///
  /// - Parameters:
  ///   - id: The session's secret id.
  ///   - stack: The tab's navigation state; its flows are already started.
  ///   - appTitle: The page title's suffix.
  ///   - resumeSigner: Signs the resume token sent with every change of path, selection or
  ///     alert, so any server sharing the key can rebuild this session; `nil` sends none.
  ///   - client: The browser the session belongs to; its id travels in the resume token, so a
  ///     session rebuilt on another server belongs to the same browser.
  ///   - open: Rebuilds the stack from a path (the main flow's deep-link entry).
  ///   - trackedObject: The screen's view model, asked whether its writes are done and what
  ///     it keeps across servers (the screen's destination is asked too).
  ///   - makeView: The web view for a screen: a switch over the app's destinations.
  public convenience init<Destination>(
    id: String, stack: ScreenStack<Destination>, appTitle: String,
    resumeSigner: WebResumeSigner? = nil, client: WebClient = WebClient(),
    open: @escaping @MainActor (ScreenPath) async -> Void,
    trackedObject: @escaping @MainActor (Screen<Destination>) -> AnyObject = { $0 },
    makeView: @escaping @MainActor (Screen<Destination>) -> any WebScreen
  ) {
    self.init(
      id: id, stack: stack, appTitle: appTitle, resumeSigner: resumeSigner, client: client,
      open: open,
      makeWebView: { screen in
        MountedScreen(
          makeView(screen), viewModels: MountedScreen.viewModels(of: screen, trackedObject))
      })
  }

  /// A session whose views are hand-built ``WebView``s: the library's own tests.
  @_spi(HandBuilt)
  public init<Destination>(
    id: String, stack: ScreenStack<Destination>, appTitle: String,
    resumeSigner: WebResumeSigner? = nil, client: WebClient = WebClient(),
    open: @escaping @MainActor (ScreenPath) async -> Void,
    makeWebView: @escaping @MainActor (Screen<Destination>) -> any WebView
  ) {
    self.id = id
    self.client = client
    self.appTitle = appTitle
    self.open = open
    self.resumeSigner = resumeSigner
    presenter = ScreenPresenter(stack: stack, makeView: makeWebView)
    markupStore.onComponentChange = { [weak self] component, old in
      self?.componentChanged(component, from: old)
    }
    renderToken = observe { [weak self] in self?.renderAndSend() }
  }

  /// The ids of the fields (text fields, checkboxes) the page shows, as last rendered.
  public var fieldIDs: [String] { context.fieldIDs.sorted() }

  /// The path the stack shows, such as `/gallery/photo/230200335`.
  public var path: String { presenter.path.description }

  /// Waits until the appearance of every screen shown has finished — their first loads have
  /// landed (TetherFlow's `ScreenViewCache.appearancesFinished(timeout:)`) — or until
  /// `timeout`. A page served after this shows the data instead of a spinner that a patch
  /// replaces a moment later.
  ///
  /// - Parameter timeout: The longest wait: a slow service does not hold the page back longer.
  /// - Returns: Whether every appearance finished in time.
  @discardableResult
  public func waitForAppearance(timeout: Duration = .seconds(1)) async -> Bool {
    await presenter.appearancesFinished(timeout: timeout)
  }

  /// What a page needs to rebuild this session elsewhere: the path, each screen's
  /// restoration key and the alert (its `issuedAt` is 0 until signed), with the newest
  /// token's ``resumeCounter``.
  public var resumeState: WebResumeState {
    WebResumeState(
      sessionID: id, snapshot: presenter.snapshot(), client: client.id, secret: secret,
      counter: resumeCounter)
  }

  /// The number of the newest resume token this session signed: each token carries the next
  /// one, and a session rebuilt from a token goes on from its number. A token with a number no
  /// higher than this is older than the session (``WebSessionRegistry/resume(_:token:client:address:)``
  /// keeps the session as it is).
  public private(set) var resumeCounter = 0

  /// The current state signed under the next counter.
  private func nextToken(_ signer: WebResumeSigner) -> (WebResumeState, String) {
    resumeCounter += 1
    let state = resumeState
    sentResumeAt = .now
    return (state, signer.sign(state))
  }

  /// When the newest token was signed.
  private var sentResumeAt: ContinuousClock.Instant?

  /// Sends the page a freshly signed token if its newest is older than a third of the
  /// signer's `maximumAge`, so a page that sits on one screen still holds a token another
  /// server accepts. The server's socket calls it every third of `maximumAge`.
  ///
  /// - Parameter now: The time to judge the newest token's age by.
  public func refreshResumeToken(now: ContinuousClock.Instant = .now) {
    guard let resumeSigner, send != nil, sentResume != nil, settledGesture == handledGesture,
      let signedAt = sentResumeAt, now - signedAt >= resumeSigner.maximumAge / 3
    else { return }
    sentResume = nil
    renderAndSend()
  }

  /// Makes the page's next message wait (up to `timeout`) until every screen's first load
  /// finished, for a session rebuilt from a resume token: the page's gestures sent again after
  /// its server died were made on screens that had loaded (an item's edit field, a row), and
  /// must reach them, not the empty screens of a session still loading. Later messages come
  /// after that one.
  ///
  /// - Parameter timeout: The longest wait: a store that does not answer holds the page back
  ///   no longer.
  public func holdMessagesUntilAppeared(timeout: Duration = .seconds(10)) {
    appearanceHold = timeout
  }

  /// Restores the view state of `state` on a session rebuilt from its path: each screen's
  /// selection (by position in the stack) and the alert, with its buttons' actions.
  ///
  /// - Parameter state: A verified state for this session.
  public func restore(_ state: WebResumeState) {
    if let secret = state.secret { self.secret = secret }
    resumeCounter = max(resumeCounter, state.counter)
    presenter.restore(state.snapshot)
    // No render here: the selections and the alert are properties the render observes, and
    // the socket that attaches next sends the whole app.
  }

  /// The whole page as a document, for the first HTTP answer; later changes go as patches.
  ///
  /// - Parameters:
  ///   - script: The client script's URL.
  ///   - style: The style sheet's URL.
  /// - Returns: The document.
  public func document(script: String, style: String) -> String {
    document(
      assets: .linked(script: script, style: style, appStyle: nil), base: "", pageSigner: nil)
  }

  /// How a page carries its script and style sheets.
  enum PageAssets {
    /// Linked: the page names their URLs (the app's style sheet too, if it has one).
    case linked(script: String, style: String, appStyle: String?)
    /// In the page itself, with the app's style sheet if it has one: nothing to fetch before
    /// the socket opens.
    case inline(appStyle: String?)
  }

  /// The whole page, with a token signed by `pageSigner` when the session has no resume
  /// signer of its own: a stateless page's socket rebuilds the session from it. `base` is the
  /// path the app is mounted at ("" at the root): the page's socket and addresses are under it.
  func document(assets: PageAssets, base: String, pageSigner: WebResumeSigner?) -> String {
    let tree = render()
    pageTree = tree
    sentPath = presenter.path.description
    sentTitle = pageTitle
    sentFocus = context.requestedFocus
    let html = tree.html
    var attributes = " data-secret=\"\(HTMLEscaping.attribute(secret))\""
    attributes += " data-shown=\"\(Self.shownDigest(of: tree))\""
    if !base.isEmpty { attributes += " data-base=\"\(HTMLEscaping.attribute(base))\"" }
    if let focus = context.requestedFocus {
      attributes += " data-focus=\"\(HTMLEscaping.attribute(focus))\""
    }
    if let signer = resumeSigner ?? pageSigner {
      let (state, token) = nextToken(signer)
      sentResume = state
      attributes += " data-resume=\"\(HTMLEscaping.attribute(token))\""
    }
    attributes = " data-session=\"\(HTMLEscaping.attribute(id))\"" + attributes
    let styles: String
    let script: String
    switch assets {
    case .linked(let scriptURL, let style, let appStyle):
      styles =
        Self.link(style) + (appStyle.map { "\n" + Self.link($0) } ?? "")
      script = "<script src=\"\(HTMLEscaping.attribute(scriptURL))\"\(attributes)></script>"
    case .inline(let appStyle):
      var sheets = WebAssets.inlineStyle
      if let appStyle {
        // A sheet that would end its element early is linked instead (the server serves it
        // at /app.css).
        sheets +=
          "\n"
          + (WebAssets.fitsRawTextElement(appStyle)
            ? "<style>\(appStyle)</style>" : Self.link(base + "/app.css"))
      }
      styles = sheets
      script = WebAssets.inlineScript(attributes: attributes)
    }
    return """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <link rel="icon" href="data:,">
      <title>\(HTMLEscaping.text(pageTitle))</title>
      \(styles)
      </head><body>\(html)
      \(script)
      </body></html>
      """
  }

  private static func link(_ url: String) -> String {
    "<link rel=\"stylesheet\" href=\"\(HTMLEscaping.attribute(url))\">"
  }

  /// Starts sending patches through `send`: first what changed since the page was served (or
  /// the whole app, for a page that reconnects), then every change.
  ///
  /// A page that says what it shows (`shown`, the digest of the tree it was served, sent by a
  /// page that has applied no patch since) is sent only what differs from that: a session
  /// rebuilt from a stateless page's token, whose render matches the page, sends no patch at
  /// all, and the page keeps every element it was served with. A page whose tree differs gets
  /// the whole app, which the client merges into the elements it has (keeping each whose tag
  /// and id are unchanged).
  ///
  /// - Parameters:
  ///   - send: Sends one text message to the page.
  ///   - resync: Whether the page may be older than the last render sent (a reconnect).
  ///   - shown: The digest (``HTMLNode/digest``) of the tree the page shows, if it knows it.
  public func attach(
    _ send: @escaping (String) -> Void, resync: Bool = false, shown: String? = nil
  ) {
    self.send = send
    if resync {
      pageTree = nil
      sentPath = nil
      sentTitle = nil
      sentFocus = nil
      sentResume = nil
      sentAcknowledgement = 0
      pageShown = shown
    }
    renderAndSend()
  }

  /// The digest of the tree a reconnecting page says it shows, until the next render compares
  /// its own with it.
  private var pageShown: String?

  /// Attributes whose values are the session's own, not the app's: a checkbox's version
  /// (TetherFlow's `FieldBinding.version`) starts at a random number in every session, so a
  /// session rebuilt from a page's token renders other values than the page was served.
  /// The digest leaves them out, and a page whose digest matches is sent them as a patch.
  static let perSessionAttributes: Set<String> = ["data-version"]

  /// What a page says it shows (``ClientMessage/hello(secret:token:shown:)``): the digest of
  /// the tree without ``perSessionAttributes``.
  static func shownDigest(of tree: HTMLNode) -> String {
    tree.removingAttributes(perSessionAttributes).digest
  }

  /// Stops sending; the page's next connection resumes the session.
  public func detach() {
    send = nil
  }

  /// Whether a page is connected.
  public var isAttached: Bool { send != nil }

  /// Ends the session: stops rendering and releases the stack, its flows and view models.
  public func close() {
    renderToken?.cancel()
    renderToken = nil
    settling?.cancel()
    settling = nil
    send = nil
    markupStore.cancelAll()
    presenter.release()
  }

  /// Routes one message from the page to a view-model input.
  ///
  /// - Parameter text: The message.
  /// - Returns: The reason it was refused, or `nil`; a refused message changes nothing.
  @discardableResult
  public func receive(_ text: String) async -> WebSessionError? {
    let envelope: ClientEnvelope
    do {
      envelope = try ClientEnvelope(decoding: text)
    } catch {
      return refuse(error)
    }
    return await receive(envelope)
  }

  /// Routes one decoded message from the page to a view-model input (``WebInbox`` decodes
  /// a socket's messages as they arrive, off the main actor).
  ///
  /// - Parameter envelope: The message.
  /// - Returns: The reason it was refused, or `nil`; a refused message changes nothing.
  @discardableResult
  public func receive(_ envelope: ClientEnvelope) async -> WebSessionError? {
    if let hold = appearanceHold {
      appearanceHold = nil
      await waitForAppearance(timeout: hold)
    }
    guard let number = envelope.gesture else {
      let refusal = await handleAll(envelope.messages)
      // The result goes out now, not after the next scheduled re-render: the page updates
      // within the round trip. The render is the observation's own run, so the change is
      // rendered once.
      if refusal == nil { flushNow(after: envelope.messages) }
      return refusal
    }
    // A gesture sent again after a reconnect that this session has handled: only its
    // acknowledgement is owed.
    guard number > handledGesture else {
      flushNow(after: envelope.messages)
      return nil
    }
    handledGesture = number
    let refusal = await WebGesture.$current.withValue(WebGesture(id: "\(id)-\(number)")) {
      await handleAll(envelope.messages)
    }
    acknowledgeWhenSettled()
    // The result, and the acknowledgement if it is due, go out now (a refused gesture
    // changed nothing, but is acknowledged all the same).
    flushNow(after: envelope.messages)
    return refusal
  }

  /// Renders what a message changed and sends it now, in one message, as the observations'
  /// own runs (a change rendered here is not rendered again by the run scheduled for it): the
  /// page, if anything it reads changed, else each component whose reads did — a keystroke
  /// renders its field alone. The acknowledgement and the resume token go with it when due.
  private func flushNow(after messages: [ClientMessage] = []) {
    batching = true
    // An edit renders its field again even if the model did not change (an edit refused as
    // late is answered with the model's value); a field that is no component of its own, and
    // any other gesture, render the page: a view may keep state the session cannot observe.
    var edited: [ComponentState] = []
    var renderPage = false
    for message in messages {
      switch message {
      case .input(let id, _, _), .check(let id, _, _, _):
        if let component = markupStore.existingComponent(id) {
          edited.append(component)
        } else {
          renderPage = true
        }
      default: renderPage = true
      }
    }
    if let renderToken, renderPage || renderToken.needsRun {
      renderToken.runNow()
    } else if renderToken == nil, renderPage {
      renderAndSend()
    }
    for component in edited { component.runNow() }
    markupStore.runDirtyComponents()
    batching = false
    let patches = pendingPatches
    let redrawn = pendingRedrawn
    pendingPatches = []
    pendingRedrawn = false
    sendUpdate(patches, redrawn: redrawn)
  }

  /// While ``flushNow()`` renders: patches wait in ``pendingPatches`` to go out as one message.
  private var batching = false
  private var pendingPatches: [HTMLPatch] = []
  private var pendingRedrawn = false

  /// A component was rendered again alone: its element replaces the one the page has, and the
  /// difference goes out.
  private func componentChanged(_ component: ComponentState, from old: HTMLNode) {
    // A page not yet told of its whole tree (served, not connected) gets the whole render
    // when it connects.
    guard send != nil, pageTree != nil else { return }
    var shown: HTMLNode?
    let found =
      pageTree?.updateElement(component.name) { node in
        shown = node
        node = component.node
      } ?? false
    guard found, let shown else {
      // The page does not show it where the session thought: render the whole page.
      renderToken?.runNow()
      return
    }
    let patches = HTMLPatch.diff(from: shown, to: component.node)
    if batching {
      pendingPatches += patches
    } else {
      sendUpdate(patches, redrawn: false)
    }
  }

  private func handleAll(_ messages: [ClientMessage]) async -> WebSessionError? {
    for message in messages {
      if let refusal = await handle(message) { return refusal }
    }
    return nil
  }

  /// Acknowledges the gestures handled so far once every view is settled: at once if they
  /// are, else after each view's `settled()`.
  private func acknowledgeWhenSettled() {
    guard settling == nil else { return }  // the waiting task takes the newer number too
    if presenter.orderedViews.allSatisfy(\.isSettled) {
      settledGesture = handledGesture
      return
    }
    settling = Task { [weak self] in
      while let self {
        let target = self.handledGesture
        for view in self.presenter.orderedViews { await view.settled() }
        if Task.isCancelled { return }
        self.settledGesture = max(self.settledGesture, target)
        let done = self.handledGesture == target
        if done { self.settling = nil }
        self.flushNow()
        if done { return }
      }
    }
  }

  /// Routes one message to a view-model input.
  private func handle(_ message: ClientMessage) async -> WebSessionError? {
    switch message {
    case .click(let id):
      // TetherFlow's rule: an alert is modal. Only its own buttons take clicks; the page shows
      // the screen behind it inert, and a click sent anyway is refused.
      if let refusal = refusalBehindModal(id) { return refusal }
      guard let handler = context.clickHandler(for: id) else {
        return refuse(.noHandler(id: String(id.prefix(80))))
      }
      handler()
    case .doubleClick(let id):
      if let refusal = refusalBehindModal(id) { return refusal }
      guard let handler = context.doubleClickHandler(for: id) else {
        return refuse(.noHandler(id: String(id.prefix(80))))
      }
      handler()
    case .input(let id, _, _), .check(let id, _, _, _), .submit(let id), .cancel(let id),
      .focus(let id), .blur(let id):
      if let refusal = refusalBehindModal(id) { return refusal }
      guard let handlers = context.fieldHandler(for: id) else {
        return refuse(.noHandler(id: String(id.prefix(80))))
      }
      switch message {
      case .input(_, let value, let sequence):
        // The page shows what was typed: the tree it is diffed against says so first, so the
        // model taking the text is no change to send back (no echo), and only a change of the
        // model's own (a trimmed or cleared field) goes out.
        pageShows([("value", value)], on: id, edit: sequence)
        handlers.input?(value, sequence)
      case .check(_, let checked, let sequence, let version):
        pageShows([("checked", checked ? "" : nil)], on: id, edit: sequence)
        handlers.check?(checked, sequence, version)
      case .submit: handlers.submit?()
      case .cancel:
        // Escape in a sheet's field that has no cancel of its own closes the sheet, as
        // Escape anywhere else in it does.
        if let cancel = handlers.cancel {
          cancel()
        } else if id.hasPrefix("sheet.") {
          presenter.dismissSheet()
        }
      case .focus: handlers.focus?()
      case .blur: handlers.blur?()
      default: break
      }
    case .key(let key):
      // TetherFlow's rule: an alert takes every key (Enter its default button, Escape its
      // cancel button); otherwise the top screen's view gets it. Back is the page's own
      // (a navigate message), so no key here pops.
      presenter.route(key.screenKey) { $0.handle(key: key) }
    case .dismissAlert:
      // The page's dialog was cancelled (Escape): the alert's cancel button.
      presenter.handleAlertKey(.cancel)
    case .hello:
      // Read by the server before the socket was attached; a second one changes nothing.
      return nil
    case .navigate(let path):
      let target = ScreenPath(parsing: path)
      // A path the stack holds (an earlier screen, or another tail of one: a list's filter)
      // is shown at once; any other is opened by the app's flows.
      if !presenter.show(target) {
        await open(target)
      }
    }
    return nil
  }

  /// Records in the kept tree what the page shows after its edit number `sequence` of field
  /// `id`: the field's live attributes, so the model taking the edit is no change to send.
  private func pageShows(
    _ attributes: [(name: String, value: String?)], on id: String, edit sequence: Int
  ) {
    pageTree?.updateElement(id) { node in
      guard case .element(var element) = node else { return }
      node = .text("")
      var changes = attributes + [("data-ack", "\(sequence)")]
      if element.tag == "textarea", let text = changes.first(where: { $0.name == "value" })?.value {
        // A text area's text is its content.
        element.children = [.text(text)]
        changes.removeAll { $0.name == "value" }
      }
      if element.tag == "fieldset", let chosen = changes.first(where: { $0.name == "value" })?.value
      {
        // A radio group's choice is which of its radios is checked; each carries the edit
        // number, and the group itself has no value.
        element.children = element.children.map { child in
          child.markingRadio(chosen: chosen, acknowledged: sequence)
        }
        node = .element(element)
        return
      }
      if element.tag == "select", let chosen = changes.first(where: { $0.name == "value" })?.value {
        // A picker's choice is also which option is marked selected.
        element.children = element.children.map { child in
          guard case .element(var option) = child else { return child }
          option.attributes.removeAll { $0.name == "selected" }
          if option.attributes.contains(where: { $0.name == "value" && $0.value == chosen }) {
            option.attributes.append(("selected", ""))
          }
          return .element(option)
        }
      }
      node = .element(element)
      node.setAttributes(changes, onElement: id)
    }
  }

  /// The refusal of a gesture behind an open alert or sheet, if it is one: an alert takes
  /// gestures only on its own buttons; a sheet (under no alert) only in itself.
  private func refusalBehindModal(_ id: String) -> WebSessionError? {
    if presenter.alert != nil {
      guard !id.hasPrefix("alert.") else { return nil }
    } else if presenter.sheetTitle != nil {
      guard !id.hasPrefix("sheet.") else { return nil }
    } else {
      return nil
    }
    let shown = String(id.prefix(80))
    return refuse(presenter.alert != nil ? .behindModal(id: shown) : .behindSheet(id: shown))
  }

  private func refuse(_ error: WebSessionError) -> WebSessionError {
    refused.append(error)
    if refused.count > 20 { refused.removeFirst() }
    return error
  }

  /// The top screen's title and the app's, or the app's alone when the screen has none or
  /// the same one (an app whose first screen is named after it).
  private var pageTitle: String {
    guard let screen = presenter.titles.last, screen != appTitle else { return appTitle }
    return "\(screen) · \(appTitle)"
  }

  /// The bindings of the markup fields the page shows, kept from render to render.
  private let markupStore = MarkupStore()

  /// The page: a title bar with Back, the top screen, and the alert.
  func render() -> HTMLNode {
    let context = WebRenderContext(store: markupStore)
    markupStore.beginRender()
    defer { markupStore.endRender() }
    let titles = presenter.titles
    let depth = titles.count
    var bar: [HTMLNode] = []
    if depth > 1 {
      bar.append(
        .element(
          "button", id: "back", [("type", "button"), ("class", "back"), ("data-back", "")],
          [.text("‹ Back")]))
    }
    bar.append(.element("h1", id: "title", [], [.text(titles.last ?? appTitle)]))
    var screen: [HTMLNode] = []
    if let view = presenter.topView {
      screen.append(view.render(id: "s\(depth)", in: context))
    }
    // Behind an open alert or sheet the bar and the screen are inert: no pointer, no focus,
    // no Tab stop, so focus stays in the dialog.
    let sheetTitle = presenter.sheetTitle
    let behind: [(String, String)] =
      presenter.alert == nil && sheetTitle == nil ? [] : [("inert", "")]
    var children: [HTMLNode] = [
      .element("header", id: "bar", behind, bar),
      .element("main", id: "screen", behind, screen),
    ]
    if let sheetTitle, let sheet = presenter.sheetView {
      context.onClick("sheet.close") { [presenter] in presenter.dismissSheet() }
      let content = sheet.render(id: "sheet.s", in: context)
      // Focus goes into the sheet: to what its view asks for, else its Close button.
      if presenter.alert == nil, context.requestedFocus?.hasPrefix("sheet.") != true {
        context.focus = "sheet.close"
      }
      // Under an alert the sheet is inert too.
      let sheetBehind: [(String, String)] = presenter.alert == nil ? [] : [("inert", "")]
      children.append(
        .element(
          "dialog", id: "sheet",
          [
            ("open", ""), ("class", "sheet"), ("aria-modal", "true"),
            ("aria-labelledby", "sheet.title"),
          ] + sheetBehind,
          [
            .element(
              "div", id: "sheet.bar", [("class", "sheet-bar")],
              [
                .element("h2", id: "sheet.title", [], [.text(sheetTitle)]),
                .element(
                  "button", id: "sheet.close",
                  [("type", "button"), ("class", "sheet-close"), ("aria-label", "Close")],
                  [.text("✕")]),
              ]),
            content,
          ]))
    } else {
      children.append(.element("dialog", id: "sheet", [], []))
    }
    if let alert = presenter.alert {
      let buttons = alert.buttons.enumerated().map { index, button -> HTMLNode in
        let id = "alert.b\(index)"
        context.onClick(id) { [presenter] in presenter.respond(toButtonAt: index) }
        // The page starts on the button the keyboard is on (TetherFlow's alertFocus: the
        // default button); Tab moves the page's own focus, and Enter or a click presses it.
        if index == presenter.alertFocus { context.focus = id }
        let className = button.role == .destructive ? "alert-button destructive" : "alert-button"
        return .element(
          "button", id: id, [("type", "button"), ("class", className)], [.text(button.title)])
      }
      children.append(
        .element(
          "dialog", id: "alert",
          [("open", ""), ("aria-labelledby", "alert.title")]
            + (alert.style == .confirmationDialog ? [("class", "confirmation")] : []),
          [
            .element("h2", id: "alert.title", [], [.text(alert.title)]),
            .element("p", id: "alert.message", [], [.text(alert.message)]),
            .element("div", id: "alert.buttons", [("class", "buttons")], buttons),
          ]))
    } else {
      children.append(.element("dialog", id: "alert", [], []))
    }
    self.context = context
    return .element("div", id: "app", [], children)
  }

  private func renderAndSend() {
    renders &+= 1
    let tree = render()
    guard send != nil else { return }
    if pageTree == nil, let shown = pageShown {
      pageShown = nil
      // The page shows this very render (it was served it, by this server or another): it
      // keeps its elements, its focus and its address, and only what else is due goes out.
      if Self.shownDigest(of: tree) == shown {
        pageTree = tree.removingAttributes(Self.perSessionAttributes)
        sentPath = presenter.path.description
        sentTitle = pageTitle
        sentFocus = context.requestedFocus
      }
    }
    let patches: [HTMLPatch]
    let redrawn = pageTree == nil
    if let pageTree {
      patches = HTMLPatch.diff(from: pageTree, to: tree)
    } else {
      patches = [.replace(id: "app", html: tree.html)]
    }
    pageTree = tree
    if batching {
      pendingPatches += patches
      pendingRedrawn = pendingRedrawn || redrawn
    } else {
      sendUpdate(patches, redrawn: redrawn)
    }
  }

  /// Sends `patches` with whatever else the page is owed: focus, path, title, a resume token,
  /// the acknowledgement. Sends nothing when nothing is owed.
  private func sendUpdate(_ patches: [HTMLPatch], redrawn: Bool) {
    guard let send else { return }
    let path = presenter.path.description
    let title = pageTitle
    var message = ServerMessage(patches: patches, path: nil, title: nil)
    // The server decides focus, always: whenever what this render focuses (the selected row,
    // an alert's default button) is not what the page was last told, or the app was redrawn.
    let focus = context.requestedFocus
    if let focus, focus != sentFocus || redrawn { message.focus = focus }
    if path != sentPath { message.path = path }
    if title != sentTitle { message.title = title }
    // The token is the state as of the newest acknowledged gesture: a page whose server dies
    // resumes from it and sends its unacknowledged gestures again on top, so a token that
    // already showed their effects (an edit closed by an Enter whose write was not kept) would
    // leave them nothing to act on.
    if let resumeSigner, settledGesture == handledGesture {
      if sentResume.map({ !resumeState.showsSamePage(as: $0) }) ?? true {
        let (state, token) = nextToken(resumeSigner)
        message.resume = token
        sentResume = state
      }
    }
    if settledGesture > sentAcknowledgement {
      message.acknowledged = settledGesture
      sentAcknowledgement = settledGesture
    }
    sentPath = path
    sentTitle = title
    sentFocus = focus
    guard
      !message.patches.isEmpty || message.path != nil || message.title != nil
        || message.resume != nil || message.focus != nil || message.acknowledged != nil
    else { return }
    send(message.json)
  }

}
