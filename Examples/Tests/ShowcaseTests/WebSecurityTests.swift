import Foundation
import ShowcaseBrowser
import ShowcaseWeb
import Testing
import TetherTesting
import TetherWeb
import TetherWebHummingbird

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP connection to `127.0.0.1:port` whose reads give up after `timeout` seconds, made from
/// `source` (any `127.x.y.z` is this machine on Linux: a client with an address of its own).
func connectToLoopback(
  port: Int, timeout: Int, from source: String? = nil, receiveBuffer: Int32? = nil
) throws -> Int32 {
  #if canImport(Darwin)
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
  #else
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #endif
  guard descriptor >= 0 else { throw ClusterTestError(description: "no socket") }
  var limit = timeval(tv_sec: timeout, tv_usec: 0)
  setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  // A send into a connection the server stopped reading gives up too, instead of blocking.
  setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  if var receiveBuffer {
    // Before the connection, so the kernel does not grow it (a reader with little room).
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
  }
  if let source {
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      close(descriptor)
      throw ClusterTestError(description: "cannot connect from \(source)")
    }
  }
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
    throw ClusterTestError(description: "no connection to \(port)")
  }
  return descriptor
}

/// An HTTP/1.1 exchange over a plain socket, with any `Host` a client may send (URLSession
/// sets its own): the status line's code, the headers (names lowercased) and the body.
struct RawHTTPResponse {
  var status: Int
  var headers: [String: String]
  var body: String

  static func exchange(port: Int, _ request: String, from source: String? = nil) throws
    -> RawHTTPResponse
  {
    let descriptor = try connectToLoopback(port: port, timeout: 5, from: source)
    defer { close(descriptor) }
    let bytes = Array(request.utf8)
    guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count
    else { throw ClusterTestError(description: "the request was not sent") }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      received += chunk[..<count]
      // An upgrade answered 101 keeps the socket open: its head is the whole answer.
      if String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 101"),
        received.suffix(4) == [13, 10, 13, 10]
      {
        break
      }
    }
    let text = String(decoding: received, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") else {
      throw ClusterTestError(description: "no HTTP answer: \(text.prefix(200))")
    }
    let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
    let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    return RawHTTPResponse(
      status: status ?? 0, headers: headers, body: String(text[end.upperBound...]))
  }

  /// The browser cookie the answer issued (`name=value`, as a `Cookie` header sends it back),
  /// if it set one.
  var cookie: String? {
    headers["set-cookie"].flatMap { $0.split(separator: ";").first.map(String.init) }
  }

  static func get(
    _ path: String, port: Int, host: String? = nil, method: String = "GET",
    from source: String? = nil, headers: String = ""
  ) throws -> RawHTTPResponse {
    try exchange(
      port: port,
      "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\(headers)"
        + "Connection: close\r\n\r\n", from: source)
  }
}

/// The sending side of a ``StalledSocket``: its descriptor, which it does not own.
struct SocketWriter: Sendable {
  let descriptor: Int32

  func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { throw ClusterTestError(description: "send failed") }
      offset += sent
    }
  }

  /// Sends one masked text frame.
  func sendText(_ text: String) throws {
    try sendFrame(opcode: 0x1, Array(text.utf8))
  }

  /// Sends one frame as given: masked or not, final or not, with reserved bits (the high
  /// nibble's low three bits) and any opcode, of a payload under 64 KiB.
  func sendFrame(
    opcode: UInt8, _ payload: [UInt8] = [], fin: Bool = true, masked: Bool = true,
    reservedBits: UInt8 = 0
  ) throws {
    var frame: [UInt8] = [(fin ? 0x80 : 0) | (reservedBits & 0x7) << 4 | (opcode & 0x0F)]
    let maskBit: UInt8 = masked ? 0x80 : 0
    if payload.count < 126 {
      frame.append(maskBit | UInt8(payload.count))
    } else {
      frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    }
    if masked {
      let mask: [UInt8] = [1, 2, 3, 4]
      frame += mask
      frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    } else {
      frame += payload
    }
    try write(frame)
  }
}

/// TetherWebServer's close codes, as a page sees them.
enum TetherWebServerCodes {
  /// The page fell behind: it reconnects for a full redraw.
  static let fellBehind: UInt16 = 4408
}

/// A WebSocket client on a plain socket that reads only when told to: a page that stalls.
final class StalledSocket {
  private let descriptor: Int32
  private var buffer: [UInt8] = []

  /// Opens a socket at `path` as a page of the server would.
  ///
  /// - Parameters:
  ///   - port: The server's port.
  ///   - path: The socket's path and query.
  ///   - cookie: The browser's cookie (`name=value`): the one its page was issued, without
  ///     which the page's token opens nothing.
  ///   - source: The loopback address to connect from (`nil`: 127.0.0.1).
  ///   - receiveBuffer: The socket's receive buffer, set before it connects.
  /// - Throws: `ClusterTestError` when the server does not upgrade.
  init(
    port: Int, path: String, cookie: String? = nil, from source: String? = nil,
    receiveBuffer: Int32? = nil
  ) throws {
    descriptor = try connectToLoopback(
      port: port, timeout: 10, from: source, receiveBuffer: receiveBuffer)
    let cookieLine = cookie.map { "Cookie: \($0)\r\n" } ?? ""
    try write(
      Array(
        ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
          + cookieLine + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8
      ))
    while !String(decoding: buffer, as: UTF8.self).contains("\r\n\r\n") {
      guard try fill() else { throw ClusterTestError(description: "no upgrade") }
    }
    let head = String(decoding: buffer, as: UTF8.self)
    guard head.hasPrefix("HTTP/1.1 101"), let end = head.range(of: "\r\n\r\n") else {
      throw ClusterTestError(description: "refused: \(head.prefix(60))")
    }
    buffer.removeFirst(head.utf8.distance(from: head.startIndex, to: end.upperBound))
  }

