import Dispatch
import Hummingbird
import Logging
import LoopbackClient
import Synchronization
import Testing
import Tether
import TetherFlow
import TetherWeb
import TetherWebHummingbird

@MainActor
private final class KeysFlow: FlowController {
  func start(on navigator: any Navigator<String>) -> Screen<String> {
    Screen("Keys", title: "Keys", owner: self)
  }
}

@MainActor
private final class KeysScreen: WebScreen {
  let title: String
  init(_ title: String) { self.title = title }
  var body: Markup<Never> { p { title } }
}

@MainActor
private func keysApp() -> WebApp {
  WebApp(title: "Keys", rootFlow: { KeysFlow() }) { screen in KeysScreen(screen.destination) }
}

/// A loopback socket used by one test at a time, from one thread at a time.
private struct BlockingSocket: @unchecked Sendable {
  let connection: Connection
}

/// Runs `work` with `socket` on a thread of its own: the loopback client's reads block.
private func off<T: Sendable>(
  _ socket: BlockingSocket, _ work: @escaping @Sendable (Connection) throws -> T
) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async {
      continuation.resume(with: Result { try work(socket.connection) })
    }
  }
}

/// Serves `registry` through `TetherWebServer`'s own connections on a free loopback port for
/// `body`, then stops.
@MainActor
private func serving(
  _ registry: WebSessionRegistry, _ body: @escaping @Sendable (Int) async throws -> Void
) async throws {
  let (ports, announce) = AsyncStream.makeStream(of: Int.self)
  let application = TetherWebServer.makeApplication(
    registry: registry, host: "127.0.0.1", port: 0, logger: Logger(label: "test"),
    onRunning: { announce.yield($0) })
  let server = Task { try await application.runService(gracefulShutdownSignals: []) }
  defer {
    server.cancel()
    registry.closeAll()
  }
  var iterator = ports.makeAsyncIterator()
  let port = try #require(await iterator.next())
  try await body(port)
}

/// A page load from 127.0.0.1: its status, head and body.
private func load(
  _ path: String, port: Int, cookie: String? = nil
) async throws -> (status: Int, head: String, body: String) {
  let connection = BlockingSocket(connection: try Connection(port: port))
  return try await off(connection) { try $0.getWithHead(path, port: port, cookie: cookie) }
}

/// The value of the page script's `data-<name>` attribute.
private func attribute(_ name: String, in html: String) throws -> String {
  let start = try #require(html.range(of: "data-\(name)=\""))
  return String(html[start.upperBound...].prefix { $0 != "\"" })
}

/// Security round 2, finding 6, through `TetherWebServer`'s own connections: each socket's
/// loop waited for the main actor with every message and read nothing meanwhile — its pongs
/// included, so a busy server let a page's socket time out; and a fresh cookie was a fresh
/// list, as many as one address asked for.
@Suite struct SocketLoopTests {
  @MainActor @Test func aPingIsAnsweredWhileTheMainActorIsBusy() async throws {
    let registry = WebSessionRegistry(app: keysApp(), appearanceWait: .zero, signing: .hmacSHA256)
    try await serving(registry) { port in
      let page = try await load("/", port: port)
      let html = page.body
      let cookie = try #require(cookiePair(setIn: page.head))
      let (id, secret, token) = (
        try attribute("session", in: html), try attribute("secret", in: html),
        try attribute("resume", in: html)
      )
      let socket = try Connection(port: port, timeout: 1)
      try socket.upgrade("/ws?session=\(id)", port: port, cookie: cookie)
      try socket.sendText(#"{"type":"hello","secret":"\#(secret)","token":"\#(token)"}"#)
      let blocking = BlockingSocket(connection: socket)
      let first = try await off(blocking) { try $0.receiveText() }
      #expect(first != nil, "the socket is attached and sent its first render")

      // The main actor is held (a long render, another session's work) for at most 5 s.
      let started = Atomic(false)
      let released = Atomic(false)
      let holder = Task { @MainActor in
        started.store(true, ordering: .sequentiallyConsistent)
        let deadline = ContinuousClock.now + .seconds(5)
        while !released.load(ordering: .sequentiallyConsistent), .now < deadline {}
        return released.load(ordering: .sequentiallyConsistent)
      }
      while !started.load(ordering: .sequentiallyConsistent) { await Task.yield() }

      // A message for the session, then a ping: the pong must not wait for the message.
      try socket.sendText(#"{"type":"key","key":"ArrowDown","g":1}"#)
      try socket.send(Connection.frame(opcode: 0x9, [1, 2, 3, 4]))
      let pong = try await off(blocking) { socket -> [UInt8]? in
        let deadline = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < deadline {
          guard let frame = try? socket.receiveFrame() else { continue }
          if frame.opcode == 0xA { return frame.payload }
        }
        return nil
      }
      released.store(true, ordering: .sequentiallyConsistent)
      let heldThroughout = await holder.value
      #expect(pong == [1, 2, 3, 4], "the ping was answered")
      #expect(heldThroughout, "the pong came while the main actor was still busy")
    }
  }

  /// A page load without a cookie is issued one, however many browsers its address has
  /// shown (a campus is one address), and a browser that has its cookie keeps it.
  @MainActor @Test func everyNewBrowserIsIssuedACookieWhateverItsAddressHasShown() async throws {
    let registry = WebSessionRegistry(app: keysApp(), appearanceWait: .zero, signing: .hmacSHA256)
    try await serving(registry) { port in
      var cookies: Set<String> = []
      for _ in 0..<60 {
        let page = try await load("/", port: port)
        #expect(page.status == 200)
        cookies.insert(try #require(cookiePair(setIn: page.head)))
      }
      #expect(cookies.count == 60, "each a browser of its own")
      let known = try await load("/", port: port, cookie: cookies.first)
      #expect(known.status == 200, "a browser the server issued is served")
      #expect(cookiePair(setIn: known.head) == nil, "and issued nothing new")
    }
  }

  @Test func aSocketsMessagesArePacedByDefault() {
    #expect(WebConnectionLimits().messageRate == WebMessageRate())
    #expect(WebMessageRate() == WebMessageRate(burst: 100, perSecond: 50))
  }
}
