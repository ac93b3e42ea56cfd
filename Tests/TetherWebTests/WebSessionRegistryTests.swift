import Synchronization
import Testing
import Tether
import TetherFlow
import TetherTesting

@_spi(HandBuilt) @testable import TetherWeb

/// A one-screen app whose screen loads on appearing, held by a gate the test opens.
@MainActor
final class SlowLoad {
  let text = MutableProperty("Loading…")
  private let gate: AsyncStream<Void>

  init(gate: AsyncStream<Void>) {
    self.gate = gate
  }

  func viewDidLoad() async {
    for await _ in gate { break }
    text.value = "Loaded"
  }
}

@MainActor
final class SlowFlow: FlowController {
  let gate: AsyncStream<Void>

  init(gate: AsyncStream<Void>) {
    self.gate = gate
  }

  func start(on navigator: any Navigator<SlowLoad>) -> Screen<SlowLoad> {
    let load = SlowLoad(gate: gate)
    return Screen(load, title: "Slow", owner: self, onAppear: { await load.viewDidLoad() })
  }
}

@MainActor
@Suite struct WebSessionRegistryTests {
  private func registry(wait: Duration) -> (WebSessionRegistry, AsyncStream<Void>.Continuation) {
    let (gate, opener) = AsyncStream.makeStream(of: Void.self)
    let app = WebApp(title: "Slow", rootFlow: { SlowFlow(gate: gate) }) { screen in
      Label(screen.destination.text)
    }
    return (WebSessionRegistry(app: app, firstRender: .held, appearanceWait: wait), opener)
  }

  private func html(_ result: WebSessionRegistry.PageResult) -> String {
    if case .page(let html, _) = result { return html }
    Issue.record("expected a page, got \(result)")
    return ""
  }

  @Test func aPageIsServedOnceItsFirstLoadHasLanded() async {
    let (registry, opener) = registry(wait: .seconds(30))
    defer { registry.closeAll() }
    let page = Task { await registry.page(for: "/") }
    for _ in 0..<20 { await Task.yield() }
    opener.yield()
    let served = html(await page.value)
    #expect(served.contains("Loaded"))
    #expect(!served.contains("Loading…"))
  }

  @Test func aSlowLoadIsServedWithItsSpinnerWhenTheWaitEnds() async {
    let (registry, opener) = registry(wait: .milliseconds(20))
    defer { registry.closeAll() }
    guard case .page(let served, let id) = await registry.page(for: "/") else {
      Issue.record("no page")
      return
    }
    #expect(served.contains("Loading…"))
    // The load goes on; the page's socket gets its data as a patch.
    var sent: [String] = []
    _ = registry.attach(id, resync: false) { sent.append($0) }
    opener.yield()
    for _ in 0..<1_000 where !sent.joined().contains("Loaded") { await Task.yield() }
    #expect(sent.joined().contains("Loaded"))
  }

  @Test func aZeroWaitServesAtOnce() async {
    let (registry, opener) = registry(wait: .zero)
    defer {
      opener.finish()
      registry.closeAll()
    }
    #expect(registry.appearanceWait == .zero)
    #expect(html(await registry.page(for: "/")).contains("Loading…"))
  }

  @Test func onlyTheSecretTheBrowserWasServedClaimsItsSession() async throws {
    let (registry, opener) = registry(wait: .zero)
    defer {
      opener.finish()
      registry.closeAll()
    }
    guard case .page(let html, let id) = await registry.page(for: "/") else {
      Issue.record("no page")
      return
    }
    let secret = try #require(registry.session(id)?.secret)
    #expect(secret.count == 32 && !html.contains("?secret") && html.contains(secret))
    #expect(registry.claims(id, secret: secret))
    #expect(!registry.claims(id, secret: id), "the id alone claims nothing")
    // The last digit changed (a secret that ends in 0 made this the secret itself, 1 in 16).
    let other = secret.last == "0" ? "1" : "0"
    #expect(!registry.claims(id, secret: String(secret.dropLast()) + other))
    #expect(!registry.claims("no-such-session", secret: secret))
  }

