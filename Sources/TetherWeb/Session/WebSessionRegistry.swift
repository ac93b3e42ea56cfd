import Foundation
import Tether
import TetherFlow

/// Every open browser tab's session, by id: created for a page, attached to its socket, kept
/// for a grace period after the socket closes (so a reload or a reconnect resumes it), then
/// closed — which frees its stack, flows and view models.
///
/// It knows nothing of HTTP: a server integration (TetherWebHummingbird's `TetherWebServer`,
/// or one of your own) asks it for pages and routes each socket's messages to it.
@MainActor
public final class WebSessionRegistry {
  /// What a page request found.
  public enum PageResult: Sendable {
    /// The page, and the id of its new session.
    case page(html: String, sessionID: String)
    /// No screen at this path: the 404 page.
    case notFound(html: String)
    /// Too many sessions are open.
    case full
    /// This address has ``WebSessionRegistry/unclaimedPerAddress`` pages waiting for their
    /// socket already (429): others are still served.
    case busy
  }

  /// What a page's session does between the page's answer and its socket.
  public enum FirstRender: Equatable, Sendable {
    /// The page is drawn by a session made for it and closed as soon as the page is drawn; the
    /// page carries a signed resume token, and its socket's hello rebuilds the session from
    /// it (as a server of a cluster rebuilds another's). A page nobody connects to costs
    /// nothing once answered: a flood of page loads holds no session. The price: a page's
    /// first loads run twice (for the answer, and again for the socket), and the socket's
    /// first message redraws the whole app.
    case stateless
    /// The page's session waits up to ``WebSessionRegistry/unclaimedLifetime`` for its
    /// socket, which takes it over: first loads run once and the socket is sent only what
    /// changed since the page, but every page load holds a whole session until its socket
    /// comes or the wait ends.
    case held
  }

  /// What a page's session does until its socket comes (``FirstRender``): the one asked for,
  /// except that a registry with no key to sign a page's token with serves
  /// ``FirstRender/stateless`` pages as ``FirstRender/held``.
  public let firstRender: FirstRender
  /// Signs the token a ``FirstRender/stateless`` page carries when there is no
  /// ``resumeSigner``: a key of this registry's own, random, that no other server knows, whose
  /// tokens live a ``gracePeriod`` (a page whose session has expired is older than that, and
  /// loads its address anew).
  let pageSigner: WebResumeSigner?

  /// The most sessions open at once; a page beyond it gets 503.
  public var capacity: Int { admission.capacity }
  /// How long a session outlives its socket.
  public let gracePeriod: Duration
  /// How long a ``FirstRender/held`` page's session waits for its first socket: a page
  /// nobody connects to (a crawler, a flood of requests) costs its session this long, not a
  /// grace period.
  public let unclaimedLifetime: Duration
  /// How long a new page waits for its screens' first loads before it is served: within it,
  /// the page shows their data; past it, the page is served with their spinners and the data
  /// follows as patches once the socket is open. `.zero` serves every page at once.
  public let appearanceWait: Duration
  /// Starts a grace period: takes its deadline on the registry's clock at once, and returns
  /// the wait for it. A test passes a `TestClock` and advances it instead of sleeping.
  private let startTimer: @Sendable (Duration) -> @Sendable () async -> Void
  /// The app every session runs.
  public let app: WebApp
  /// The app's own style sheet (``WebApp/stylesheet``), for the server to serve at `/app.css`.
  public nonisolated let appStylesheet: String?
  /// The app's client hooks' scripts (``WebApp/hookScripts``), by the path each is served
  /// at, for the server to serve.
  public nonisolated let hookScripts: [(path: String, script: String)]
  /// Signs each session's resume token and verifies the tokens pages present; `nil` when
  /// this server resumes no session it does not hold.
  nonisolated public let resumeSigner: WebResumeSigner?
  /// Issues and checks the cookie that names each browser: under ``resumeSigner``'s keys (so
  /// every server of a cluster takes the cookies any of them issued), else under a key given
  /// at creation, else under a random key of this process's own (a restart then gives every
  /// browser a new id: pass a kept key to keep browsers' data across restarts).
  public nonisolated let clientCookies: WebClientCookies
  var sessions: [String: Entry] = [:]
  /// The limits, and the sessions being made (counted against them before the first
  /// suspension, so pages asked for at once cannot pass them together).
  var admission: SessionAdmission
  /// The most pages one address may have waiting for their socket at once (a page load
  /// beyond gets ``PageResult/busy``): one client cannot take every session slot by loading
  /// pages it never connects. Only page loads that name their address count.
  public var unclaimedPerAddress: Int { admission.unclaimedPerAddress }
  /// The time tokens are judged by: the wall clock (a test moves it on).
  var tokenTime: @Sendable () -> Date = { Date() }
  /// The most sessions one address may hold, waiting for their socket or claimed (a page
  /// load or a socket beyond gets ``PageResult/busy`` or ``WebResumeError/overBudget``): one
  /// client cannot take every session slot by opening pages and sockets. Behind a trusted
  /// proxy the address is the browser's (the proxy's `X-Forwarded-For`).
  public var sessionsPerAddress: Int { admission.sessionsPerAddress }
  /// The most sessions one browser (its cookie) may hold: its tabs.
  public var sessionsPerClient: Int { admission.sessionsPerClient }
  /// The longest page address (its path, in bytes) a server serves: a page's address is signed
  /// into the resume token its socket's hello carries, and the hello must fit a socket frame.
  /// A longer one is answered `414` before a page is made.
  nonisolated public static let maximumPathLength = 1_024
  /// The last connection number given out; numbers are never reused, even across sessions
  /// of one id (a session rebuilt from a token), so a late detach never hits a newer socket.
  var lastConnection = 0

