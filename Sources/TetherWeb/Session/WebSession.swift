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
  public internal(set) var refused: [WebSessionError] = []

  /// The stack, its views, the key rule and the snapshot: what every view layer shares.
  let presenter: ScreenPresenter<any WebView>
  let open: @MainActor (ScreenPath) async -> Void
  private let appTitle: String
  /// What the page shows around its screen that the app writes itself.
  private let chrome: WebPageChrome
  private(set) var context = WebRenderContext()
  /// What the page shows, as far as the session knows: what it was last sent, with the page's
  /// own edits.
  let page = KeptPage()
  /// The tree the page shows (what an in-process page test compares its own with).
  package var pageTree: HTMLNode? { page.tree }
  /// The page's title, as last sent.
  package var sentTitle: String? { page.title }
  /// The element the page was last told to focus.
  package var sentFocus: String? { page.focus }
  private var send: ((String) -> Void)?
  private var renderToken: ObservationToken?
  /// How many times the session has rendered (for tests: one change, one render).
  private(set) var renders = 0
  /// The resume tokens signed for the page.
  private let tokens: ResumeTokens
  /// The resume state of the last token sent (its `issuedAt` is 0).
  private var sentResume: WebResumeState?
  /// The page's numbered gestures: handled, kept, acknowledged.
  private let gestures = GestureLedger()
  /// Set by ``holdMessagesUntilAppeared(timeout:)``: the next message waits for the screens'
  /// first loads.
  private var appearanceHold: Duration?
  /// The files the page is sending (``fileInput(_:label:_:)``).
  let uploads = WebSessionUploads()
  /// Where the socket's reader writes the page's upload chunks, off the main actor.
  package var uploadReceiver: WebUploadReceiver { uploads.receiver }

  /// Creates a session over `stack`.
  ///
  /// - Parameters:
  ///   - id: The session's secret id.
  ///   - stack: The tab's navigation state; its flows are already started.
  ///   - appTitle: The page title's suffix.
  ///   - chrome: The title bar and alert markup the app writes itself, if any.
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
    chrome: WebPageChrome = .standard,
    resumeSigner: WebResumeSigner? = nil, client: WebClient = WebClient(),
    open: @escaping @MainActor (ScreenPath) async -> Void,
    trackedObject: @escaping @MainActor (Screen<Destination>) -> AnyObject = { $0 },
    makeView: @escaping @MainActor (Screen<Destination>) -> any WebScreen
  ) {
    self.init(
      id: id, stack: stack, appTitle: appTitle, chrome: chrome, resumeSigner: resumeSigner,
      client: client, open: open,
      makeWebView: { screen in
        MountedScreen(
          makeView(screen), viewModels: MountedScreen.viewModels(of: screen, trackedObject))
      })
  }

  /// A session whose views are hand-built ``WebView``s: the library's own tests.
  @_spi(HandBuilt)
  public init<Destination>(
    id: String, stack: ScreenStack<Destination>, appTitle: String,
    chrome: WebPageChrome = .standard,
    resumeSigner: WebResumeSigner? = nil, client: WebClient = WebClient(),
    open: @escaping @MainActor (ScreenPath) async -> Void,
    makeWebView: @escaping @MainActor (Screen<Destination>) -> any WebView
  ) {
    self.id = id
    self.client = client
    self.appTitle = appTitle
    self.chrome = chrome
    self.open = open
    tokens = ResumeTokens(signer: resumeSigner)
    presenter = ScreenPresenter(stack: stack, makeView: makeWebView)
    markupStore.onComponentChange = { [weak self] component, old in
      self?.componentChanged(component, from: old)
    }
    markupStore.onStreamChange = { [weak self] full in self?.streamsChanged(full: full) }
    uploads.onSignals = { [weak self] in self?.uploadSignalsWaiting() }
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
  public var resumeState: WebResumeState { resumeState(counter: resumeCounter) }

  private func resumeState(counter: Int) -> WebResumeState {
    WebResumeState(
      sessionID: id, snapshot: presenter.snapshot(), client: client.id, secret: secret,
      counter: counter)
  }

  /// The number of the newest resume token this session signed: each token carries the next
  /// one, and a session rebuilt from a token goes on from its number. A token with a number no
  /// higher than this is older than the session (``WebSessionRegistry/resume(_:token:client:address:)``
  /// keeps the session as it is).
  public var resumeCounter: Int { tokens.counter }

  /// Sends the page a freshly signed token if its newest is older than a third of the
  /// signer's `maximumAge`, so a page that sits on one screen still holds a token another
  /// server accepts. The server's socket calls it every third of `maximumAge`.
  ///
  /// - Parameter now: The time to judge the newest token's age by.
  public func refreshResumeToken(now: ContinuousClock.Instant = .now) {
    guard send != nil, gestures.isSettled, tokens.isAging(now: now) else { return }
    tokens.forgetSent()
    unobserved { renderAndSend() }
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
    tokens.resume(from: state.counter)
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

  /// The whole page, with a token signed by `pageSigner` when the session has no resume
  /// signer of its own: a stateless page's socket rebuilds the session from it. `base` is the
  /// path the app is mounted at ("" at the root): the page's socket and addresses are under it.
  func document(assets: WebPageShell.Assets, base: String, pageSigner: WebResumeSigner?) -> String {
    // Outside the render's `observe { }` run, which tracks the same reads: registered with
    // Observation, each property read would get a registrar no one watches.
    let tree = unobserved { render() }
    let focus = context.requestedFocus
    page.served(tree, path: presenter.path.description, title: pageTitle, focus: focus)
    let token = (tokens.signer ?? pageSigner).map { tokens.sign(with: $0, resumeState(counter:)) }
    return WebPageShell.document(
      tree, title: pageTitle, session: id, secret: secret, focus: focus, token: token,
      assets: assets, base: base)
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
    // Files still arriving came over an earlier socket, which this one replaces: the page
    // sends nothing more of them.
    uploads.socketEnded()
    self.send = send
    if resync {
      page.reconnected(shown: shown)
      tokens.forgetSent()
      gestures.pageReconnected()
    }
    unobserved { renderAndSend() }
  }

  /// Stops sending; the page's next connection resumes the session.
  public func detach() {
    send = nil
    uploads.socketEnded()
  }

  /// Whether a page is connected.
  public var isAttached: Bool { send != nil }

  /// Ends the session: stops rendering and releases the stack, its flows and view models.
  public func close() {
    renderToken?.cancel()
    renderToken = nil
    gestures.cancel()
    send = nil
    markupStore.cancelAll()
    uploads.close()
    context = WebRenderContext()  // the last render's handlers, and the calls they hold
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
    guard gestures.take(number) else {
      flushNow(after: envelope.messages)
      return nil
    }
    let refusal = await WebGesture.$current.withValue(WebGesture(id: "\(id)-\(number)")) {
      await handleAll(envelope.messages)
    }
    gestures.acknowledgeWhenSettled({ [weak self] in self?.presenter.orderedViews ?? [] }) {
      [weak self] in self?.flushNow()
    }
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
    // What the gesture inserted into a stream the page shows goes after the render that may
    // have drawn its list.
    let patches = pendingPatches + (page.tree != nil ? markupStore.takeStreamPatches() : [])
    let redrawn = pendingRedrawn
    pendingPatches = []
    pendingRedrawn = false
    sendUpdate(patches, redrawn: redrawn)
  }

  /// A stream the page shows changed outside a gesture (a feed's new row): its patches go out
  /// on the main actor's next turn, every change of this one in one message — or at once
  /// when its buffer is `full`, so a burst longer than the buffer loses nothing.
  private func streamsChanged(full: Bool) {
    guard send != nil else { return }
    if full {
      // The lists of the streams drawn are on the page already: their patches may go ahead
      // of a render a gesture is about to make.
      if !batching {
        flushStreams()
      } else if page.tree != nil {
        pendingPatches += markupStore.takeStreamPatches()
      }
      return
    }
    guard !batching, !streamFlushScheduled else { return }
    streamFlushScheduled = true
    Task { @MainActor [weak self] in self?.flushStreams() }
  }

  private var streamFlushScheduled = false

  /// An upload's signals wait (progress acknowledged, a file stopped): they go out on the main
  /// actor's next turn with whatever render is due, or with the message a gesture is making.
  private func uploadSignalsWaiting() {
    guard send != nil, !batching, !uploads.sendScheduled else { return }
    uploads.sendScheduled = true
    Task { @MainActor [weak self] in
      guard let self else { return }
      uploads.sendScheduled = false
      if let renderToken, renderToken.needsRun {
        renderToken.runNow()
      } else {
        sendUpdate([], redrawn: false)
      }
    }
  }

  private func flushStreams() {
    streamFlushScheduled = false
    guard send != nil, page.tree != nil else { return }
    // A render that is due goes first (it may draw the stream's list) and takes the
    // stream's patches with it.
    if let renderToken, renderToken.needsRun {
      renderToken.runNow()
      return
    }
    let patches = markupStore.takeStreamPatches()
    if !patches.isEmpty { sendUpdate(patches, redrawn: false) }
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
    guard send != nil, page.tree != nil else { return }
    guard let patches = page.component(component.name, renderedAs: component.node) else {
      // The page does not show it where the session thought: render the whole page.
      renderToken?.runNow()
      return
    }
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

  /// The top screen's title and the app's (``WebPageShell/title(top:app:)``).
  private var pageTitle: String { WebPageShell.title(top: presenter.topTitle, app: appTitle) }

  /// The bindings of the markup fields the page shows, kept from render to render.
  private let markupStore = MarkupStore()

  /// The page (``WebPageShell/render(_:appTitle:chrome:store:)``); its gestures are
  /// registered in ``context`` from then on.
  func render() -> HTMLNode {
    let (tree, context) = WebPageShell.render(
      presenter, appTitle: appTitle, chrome: chrome, store: markupStore)
    self.context = context
    return tree
  }

  private func renderAndSend() {
    renders &+= 1
    let tree = render()
    guard send != nil else { return }
    var (patches, redrawn) = page.update(
      to: tree, path: presenter.path.description, title: pageTitle,
      focus: context.requestedFocus)
    // The streams' changes follow the render, which may have drawn their lists.
    patches += markupStore.takeStreamPatches()
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
    (message.path, message.title, message.focus) = page.tell(
      path: path, title: title, focus: context.requestedFocus, redrawn: redrawn)
    // The token is the state as of the newest acknowledged gesture: a page whose server dies
    // resumes from it and sends its unacknowledged gestures again on top, so a token that
    // already showed their effects (an edit closed by an Enter whose write was not kept) would
    // leave them nothing to act on.
    if gestures.isSettled {
      message.resume = tokens.tokenDue(
        current: { resumeState }, state: resumeState(counter:))
    }
    if let acknowledged = gestures.acknowledgementDue() {
      message.acknowledged = acknowledged
    }
    message.uploads = uploads.takeSignals()
    guard
      !message.patches.isEmpty || message.path != nil || message.title != nil
        || message.resume != nil || message.focus != nil || message.acknowledged != nil
        || !message.uploads.isEmpty
    else { return }
    send(message.json)
  }

}