  deinit { close(descriptor) }

  private func write(_ bytes: [UInt8]) throws { try writer.write(bytes) }

  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count >= 0 else { throw ClusterTestError(description: "read timed out") }
    buffer += chunk[..<count]
    return count > 0
  }

  /// Its sending side, which another thread may use while this one reads.
  var writer: SocketWriter { SocketWriter(descriptor: descriptor) }

  /// How many bytes the server has sent that wait unread in this socket's receive buffer,
  /// read without taking them.
  func waitingBytes() -> Int {
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    let count = chunk.withUnsafeMutableBytes {
      recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT))
    }
    return max(0, count) + buffer.count
  }

  /// Sends one masked text frame.
  func sendText(_ text: String) throws { try writer.sendText(text) }

  /// Sends one frame as given (``SocketWriter/sendFrame(opcode:_:fin:masked:reservedBits:)``).
  func sendFrame(
    opcode: UInt8, _ payload: [UInt8] = [], fin: Bool = true, masked: Bool = true,
    reservedBits: UInt8 = 0
  ) throws {
    try writer.sendFrame(
      opcode: opcode, payload, fin: fin, masked: masked, reservedBits: reservedBits)
  }

  /// Reads on until the server ends the connection (`true`: its end, or a reset), or nothing
  /// comes for the read timeout (`false`: the connection is still held).
  func readsToEnd() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 { continue }
      return count == 0 || errno == ECONNRESET
    }
  }

  /// Every message until the server closes the socket (or sends nothing for 10 s), and the
  /// close code it gave.
  func readToClose() throws -> (messages: [String], closeCode: Int?) {
    var messages: [String] = []
    while let frame = try? readFrame() {
      if frame.opcode == 0x8 {
        let code =
          frame.payload.count >= 2 ? Int(frame.payload[0]) << 8 | Int(frame.payload[1]) : nil
        return (messages, code)
      }
      if frame.opcode == 0x1 { messages.append(String(decoding: frame.payload, as: UTF8.self)) }
    }
    return (messages, nil)
  }

  /// The code of the close frame the server sent, once it has.
  private(set) var closeCode: Int?

  /// The next text message; `nil` once the server closes the socket.
  func next() throws -> String? {
    while let frame = try readFrame() {
      if frame.opcode == 0x8 {
        let payload = frame.payload
        closeCode = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
        return nil
      }
      if frame.opcode == 0x1 { return String(decoding: frame.payload, as: UTF8.self) }
    }
    return nil
  }

  /// The next frame, or `nil` at the end of the stream.
  private func readFrame() throws -> (opcode: UInt8, payload: [UInt8])? {
    while buffer.count < 2 { guard try fill() else { return nil } }
    var length = Int(buffer[1] & 0x7F)
    var start = 2
    if length == 126 {
      while buffer.count < 4 { guard try fill() else { return nil } }
      length = Int(buffer[2]) << 8 | Int(buffer[3])
      start = 4
    } else if length == 127 {
      while buffer.count < 10 { guard try fill() else { return nil } }
      length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
      start = 10
    }
    while buffer.count < start + length { guard try fill() else { return nil } }
    let frame = (buffer[0] & 0x0F, Array(buffer[start..<(start + length)]))
    buffer.removeFirst(start + length)
    return frame
  }
}