  struct Entry {
    let session: WebSession
    /// Records every object the session's stack shows, for ``liveObjects``.
    let tracking: ObservationToken
    var connection = 0
    /// The address whose page load made the session, until a socket claims it: what
    /// ``WebSessionRegistry/unclaimedPerAddress`` counts.
    var unclaimedAddress: String?
    /// The address whose page load or socket made the session, claimed or not: what
    /// ``WebSessionRegistry/sessionsPerAddress`` counts.
    var address: String?
    /// Closes the current connection's socket (a newer one replaced it).
    var closeConnection: (@Sendable () -> Void)?
    var expiry: Task<Void, Never>?
  }

  /// Every object any session has shown, held weakly, by identity.
  private var shownObjects: [ObjectIdentifier: WeakObject] = [:]

  private struct WeakObject {
    weak var object: AnyObject?
  }

  /// Creates a registry.
  ///
  /// - Parameters:
  ///   - app: The app every session runs.
  ///   - capacity: The most sessions open at once.
  ///   - gracePeriod: How long a session outlives its socket.
  ///   - firstRender: What a page's session does until its socket comes: closed as soon as
  ///     the page is drawn (``FirstRender/stateless``, the default) or held for it.
  ///   - unclaimedLifetime: How long a held page's session waits for its first socket.
  ///   - unclaimedPerAddress: The most pages one address may have being drawn or (held)
  ///     waiting for their socket.
  ///   - sessionsPerAddress: The most sessions one address may hold, claimed or not; by
  ///     default a fifth of `capacity` (at least 1).
  ///   - sessionsPerClient: The most sessions (tabs) one browser may hold: 64 by default, so
  ///     a person with many tabs of the app open is served, while `sessionsPerAddress` still
  ///     bounds what one machine holds.
  ///   - appearanceWait: How long a new page waits for its screens' first loads (see
  ///     ``appearanceWait``).
  ///   - resumeSigner: The cluster's shared signer: with it, a page whose session lives on
  ///     another server (or on one that died) resumes here.
  ///   - clientKeys: The keys browsers' cookies are issued under when there is no
  ///     `resumeSigner` (the first issues, all check); `nil` for a random key of this
  ///     process's own, made by `signing`.
  ///   - signing: Makes the registry's keys of its own: the one that signs the tokens of
  ///     pages served ``FirstRender/stateless`` (without a `resumeSigner`), and the one
  ///     browsers' cookies are issued under (without `resumeSigner` or `clientKeys`).
  ///     TetherWebHummingbird's server passes swift-crypto's (`WebSigning.hmacSHA256`). With
  ///     none, the registry signs nothing of its own: a stateless page is served held, and a
  ///     browser's cookie is its random id alone, so a made-up id is taken as a browser of
  ///     its own (it names no other browser's data unless it is that browser's id).
  ///   - clock: The clock that times the grace period.
  public init<C: Clock<Duration>>(
    app: WebApp, capacity: Int = 500, gracePeriod: Duration = .seconds(30),
    firstRender: FirstRender = .stateless,
    unclaimedLifetime: Duration = .seconds(10), unclaimedPerAddress: Int = 20,
    sessionsPerAddress: Int? = nil, sessionsPerClient: Int = 64,
    appearanceWait: Duration = .seconds(1), resumeSigner: WebResumeSigner? = nil,
    clientKeys: [WebResumeKey]? = nil, signing: WebSigning? = nil,
    clock: C = ContinuousClock()
  ) {
    self.app = app
    appStylesheet = app.stylesheet
    hookScripts = app.hookScripts.map { (path: $0.key.scriptPath, script: $0.value) }
      .sorted { $0.path < $1.path }
    admission = SessionAdmission(
      capacity: capacity, unclaimedPerAddress: unclaimedPerAddress,
      sessionsPerAddress: sessionsPerAddress ?? capacity / 5,
      sessionsPerClient: sessionsPerClient)
    self.resumeSigner = resumeSigner
    let ownKey = signing?.randomKey()
    pageSigner =
      firstRender == .stateless && resumeSigner == nil
      ? ownKey.flatMap { WebResumeSigner(keys: [$0], maximumAge: max(gracePeriod, .seconds(10))) }
      : nil
    self.firstRender =
      firstRender == .stateless && resumeSigner == nil && pageSigner == nil ? .held : firstRender
    clientCookies = WebClientCookies(
      signedBy: resumeSigner?.keys ?? clientKeys ?? ownKey.map { [$0] } ?? [])
    self.gracePeriod = gracePeriod
    self.unclaimedLifetime = min(unclaimedLifetime, gracePeriod)
    self.appearanceWait = appearanceWait
    startTimer = { duration in
      let deadline = clock.now.advanced(by: duration)
      return { try? await clock.sleep(until: deadline, tolerance: nil) }
    }
  }