  @Test func aNewerSocketClosesTheOlderAndItsMessagesAreDropped() async {
    let (registry, opener) = registry(wait: .zero)
    defer {
      opener.finish()
      registry.closeAll()
    }
    guard case .page(_, let id) = await registry.page(for: "/") else {
      Issue.record("no page")
      return
    }
    let closed = ClosedSockets()
    let first = registry.attach(id, resync: false, send: { _ in }, close: { closed.add(1) })
    #expect(closed.all.isEmpty)
    let second = registry.attach(id, resync: true, send: { _ in }, close: { closed.add(2) })
    #expect(closed.all == [1], "the older socket is closed")
    #expect(first != second)
    // A message the closed socket sent meanwhile reaches nothing.
    let stale = await registry.receive(
      id, connection: first ?? 0, #"{"type":"key","key":"Nope"}"#)
    #expect(stale == nil)
    let current = await registry.receive(
      id, connection: second ?? 0, #"{"type":"key","key":"Nope"}"#)
    #expect(current == .unknownKey("Nope"), "the newer socket's messages are handled")
  }
}

/// A flow whose deep link `/later` suspends before its screen is shown, as a flow that loads
/// something to restore a path does.
@MainActor
final class SuspendingFlow: FlowController {
  func start(on navigator: any Navigator<SlowLoad>) -> Screen<SlowLoad> {
    let (gate, opener) = AsyncStream.makeStream(of: Void.self)
    opener.finish()
    return Screen(SlowLoad(gate: gate), title: "Later", owner: self)
  }

  func restore(_ path: ArraySlice<String>, on navigator: any Navigator<SlowLoad>)
    async throws(NavigationError)
  {
    guard path == ["later"] else { throw .unknownComponent(path.joined(separator: "/")) }
    try? await Task.sleep(for: .milliseconds(20))
  }
}

@MainActor
@Suite struct WebSessionRegistryCapacityTests {
  private func app(_ gate: AsyncStream<Void>) -> WebApp {
    WebApp(title: "Slow", rootFlow: { SlowFlow(gate: gate) }) { screen in
      Label(screen.destination.text)
    }
  }

  @Test func pagesAskedForAtOnceNeverPassTheCapacity() async {
    let app = WebApp(title: "Later", rootFlow: { SuspendingFlow() }) { screen in
      Label(screen.destination.text)
    }
    let registry = WebSessionRegistry(
      app: app, capacity: 2, firstRender: .held, appearanceWait: .zero)
    defer { registry.closeAll() }
    // Each page's deep link suspends before its session exists: all five ask at once.
    let pages = (0..<5).map { _ in Task { await registry.page(for: "/later") } }
    var served = 0
    for page in pages {
      if case .page = await page.value { served += 1 }
    }
    #expect(served == 2, "\(served) pages for a capacity of 2")
    #expect(registry.count == 2)
  }

  @Test func oneAddressHasOnlySoManyPagesWaitingForTheirSocket() async {
    let (gate, opener) = AsyncStream.makeStream(of: Void.self)
    opener.finish()
    let registry = WebSessionRegistry(
      app: app(gate), firstRender: .held, unclaimedPerAddress: 2, appearanceWait: .zero)
    defer { registry.closeAll() }
    var ids: [String] = []
    for _ in 0..<2 {
      if case .page(_, let id) = await registry.page(for: "/", address: "10.0.0.1") {
        ids.append(id)
      }
    }
    #expect(ids.count == 2)
    guard case .busy = await registry.page(for: "/", address: "10.0.0.1") else {
      Issue.record("a third waiting page of one address should be refused")
      return
    }
    guard case .page = await registry.page(for: "/", address: "10.0.0.2") else {
      Issue.record("another address is served")
      return
    }
    guard case .page = await registry.page(for: "/") else {
      Issue.record("a page load that names no address is not counted")
      return
    }
    // A page whose socket came no longer waits: room for one more.
    _ = registry.attach(ids[0], resync: false, send: { _ in })
    guard case .page = await registry.page(for: "/", address: "10.0.0.1") else {
      Issue.record("a claimed page frees its address's place")
      return
    }
    #expect(registry.count == 5)
  }

  @Test func aPageWhoseSocketNeverComesIsFreedLongBeforeTheGracePeriod() async {
    let (gate, opener) = AsyncStream.makeStream(of: Void.self)
    opener.finish()
    let clock = TestClock()
    let registry = WebSessionRegistry(
      app: app(gate), gracePeriod: .seconds(30), firstRender: .held, appearanceWait: .zero,
      clock: clock)
    defer { registry.closeAll() }
    _ = await registry.page(for: "/")
    #expect(registry.count == 1)
    // Past the deadline, not onto it: the expiry task may start sleeping only after this
    // advance (a loaded machine, TSan), and a test clock's sleep until exactly `now` waits
    // for the next advance, which never comes.
    await clock.advance(by: .seconds(11))
    await expectEventually { registry.count == 0 }
  }

  @Test func aClaimedSessionKeepsTheWholeGracePeriod() async {
    let (gate, opener) = AsyncStream.makeStream(of: Void.self)
    opener.finish()
    let clock = TestClock()
    let registry = WebSessionRegistry(
      app: app(gate), gracePeriod: .seconds(30), firstRender: .held, appearanceWait: .zero,
      clock: clock)
    defer { registry.closeAll() }
    guard case .page(_, let id) = await registry.page(for: "/"),
      let connection = registry.attach(id, resync: false, send: { _ in })
    else {
      Issue.record("no page")
      return
    }
    registry.detach(id, connection: connection)
    await clock.advance(by: .seconds(20))
    for _ in 0..<20 { await Task.yield() }
    #expect(registry.count == 1, "a reload within the grace period finds it")
    await clock.advance(by: .seconds(11))  // past the deadline, as above
    await expectEventually { registry.count == 0 }
  }
}

/// Which sockets a registry closed, from its `close` callbacks.
final class ClosedSockets: Sendable {
  private let closed = Mutex<[Int]>([])
  func add(_ number: Int) { closed.withLock { $0.append(number) } }
  var all: [Int] { closed.withLock { $0 } }
}