/// What `showcase --web` (TetherWebServer's defaults) does against one attacker on loopback.
/// Each test was written before the fix it checks, and failed on the code before it.
extension EndToEnd {
  // Inside EndToEnd: its suites run one at a time, so these servers and browsers never run
  // beside the other end-to-end tests' (FoundationNetworking's URLSession once deadlocked
  // cancelling a request while several suites ran at once).
  @Suite(.serialized) struct WebSecurityTests {
    @Test func pagesAndAssetsCarryStrictHeaders() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      for path in ["/", "/gallery", "/tether.js", "/tether.css", "/no-such-screen"] {
        let response = try RawHTTPResponse.get(path, port: showcase.port)
        let headers = response.headers
        #expect(headers["x-content-type-options"] == "nosniff", "\(path)")
        #expect(headers["x-frame-options"] == "DENY", "\(path)")
        #expect(headers["referrer-policy"] == "no-referrer", "\(path)")
        let policy = headers["content-security-policy"] ?? ""
        #expect(
          policy.contains("script-src 'self' \(WebAssets.scriptSourceHash);"), "\(path): \(policy)")
        #expect(policy.contains("frame-ancestors 'none'"), "\(path): \(policy)")
        #expect(!policy.contains("unsafe-eval"), "\(path): \(policy)")
        #expect(
          !(policy.split(separator: ";").first { $0.contains("script-src") }?
            .contains("unsafe-inline") ?? true), "\(path): no inline script")
      }
    }

    @Test func aPageWorksUnderItsPolicy() async throws {
      let showcase = try await WebShowcase()
      let browser = try await Browser()
      do {
        // A violation of the policy fires this event; the page must draw and react with none.
        try await browser.open(showcase.url + "/courses")
        try await browser.run(
          """
          window.violations = [];
          document.addEventListener('securitypolicyviolation',
            (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));
          """)
        try await browser.waitUntil("the courses") { try await browser.count("#screen .row") > 3 }
        try await browser.press("\u{E015}\u{E007}")
        try await browser.waitUntil("a course opened") {
          try await browser.run("return location.pathname;") as? String != "/courses"
        }
        let violations = try await browser.run("return window.violations;") as? [String] ?? ["?"]
        #expect(violations.isEmpty, "\(violations)")
      } catch {
        await browser.quit()
        showcase.process.terminate()
        throw error
      }
      await browser.quit()
      showcase.process.terminate()
    }

    @Test func aRebindingHostIsRefusedAndMakesNoSession() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let port = showcase.port
      let before = try Self.stats(port: port)
      let page = try RawHTTPResponse.get("/", port: port, host: "attacker.example:\(port)")
      #expect(page.status == 421, "a page for another host: \(page.status)")
      let upgrade = try RawHTTPResponse.exchange(
        port: port,
        "GET /ws?session=x HTTP/1.1\r\nHost: attacker.example:\(port)\r\n"
          + "Origin: http://attacker.example:\(port)\r\nUpgrade: websocket\r\n"
          + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          + "Sec-WebSocket-Version: 13\r\n\r\n")
      #expect(upgrade.status != 101, "a socket for another host")
      let after = try Self.stats(port: port)
      #expect(after.sessions == before.sessions, "no session was made for it")
      // The names a browser on this machine uses still work.
      for host in ["127.0.0.1:\(port)", "localhost:\(port)"] {
        #expect(try RawHTTPResponse.get("/health", port: port, host: host).status == 200, "\(host)")
      }
    }

    @Test func clientTextIsEscapedInTheLogAndAFloodIsNotLoggedWhole() async throws {
      // The log under test: the flood's 2,002 refusals are made as fast as it comes (the
      // default pace, 50 a second, would spread them over 40 s).
      let showcase = try await WebShowcase(arguments: ["--messages-per-second", "0"])
      let browser = try await Browser()
      do {
        try await browser.open(showcase.url + "/")
        try await browser.waitUntil("the home menu") { try await browser.count("#screen .row") > 0 }
        // A second socket to the page's own session, as a script on the page could open (it
        // can read the page's secret): one message forging a log line, then a flood of refused
        // ones.
        let sent =
          try await browser.runAsync(
            """
            const done = arguments[arguments.length - 1];
            const script = document.querySelector('script[data-session]');
            const id = script.dataset.session;
            const socket = new WebSocket(`ws://${location.host}/ws?session=${id}`);
            socket.onopen = () => {
              socket.send(JSON.stringify({ type: 'hello', secret: script.dataset.secret }));
              socket.send(JSON.stringify({ type: 'x\\nFORGED: admin logged in', id: 'a' }));
              for (let i = 0; i < 2000; i++) socket.send(JSON.stringify({ type: 'click', id: 'nothing-' + i }));
              socket.send(JSON.stringify({ type: 'click', id: 'last' }));
              setTimeout(() => { socket.close(); done(true); }, 1500);
            };
            socket.onerror = () => done(false);
            """) as? Bool
        #expect(sent == true)
        try await browser.waitUntil("the socket's end logged", seconds: 10) {
          showcase.log.contains("not logged")
        }
        let lines = showcase.log.split(separator: "\n")
        #expect(
          !lines.contains { $0.hasPrefix("FORGED") }, "a client's newline began a line of its own")
        #expect(showcase.log.contains(#"x\nFORGED"#), "the newline is written escaped")
        let refusals = lines.filter { $0.contains("refused a message") }.count
        #expect(refusals <= 20, "\(refusals) lines for one socket's 2,002 refused messages")
        #expect(lines.contains { $0.contains("2002 refused messages") }, "and then counted")
      } catch {
        await browser.quit()
        showcase.process.terminate()
        throw error
      }
      await browser.quit()
      showcase.process.terminate()
    }

    @Test func statsAreServedOnlyWhenAsked() async throws {
      let plain = try await WebShowcase(
        product: "showcase", arguments: ["--web", "--port", "0", "--data", freshDataFolder()])
      defer { plain.process.terminate() }
      let refused = try RawHTTPResponse.get("/stats", port: plain.port)
      #expect(refused.status == 404, "how busy the server is is nobody's business by default")
      #expect(!refused.body.contains("heapBytes"))
      let asked = try await WebShowcase(
        product: "showcase",
        arguments: ["--web", "--port", "0", "--data", freshDataFolder(), "--stats"])
      defer { asked.process.terminate() }
      let answered = try RawHTTPResponse.get("/stats", port: asked.port)
      #expect(answered.status == 200)
      #expect(answered.body.contains("heapBytes"))
    }

    @Test func headAnswersLikeGetWithNoBodyAndNoSession() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let before = try Self.stats(port: showcase.port)
      for (path, type) in [
        ("/", "text/html"), ("/gallery", "text/html"), ("/tether.js", "text/javascript"),
        ("/tether.css", "text/css"), ("/health", nil),
      ] as [(String, String?)] {
        let response = try RawHTTPResponse.get(path, port: showcase.port, method: "HEAD")
        #expect(response.status == 200, "HEAD \(path): \(response.status)")
        #expect(response.body.isEmpty, "HEAD \(path) has no body")
        if let type {
          #expect(response.headers["content-type"]?.hasPrefix(type) == true, "HEAD \(path)")
        }
        #expect(response.headers["x-content-type-options"] == "nosniff", "HEAD \(path)")
      }
      let after = try Self.stats(port: showcase.port)
      #expect(after.sessions == before.sessions, "a HEAD makes no session")
    }

    @Test func aSocketWithTheSessionsIDAloneGetsNothingAndTheOwnerKeepsItsPage() async throws {
      let showcase = try await WebShowcase()
      let owner = try await Browser()
      let attacker = try await Browser()
      do {
        try await owner.open(showcase.url + "/courses")
        try await owner.waitUntil("the courses") { try await owner.count("#screen .row") > 3 }
        let id = try #require(
          try await owner.run(
            "return document.querySelector('script[data-session]').dataset.session;")
            as? String)
        // The id alone, as a proxy's log shows it: a socket of another browser, asking for the
        // whole app, then driving the session.
        try await attacker.open(showcase.url + "/health")
        let result =
          try await attacker.runAsync(
            """
            const done = arguments[arguments.length - 1];
            const socket = new WebSocket(`ws://${location.host}/ws?session=\(id)&resync=1`);
            const received = [];
            socket.onopen = () => {
              socket.send(JSON.stringify({ type: 'key', key: 'ArrowDown' }));
              socket.send(JSON.stringify({ type: 'key', key: 'Enter' }));
            };
            socket.onmessage = (event) => received.push(event.data.length);
            socket.onclose = (event) => done({ code: event.code, received: received.length });
            setTimeout(() => done({ code: -1, received: received.length }), 8000);
            """) as? [String: Any] ?? [:]
        #expect(result["received"] as? Int == 0, "the attacker was sent nothing: \(result)")
        #expect(result["code"] as? Int == 4403, "and its socket was closed: \(result)")
        // The owner's page was not moved by the attacker's keys, and still answers its own.
        #expect(try await owner.run("return location.pathname;") as? String == "/courses")
        try await owner.press("\u{E015}\u{E007}")
        try await owner.waitUntil("the owner's own Enter") {
          try await owner.run("return location.pathname;") as? String != "/courses"
        }
      } catch {
        await owner.quit()
        await attacker.quit()
        showcase.process.terminate()
        throw error
      }
      await owner.quit()
      await attacker.quit()
      showcase.process.terminate()
    }

    @Test func aStalledReaderMissesNothingSilentlyAndEndsMatchingTheServer() async throws {
      // The sending side under test: the socket's messages are handled as fast as they come
      // (the default pace, 50 a second, would take minutes over this flood).
      let showcase = try await WebShowcase(arguments: ["--messages-per-second", "0"])
      defer { showcase.process.terminate() }
      let page = try RawHTTPResponse.get("/", port: showcase.port)
      let id = try #require(Self.attribute("data-session", in: page.body))
      let secret = try #require(Self.attribute("data-secret", in: page.body))
      let token = try #require(Self.attribute("data-resume", in: page.body))
      let hello = #"{"type":"hello","secret":"\#(secret)","token":"\#(token)"}"#
      let stalled = try StalledSocket(
        port: showcase.port, path: "/ws?session=\(id)", cookie: page.cookie)
      try stalled.sendText(hello)
      // 2,000 screens asked for while nothing is read; the last one is "/".
      for number in 0..<2_000 {
        try stalled.sendText(
          #"{"type":"navigate","path":"\#(number % 2 == 0 ? "/gallery" : "/")"}"#)
      }
      try await Task.sleep(for: .seconds(2))
      let (messages, code) = try stalled.readToClose()
      // Every message it got is numbered, with no gap: none was dropped silently. Either it got
      // them all, the last one showing "/", or it was told it fell behind (4408).
      let numbers = messages.compactMap { Self.number(in: $0) }
      #expect(numbers.count == messages.count, "every message numbered")
      #expect(numbers == Array(1...max(1, numbers.count)).prefix(numbers.count).map { $0 })
      let lastPath = messages.last { $0.contains(#""path":""#) }
      #expect(
        code == Int(TetherWebServerCodes.fellBehind) || lastPath?.contains(#""path":"/""#) == true,
        "\(messages.count) messages, close \(String(describing: code))")
      // A page that reconnects for a full redraw is shown what the server shows, and goes on.
      let fresh = try StalledSocket(
        port: showcase.port, path: "/ws?session=\(id)&resync=1", cookie: page.cookie)
      try fresh.sendText(hello)
      let redraw = try #require(try fresh.next())
      #expect(
        redraw.hasPrefix(#"{"n":1,"#) && redraw.contains(#""path":"/""#), "\(redraw.prefix(120))")
      try fresh.sendText(#"{"type":"navigate","path":"/courses"}"#)
      var reached = false
      while let message = try fresh.next() {
        if message.contains(#""path":"/courses""#) {
          reached = true
          break
        }
      }
      #expect(reached, "in step with the server")
    }

    /// An idle page socket holds no task: the socket is served on the event loop, and what it
    /// keeps while idle is its channel, its handler and queues, and one timer. Measured on the
    /// same 200 sessions twice, so a session's own heap cancels out: held with their sockets
    /// closed, then with a socket each reconnected and idle. A socket that held a task again (a
    /// handler awaiting its next message keeps its deepest async frames, about 20 KB with
    /// Hummingbird's WebSocket route) would be over the bound.
    @Test func anIdleSocketHoldsNoTask() async throws {
      let showcase = try await WebShowcase(arguments: ["--session-grace", "300"])
      defer { showcase.process.terminate() }
      let port = showcase.port
      struct Page {
        let id: String
        let hello: String
        let cookie: String?
        let source: String
      }
      func load(_ count: Int, subnet: Int) throws -> [Page] {
        try (0..<count).map { index in
          let source = "127.0.\(subnet).\(2 + index)"
          let page = try RawHTTPResponse.get("/", port: port, from: source)
          let id = try #require(Self.attribute("data-session", in: page.body))
          let secret = try #require(Self.attribute("data-secret", in: page.body))
          let token = try #require(Self.attribute("data-resume", in: page.body))
          return Page(
            id: id, hello: #"{"type":"hello","secret":"\#(secret)","token":"\#(token)"}"#,
            cookie: page.cookie, source: source)
        }
      }
      /// Each page's socket, attached: the session has sent it the app.
      func connect(_ pages: [Page]) throws -> [StalledSocket] {
        try pages.map { page in
          let socket = try StalledSocket(
            port: port, path: "/ws?session=\(page.id)&resync=1", cookie: page.cookie,
            from: page.source)
          try socket.sendText(page.hello)
          #expect(try socket.next() != nil, "the socket is sent the app")
          return socket
        }
      }
      // A warm-up: the first sockets fill pools the server keeps, which are no socket's cost.
      var sockets = try connect(try load(50, subnet: 5))
      sockets.removeAll()
      let pages = try load(200, subnet: 6)
      sockets = try connect(pages)
      try await Self.waitForConnected(port: port, 200)
      sockets.removeAll()
      try await Self.waitForConnected(port: port, 0)
      let held = try Self.stats(port: port)
      sockets = try connect(pages)
      try await Self.waitForConnected(port: port, 200)
      let connected = try Self.stats(port: port)
      #expect(connected.sessions == held.sessions, "the same sessions, resumed")
      let perSocket = ((connected.heapBytes ?? 0) - (held.heapBytes ?? 0)) / pages.count
      print("figure: heap per idle page socket (its session's own excluded): \(perSocket) B")
      #expect(perSocket < 10_000, "an idle socket costs \(perSocket) B: does it hold a task again?")
      withExtendedLifetime(sockets) {}
    }

    /// Finding 4, the server's side: a reader that stops reading, with a small receive buffer
    /// (so the kernel does not take what the server sends), costs the server a bounded heap.
    /// The socket's writer waits while the connection cannot take more (SwiftNIO's
    /// writability), at most 256 messages wait for it, and one more closes the socket with
    /// 4408; what the kernel buffers is bounded by its send buffer.
    @Test func aStalledReaderCostsTheServerABoundedHeap() async throws {
      // The sending side under test: the socket's messages are handled as fast as they come
      // (the default pace, 50 a second, would take minutes over this flood).
      let showcase = try await WebShowcase(arguments: ["--messages-per-second", "0"])
      defer { showcase.process.terminate() }
      let page = try RawHTTPResponse.get("/", port: showcase.port)
      let id = try #require(Self.attribute("data-session", in: page.body))
      let secret = try #require(Self.attribute("data-secret", in: page.body))
      let token = try #require(Self.attribute("data-resume", in: page.body))
      _ = try Self.stats(port: showcase.port)
      let before = try Self.stats(port: showcase.port).heapBytes ?? 0
      let stalled = try StalledSocket(
        port: showcase.port, path: "/ws?session=\(id)", cookie: page.cookie, receiveBuffer: 4_096)
      try stalled.sendText(#"{"type":"hello","secret":"\#(secret)","token":"\#(token)"}"#)
      for number in 0..<8_000 {
        try stalled.sendText(
          #"{"type":"navigate","path":"\#(number % 2 == 0 ? "/gallery" : "/")"}"#)
      }
      var highest = 0
      for _ in 0..<6 {
        try await Task.sleep(for: .seconds(1))
        highest = max(highest, (try Self.stats(port: showcase.port).heapBytes ?? 0) - before)
      }
      print(
        "figure: a stalled reader of 8,000 screens: the server's heap at most +\(highest / 1024) KB"
      )
      #expect(highest < 4 << 20, "the server's heap grew \(highest / 1024) KB for one reader")
      let (messages, code) = try stalled.readToClose()
      #expect(
        code == Int(TetherWebServerCodes.fellBehind),
        "\(messages.count) messages, close \(String(describing: code))")
    }

    /// Finding 6: memory stays behind for each socket the server closes, and it is
    /// Hummingbird's: the showcase keeps no more per closed socket than `hummingbird-ws-close`,
    /// a Hummingbird app whose one WebSocket route reads a message and closes the socket (the
    /// reproduction to report upstream). Both are measured over the same 3,000 server-closed
    /// sockets, one to each in turn after 500 to warm up, so time passes alike for both.
    ///
    /// `hummingbird-ws-close` is the tools package's (../Tools), built into this package's build
    /// folder by `swift build --package-path Examples --product hummingbird-ws-close`, as CI
    /// does; without it the test is skipped, except in CI, where it must run.
    @Test(
      .enabled(
        if: builtProduct(named: "hummingbird-ws-close") != nil
          || ProcessInfo.processInfo.environment["CI"] != nil,
        "build Hummingbird alone first: swift build --package-path Examples --product hummingbird-ws-close"
      ))
    func aServerClosedSocketLeavesNoMoreThanHummingbirdAlone() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let bare = try await WebShowcase(product: "hummingbird-ws-close")
      defer { bare.process.terminate() }
      // Each reads the page's hello first; the showcase closes it (4404: no such session),
      // the bare app closes every socket once it has read one message.
      let hello = #"{"type":"hello","secret":"00000000000000000000000000000000"}"#
      let targets: [(port: Int, path: String)] = [
        (showcase.port, "/ws?session=none"), (bare.port, "/ws-read"),
      ]
      let heaps: [() throws -> Int] = [
        { try Self.stats(port: showcase.port).heapBytes ?? 0 },
        { Int(try RawHTTPResponse.get("/heap", port: bare.port).body) ?? 0 },
      ]
      let count = 3_000
      var before: [Int] = []
      for index in 0..<(500 + count) {
        if index == 500 {
          try await Task.sleep(for: .seconds(1))
          before = try heaps.map { try $0() }
        }
        for target in targets {
          let socket = try StalledSocket(port: target.port, path: target.path)
          try socket.sendText(hello)
          let (_, code) = try socket.readToClose()
          try #require(
            code == 4404, "socket \(index) to \(target.path): \(String(describing: code))")
        }
      }
      try await Task.sleep(for: .seconds(2))
      let after = try heaps.map { try $0() }
      let showcasePerSocket = (after[0] - before[0]) / count
      let barePerSocket = (after[1] - before[1]) / count
      print(
        "figure: heap left per server-closed socket, 2 s after the last: showcase \(showcasePerSocket) B, Hummingbird alone \(barePerSocket) B"
      )
      // Hummingbird's share shrinks as its sockets' last timers end (by hand: about 2.2 KB
      // after 2 s, 1.2 KB after 20 s, for both alike). The showcase's own is small and does not
      // grow with the sockets: 67 to 175 B more than Hummingbird alone in nine runs on
      // 2026-11-27 (of this code and of 956fa93's), so the bound leaves room for that spread.
      #expect(
        showcasePerSocket <= barePerSocket + 300,
        "the showcase keeps \(showcasePerSocket) B per closed socket, Hummingbird alone \(barePerSocket) B"
      )
      #expect(try Self.stats(port: showcase.port).sessions == 0)
    }

    /// Finding 1: 220 idle connections from four addresses and 20 that send a request head a
    /// line a second, against a server whose descriptor limit is 200. It used to die (SIGILL)
    /// within seconds; now it refuses what it cannot hold with 503, closes every connection
    /// that has not sent a whole request head within the header timeout (10 s), and serves
    /// the next visitor.
    /// A browser opens a connection ahead of a request it may never make; on SIGTERM the
    /// server closes it at once instead of waiting for its header deadline.
    @Test func aConnectionThatSentNothingDoesNotHoldTheShutdown() async throws {
      let showcase = try await WebShowcase()
      let idle = try connectToLoopback(port: showcase.port, timeout: 1)
      defer { close(idle) }
      // Served once, so the server is past starting up when it is told to stop.
      _ = try RawHTTPResponse.get("/health", port: showcase.port)
      let stopping = ContinuousClock.now
      showcase.process.terminate()
      // The positive signal: the server closes the idle connection (end of file on it).
      let (ended, _) = Self.ended([idle], waiting: 1_500)
      let took = ContinuousClock.now - stopping
      #expect(ended == [idle], "the idle connection was still open \(took) after SIGTERM")
      showcase.process.waitUntilExit()
      #expect(showcase.process.terminationStatus == 0)
    }

    @Test func idleAndSlowConnectionsNeitherExhaustDescriptorsNorStayOpen() async throws {
      let showcase = try await WebShowcase(descriptorLimit: 200)
      defer { showcase.process.terminate() }
      let started = ContinuousClock.now
      var open: [Int32] = []
      defer { open.forEach { close($0) } }
      for index in 0..<220 {
        open.append(
          try connectToLoopback(port: showcase.port, timeout: 1, from: "127.0.0.\(2 + index % 4)"))
      }
      var slow: [Int32] = []
      for _ in 0..<20 {
        let descriptor = try connectToLoopback(port: showcase.port, timeout: 1, from: "127.0.0.6")
        slow.append(descriptor)
        open.append(descriptor)
        _ = Self.write("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(showcase.port)\r\n", to: descriptor)
      }
      var closed = Set<Int32>()
      var refusals = 0
      var lastTrickle = ContinuousClock.now
      var checkedAlive = false
      var visitorDuring: RawHTTPResponse?
      while closed.count < open.count, ContinuousClock.now - started < .seconds(16) {
        if ContinuousClock.now - lastTrickle >= .seconds(1) {
          lastTrickle = .now
          for descriptor in slow where !closed.contains(descriptor) {
            _ = Self.write("X-Slow: \(Int.random(in: 0..<100))\r\n", to: descriptor)
          }
        }
        let (ended, refused) = Self.ended(open.filter { !closed.contains($0) }, waiting: 200)
        closed.formUnion(ended)
        refusals += refused
        if !checkedAlive, ContinuousClock.now - started > .seconds(3) {
          checkedAlive = true
          #expect(showcase.process.isRunning, "alive with 240 connections at a limit of 200")
          guard showcase.process.isRunning else { return }
          // A visitor now is answered at once: served, or refused cleanly while it is full.
          visitorDuring = try? RawHTTPResponse.get("/", port: showcase.port)
        }
      }
      #expect(showcase.process.isRunning, "still alive")
      #expect(
        closed.count == open.count,
        "\(open.count - closed.count) of \(open.count) still open after \(ContinuousClock.now - started)"
      )
      #expect(refusals > 0, "connections beyond what it can hold are refused with 503")
      let during = try #require(visitorDuring, "the visitor during the attack had no answer")
      #expect([200, 503].contains(during.status), "\(during.status)")
      if during.status == 503 { #expect(during.headers["retry-after"] != nil) }
      let after = try RawHTTPResponse.get("/", port: showcase.port)
      #expect(after.status == 200, "the next visitor is served")
      #expect(after.body.contains("data-session"))
    }

    /// Per-client limits: with `--connections-per-address 16`, one address's 40 idle
    /// connections get 16 held and 24 refused with 503 at once, and a visitor from another
    /// address is served at once, not after the header timeout.
    @Test func oneAddressCannotTakeEveryConnection() async throws {
      let showcase = try await WebShowcase(arguments: ["--connections-per-address", "16"])
      defer { showcase.process.terminate() }
      var open: [Int32] = []
      defer { open.forEach { close($0) } }
      for _ in 0..<40 {
        open.append(try connectToLoopback(port: showcase.port, timeout: 1, from: "127.0.0.7"))
      }
      var refused = 0
      var closed = Set<Int32>()
      let started = ContinuousClock.now
      while closed.count < 24, ContinuousClock.now - started < .seconds(5) {
        let (ended, answered) = Self.ended(open.filter { !closed.contains($0) }, waiting: 200)
        closed.formUnion(ended)
        refused += answered
      }
      #expect(closed.count == 24, "24 of 40 closed at once, not \(closed.count)")
      #expect(refused == 24, "each answered 503 first")
      let visitor = try RawHTTPResponse.get("/", port: showcase.port)
      #expect(visitor.status == 200)
      #expect(ContinuousClock.now - started < .seconds(8), "served before the header timeout")
    }

    /// Finding 5: the page's first token, replayed on the node that holds the live session,
    /// rolled it back to its first screen. Now the session stays where it is, and the socket
    /// that replayed it is shown the session as it is.
    @Test func aReplayedOlderTokenDoesNotRollTheSessionBack() async throws {
      let key = (0..<32).map { String(format: "%02x", ($0 * 37 + 11) % 256) }.joined()
      let showcase = try await WebShowcase(arguments: ["--resume-key", key])
      defer { showcase.process.terminate() }
      let page = try RawHTTPResponse.get("/", port: showcase.port)
      let id = try #require(Self.attribute("data-session", in: page.body))
      let secret = try #require(Self.attribute("data-secret", in: page.body))
      let first = try #require(Self.attribute("data-resume", in: page.body))
      let owner = try StalledSocket(
        port: showcase.port, path: "/ws?session=\(id)", cookie: page.cookie)
      try owner.sendText(#"{"type":"hello","secret":"\#(secret)","token":"\#(first)"}"#)
      try owner.sendText(#"{"type":"navigate","path":"/courses"}"#)
      var atCourses = false
      while !atCourses, let message = try owner.next() {
        atCourses = message.contains(#""path":"/courses""#)
      }
      try #require(atCourses, "the page moved on to /courses")
      let replay = try StalledSocket(
        port: showcase.port, path: "/ws?session=\(id)&resync=1", cookie: page.cookie)
      try replay.sendText(#"{"type":"hello","secret":"\#(secret)","token":"\#(first)"}"#)
      let shown = try #require(try replay.next(), "the replaying socket is answered")
      #expect(shown.contains(#""path":"/courses""#), "not rolled back: \(shown.prefix(160))")
      #expect(!shown.contains(#""path":"/""#))
      #expect(showcase.log.contains("a token older than the session"))
    }

    /// Finding 2: 520 page loads from one address that never connect a socket used to fill
    /// every session slot (500), and every later visitor got 503 for the 10 s an unclaimed
    /// page lives. Now a page holds no session once answered (its socket rebuilds it from the
    /// token it carries); one address may have at most 20 pages being drawn at once (429
    /// beyond); a header naming another address changes nothing (only a trusted proxy's is
    /// believed).
    @Test func aGetFloodFromOneAddressLeavesRoomForOtherVisitors() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      var statuses: [Int: Int] = [:]
      for index in 0..<520 {
        let forged = "X-Forwarded-For: 10.1.\(index / 250).\(index % 250)\r\n"
        let answer = try RawHTTPResponse.get(
          "/", port: showcase.port, from: "127.0.0.9", headers: forged)
        statuses[answer.status, default: 0] += 1
      }
      #expect(statuses[200, default: 0] + statuses[429, default: 0] == 520, "\(statuses)")
      let visitor = try RawHTTPResponse.get("/", port: showcase.port)
      #expect(visitor.status == 200, "a visitor from another address is served")
      let stats = try Self.stats(port: showcase.port)
      #expect(stats.sessions == 0, "\(stats.sessions) sessions held for pages with no socket")
    }

    /// Finding 2, from many addresses: a page load held a whole session for 10 s waiting for
    /// its socket, so 520 loads from 520 addresses (each within its own budget) still took
    /// every slot and the next visitor got 503. Now a page costs nothing once answered: no
    /// session is held, the visitor is served, and its socket rebuilds its session.
    @Test func aGetFloodFromManyAddressesHoldsNoSession() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      var statuses: [Int: Int] = [:]
      for index in 0..<520 {
        let answer = try RawHTTPResponse.get(
          "/", port: showcase.port, from: "127.0.\(10 + index / 200).\(1 + index % 200)")
        statuses[answer.status, default: 0] += 1
      }
      #expect(statuses[200] == 520, "\(statuses)")
      let stats = try Self.stats(port: showcase.port)
      #expect(stats.sessions == 0, "\(stats.sessions) sessions held for pages with no socket")
      #expect(stats.liveViewModels == 0, "\(stats.liveViewModels) view models kept")
      let visitor = try RawHTTPResponse.get("/", port: showcase.port)
      try #require(visitor.status == 200, "the next visitor is served, not \(visitor.status)")
      // The visitor's socket rebuilds its session from the page and is sent the app.
      let id = try #require(Self.attribute("data-session", in: visitor.body))
      let secret = try #require(Self.attribute("data-secret", in: visitor.body))
      let token = try #require(Self.attribute("data-resume", in: visitor.body))
      let socket = try StalledSocket(
        port: showcase.port, path: "/ws?session=\(id)", cookie: visitor.cookie)
      try socket.sendText(#"{"type":"hello","secret":"\#(secret)","token":"\#(token)"}"#)
      let shown = try #require(try socket.next(), "the visitor's socket is answered")
      #expect(shown.contains("Courses"), "\(shown.prefix(200))")
      #expect(try Self.stats(port: showcase.port).sessions == 1)
    }

    /// A weak resume key stops the server at start with one line, before it serves anything.
    @Test func aWeakResumeKeyIsRefusedAtStartWithOneLine() async throws {
      let binary = try #require(builtProduct(named: "showcase"))
      for (key, expected) in [
        ("0123456789abcdef", "the resume key has 8 bytes; it needs 32 random bytes"),
        (String(repeating: "k", count: 40), "the resume key has 30 bytes"),
        ("a passphrase, not a key!", "the resume key is neither hex nor base64"),
      ] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--web", "--port", "0", "--resume-key", key]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(
          decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("Error:") }
        #expect(lines.count == 1 && lines[0].contains(expected), "\(text)")
      }
    }

    private static func write(_ text: String, to descriptor: Int32) -> Bool {
      let bytes = Array(text.utf8)
      #if canImport(Darwin)
        let flags: Int32 = 0
      #else
        let flags = Int32(MSG_NOSIGNAL)
      #endif
      return bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
        == bytes.count
    }

    /// Which of `descriptors` the server has closed (end of stream or reset), waiting up to
    /// `waiting` ms for any to become readable, and how many of those were answered 503 first.
    private static func ended(_ descriptors: [Int32], waiting: Int32) -> (Set<Int32>, Int) {
      var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&polled, nfds_t(polled.count), waiting) > 0 else { return ([], 0) }
      var ended = Set<Int32>()
      var refused = 0
      var buffer = [UInt8](repeating: 0, count: 4_096)
      for entry in polled where entry.revents != 0 {
        var answer: [UInt8] = []
        while true {
          let count = buffer.withUnsafeMutableBytes {
            recv(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
          }
          if count > 0 {
            answer += buffer[..<count]
            continue
          }
          if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { ended.insert(entry.fd) }
          break
        }
        if String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 503") { refused += 1 }
      }
      return (ended, refused)
    }

    /// `/stats` over a plain socket (no URLSession).
    /// Returns once `count` pages are connected to the server at `port` (30 s at most).
    static func waitForConnected(port: Int, _ count: Int) async throws {
      await expectEventually(timeout: .seconds(30), "\(count) sockets connected") {
        (try? stats(port: port).connected) == count
      }
      let connected = try stats(port: port).connected
      try #require(connected == count)
    }

    static func stats(port: Int) throws -> WebServerStats {
      try WebServerStats(json: RawHTTPResponse.get("/stats", port: port).body)
    }

    static func attribute(_ name: String, in html: String) -> String? {
      guard let start = html.range(of: "\(name)=\"") else { return nil }
      let rest = html[start.upperBound...]
      return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    static func number(in message: String) -> Int? {
      guard message.hasPrefix(#"{"n":"#) else { return nil }
      return Int(message.dropFirst(5).prefix { $0.isNumber })
    }
  }
}