  /// How many sessions are open.
  public var count: Int { sessions.count }

  /// How many sessions have a page connected.
  public var connectedCount: Int { sessions.values.count { $0.session.isAttached } }

  /// How many of the objects sessions have shown (``WebApp``'s tracked object of each screen,
  /// typically its view model) are still alive. With every session closed it is 0, or one
  /// leaked: a load test checks exactly that.
  public var liveObjects: Int {
    shownObjects = shownObjects.filter { $0.value.object != nil }
    return shownObjects.count
  }

  private func track(_ object: AnyObject) {
    let id = ObjectIdentifier(object)
    if shownObjects[id]?.object !== object { shownObjects[id] = WeakObject(object: object) }
    // Entries of freed objects are dropped whenever the table has doubled since, so a server
    // that never reads ``liveObjects`` does not keep one per page it ever served.
    if shownObjects.count > pruneAt {
      shownObjects = shownObjects.filter { $0.value.object != nil }
      pruneAt = max(256, shownObjects.count * 2)
    }
  }

  /// The size of ``shownObjects`` at which it is next pruned.
  private var pruneAt = 256

  /// A new session showing `path`, and its page; the 404 page for a path that names no screen.
  /// The page is served once its screens' first loads have landed, or ``appearanceWait``
  /// has passed.
  ///
  /// - Parameters:
  ///   - path: The request's path, such as `/gallery/photo/230200400`.
  ///   - client: The browser asking, as the server knows it.
  ///   - address: The network address asking, if known: it may have at most
  ///     ``unclaimedPerAddress`` pages waiting for their socket.
  ///   - base: The path the app is mounted at: `""` at the server's root, or a prefix such as
  ///     `/app`, under which the page loads its script and style, opens its socket (`/app/ws`)
  ///     and shows its addresses. `path` is the part after it.
  /// - Returns: The page or why there is none.
  public func page(
    for path: String, client: WebClient = WebClient(), address: String? = nil, base: String = ""
  ) async -> PageResult {
    switch admissionRefusal(address: address, client: client, waiting: true) {
    case .full?: return .full
    case .overBudget?, .busy?: return .busy
    case nil: break
    }
    admission.beginMaking(for: address)
    let id = Self.newID()
    let session: WebSession
    let made = await makeSession(id: id, path: path, client: client)
    admission.endMaking(for: address)
    if let address {
      if case .success = made {
        sessions[id]?.unclaimedAddress = address
        sessions[id]?.address = address
      }
    }
    switch made {
    case .success(let made): session = made
    case .failure(let error):
      return .notFound(
        html: WebPageShell.notFoundPage(
          path: path, reason: error.description, appTitle: app.title, base: base))
    }
    await session.waitForAppearance(timeout: appearanceWait)
    switch firstRender {
    case .stateless:
      // The page carries all its socket needs (its secret and state, signed): nothing waits.
      let html = session.document(
        assets: .inline(appStyle: appStylesheet, hooks: hookURLs(base)), base: base,
        pageSigner: pageSigner)
      if sessions[id]?.session === session {
        sessions[id] = nil
        session.close()
      }
      return .page(html: html, sessionID: id)
    case .held:
      scheduleExpiry(id, after: unclaimedLifetime)  // a page nobody connects to is soon gone
      let html = session.document(
        assets: .inline(appStyle: appStylesheet, hooks: hookURLs(base)), base: base,
        pageSigner: nil)
      return .page(html: html, sessionID: id)
    }
  }

