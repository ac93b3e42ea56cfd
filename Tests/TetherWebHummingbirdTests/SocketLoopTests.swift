#if WebServer
  import Dispatch
  import Hummingbird
  import HummingbirdTesting
  import HummingbirdWebSocket
  import Logging
  import Synchronization
  import Testing
  import Tether
  import TetherFlow
  import TetherWeb

  @testable import TetherWebHummingbird

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// A page's WebSocket on a plain blocking socket: enough of RFC 6455 to send masked frames
  /// and read the server's, so a test can send a ping and see when its pong comes.
  final class RawWebSocket: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
      let description: String
    }

    /// Connects to `127.0.0.1:port` and upgrades `path`; reads give up after 1 s each.
    init(port: Int, path: String, cookie: String) throws {
      #if canImport(Darwin)
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
      #else
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      #endif
      guard descriptor >= 0 else { throw Failure(description: "no socket") }
      var limit = timeval(tv_sec: 1, tv_usec: 0)
      setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else {
        close(descriptor)
        throw Failure(description: "no connection to \(port)")
      }
      try write(
        Array(
          ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
            + "Cookie: \(cookie)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            .utf8))
      let end: [UInt8] = Array("\r\n\r\n".utf8)
      while Self.range(of: end, in: buffer) == nil {
        guard try fill() else { throw Failure(description: "no upgrade") }
      }
      let headEnd = Self.range(of: end, in: buffer) ?? 0
      let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
      guard head.hasPrefix("HTTP/1.1 101") else {
        throw Failure(description: "refused: \(head.prefix(60))")
      }
      buffer.removeFirst(headEnd + end.count)
    }

    deinit { close(descriptor) }

    private static func range(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
      guard bytes.count >= pattern.count else { return nil }
      return (0...(bytes.count - pattern.count)).first {
        Array(bytes[$0..<($0 + pattern.count)]) == pattern
      }
    }

    private func write(_ bytes: [UInt8]) throws {
      var offset = 0
      while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes {
          send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        guard sent > 0 else { throw Failure(description: "send failed") }
        offset += sent
      }
    }

    /// Reads what has arrived; `false` at the end of the stream or when 1 s passed with none.
    private func fill() throws -> Bool {
      var chunk = [UInt8](repeating: 0, count: 16_384)
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return false }
      buffer += chunk[..<count]
      return true
    }

    /// Sends one masked frame.
    func sendFrame(opcode: UInt8, _ payload: [UInt8]) throws {
      var frame: [UInt8] = [0x80 | opcode]
      if payload.count < 126 {
        frame.append(0x80 | UInt8(payload.count))
      } else {
        frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
      }
      let mask: [UInt8] = [7, 1, 3, 9]
      frame += mask
      frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
      try write(frame)
    }

    func sendText(_ text: String) throws { try sendFrame(opcode: 0x1, Array(text.utf8)) }

    /// The next frame from the server, or `nil` if none came within 1 s.
    func nextFrame() throws -> (opcode: UInt8, payload: [UInt8])? {
      func need(_ count: Int) throws -> Bool {
        while buffer.count < count { guard try fill() else { return false } }
        return true
      }
      guard try need(2) else { return nil }
      var length = Int(buffer[1] & 0x7F)
      var start = 2
      if length == 126 {
        guard try need(4) else { return nil }
        length = Int(buffer[2]) << 8 | Int(buffer[3])
        start = 4
      } else if length == 127 {
        guard try need(10) else { return nil }
        length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
        start = 10
      }
      guard try need(start + length) else { return nil }
      let frame = (buffer[0] & 0x0F, Array(buffer[start..<(start + length)]))
      buffer.removeFirst(start + length)
      return frame
    }

    /// Runs `work` on a thread of its own: the socket's reads block.
    func off<T: Sendable>(_ work: @escaping @Sendable (RawWebSocket) throws -> T) async throws -> T
    {
      try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work(self) }) }
      }
    }
  }

  @MainActor
  final class KeysFlow: FlowController {
    func start(on navigator: any Navigator<String>) -> Screen<String> {
      Screen("Keys", title: "Keys", owner: self)
    }
  }

  /// Finding 6 of the second attack run: each socket's loop waited for the main actor with
  /// every message, and read nothing meanwhile — its pongs included, so a busy server let a
  /// page's socket time out.
  @Suite struct SocketLoopTests {
    @MainActor private func application() -> some ApplicationProtocol {
      let app = WebApp(title: "Keys", rootFlow: { KeysFlow() }) { screen in
        Label(screen.destination)
      }
      let router = Router(context: BasicWebSocketRequestContext.self)
      TetherWebServer.addRoutes(
        to: router, registry: WebSessionRegistry(app: app, appearanceWait: .zero),
        logger: Logger(label: "test"))
      return Application(
        router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
        configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    private static func attribute(_ name: String, in html: String) throws -> String {
      let start = try #require(html.range(of: "data-\(name)=\""))
      return String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test func aPingIsAnsweredWhileTheMainActorIsBusy() async throws {
      try await application().test(.live) { client in
        let port = try #require(client.port)
        let page = try await client.execute(uri: "/", method: .get)
        let html = String(buffer: page.body)
        let cookie = try #require(page.headers[.setCookie]?.split(separator: ";").first)
        let id = try Self.attribute("session", in: html)
        let secret = try Self.attribute("secret", in: html)
        let token = try Self.attribute("resume", in: html)
        let socket = try RawWebSocket(
          port: port, path: "/ws?session=\(id)", cookie: String(cookie))
        try socket.sendText(#"{"type":"hello","secret":"\#(secret)","token":"\#(token)"}"#)
        let first = try await socket.off { try $0.nextFrame() }
        #expect(first?.opcode == 0x1, "the socket is attached and sent its first render")

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
        try socket.sendFrame(opcode: 0x9, [1, 2, 3, 4])
        let pong = try await socket.off { socket -> [UInt8]? in
          let deadline = ContinuousClock.now + .seconds(3)
          while ContinuousClock.now < deadline {
            guard let frame = try socket.nextFrame() else { continue }
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

    /// Through the server's own connections (which know each request's address): a page
    /// load without an issued cookie past the address's allowance is refused, and a browser
    /// that has its cookie is served.
    @MainActor @Test func aNewBrowserIsIssuedOnlySoOftenFromOneAddress() async throws {
      let app = WebApp(title: "Keys", rootFlow: { KeysFlow() }) { screen in
        Label(screen.destination)
      }
      let registry = WebSessionRegistry(app: app, newClientsPerAddress: 3, appearanceWait: .zero)
      let application = TetherWebServer.makeApplication(
        registry: registry, host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
      try await application.test(.live) { client in
        var cookies: [String] = []
        for _ in 0..<3 {
          let page = try await client.execute(uri: "/", method: .get)
          #expect(page.status == .ok)
          cookies.append(
            String(try #require(page.headers[.setCookie]?.split(separator: ";").first)))
        }
        let refused = try await client.execute(uri: "/", method: .get)
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers[.setCookie] == nil)
        #expect(refused.headers[.retryAfter] == "1200")
        #expect(String(buffer: refused.body).contains("Too many new browsers"))
        let known = try await client.execute(
          uri: "/", method: .get, headers: [.cookie: cookies[0]])
        #expect(known.status == .ok, "a browser the server issued is served")
      }
    }

    @Test func aSocketsMessagesArePacedByDefault() {
      #expect(WebConnectionLimits().messageRate == WebMessageRate())
      #expect(WebMessageRate() == WebMessageRate(burst: 100, perSecond: 50))
    }
  }
#endif