  /// The addresses of the hooks' scripts under `base`.
  private func hookURLs(_ base: String) -> [String] {
    hookScripts.map { base + $0.path }
  }

  /// Why `address` and `client` may not have one more session (``SessionAdmission``), given
  /// the sessions held here; `waiting` for a page load, which its address's pages waiting for
  /// their socket count against.
  func admissionRefusal(address: String?, client: WebClient, waiting: Bool)
    -> SessionAdmission.Refusal?
  {
    admission.refusal(
      open: sessions.count,
      heldByAddress: address.map { address in sessions.values.count { $0.address == address } },
      heldByClient: client.id.map { id in
        sessions.values.count(where: { $0.session.client.id == id })
      },
      waitingAtAddress: waiting
        ? address.map { address in sessions.values.count { $0.unclaimedAddress == address } }
        : nil,
      address: address)
  }

  /// A new session showing `path`, registered under `id`; or why no screen shows `path`.
  /// Two pages racing to resume one session both end up with the first one made.
  func makeSession(id: String, path: String, client: WebClient) async -> Result<
    WebSession, NavigationError
  > {
    let made: (session: WebSession, track: (@escaping ([AnyObject]) -> Void) -> ObservationToken)
    switch await app.makeSession(id, ScreenPath(parsing: path), resumeSigner, client, app.chrome) {
    case .success(let result): made = result
    case .failure(let error): return .failure(error)
    }
    if let existing = sessions[id]?.session {
      made.session.close()
      return .success(existing)
    }
    made.session.uploads.limits = app.uploads
    let tracking = made.track { [weak self] objects in
      for object in objects { self?.track(object) }
    }
    sessions[id] = Entry(session: made.session, tracking: tracking)
    return .success(made.session)
  }

  /// Whether a page's hello may carry a resume token this registry reads
  /// (``resume(_:token:client:address:)``): with a ``resumeSigner``, or for ``FirstRender/stateless`` pages.
  public var readsResumeTokens: Bool { resumeSigner != nil || pageSigner != nil }

  /// The open session with `id`, if any.
  public func session(_ id: String) -> WebSession? { sessions[id]?.session }

  /// Whether a session with `id` is open.
  public func contains(_ id: String) -> Bool { sessions[id] != nil }

  /// Closes every session (the server is stopping).
  public func closeAll() {
    for entry in sessions.values {
      entry.expiry?.cancel()
      entry.session.close()
    }
    sessions = [:]
  }

  func scheduleExpiry(_ id: String, after lifetime: Duration? = nil) {
    // The deadline is taken now, not when the task first runs: a test that advances its clock
    // right after a detach must move the deadline it set.
    let timer = startTimer(lifetime ?? gracePeriod)
    sessions[id]?.expiry?.cancel()
    sessions[id]?.expiry = Task { [weak self] in
      await timer()
      guard !Task.isCancelled else { return }
      self?.expire(id)
    }
  }

  private func expire(_ id: String) {
    guard let entry = sessions[id], !entry.session.isAttached else { return }
    entry.session.close()
    sessions[id] = nil
  }

  /// 128 random bits in hex.
  private static func newID() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let value = generator.next() as UInt64
      let hex = String(value, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }

}
