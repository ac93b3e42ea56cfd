import Foundation
import Synchronization
import Testing
import TetherTesting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value threads share.
final class Shared<Value: Sendable>: Sendable {
  private let state: Mutex<Value>
  init(_ value: Value) { state = Mutex(value) }
  var value: Value { state.withLock { $0 } }
  func set(_ value: Value) { state.withLock { $0 = value } }
}

/// The third attack run against `showcase --web` (TetherWebServer's defaults), on loopback,
/// every loop bounded in count and time. Each test was written before the fix it checks, and
/// failed on the code before it.
extension EndToEnd {
  @Suite(.serialized) struct WebSecurityRoundThreeTests {
    typealias Checks = WebSecurityTests

    /// A page's session as a raw client holds it: its socket's path, its hello, its cookie.
    struct Page {
      let id: String
      let hello: String
      let cookie: String?

      /// The page's HTML.
      let body: String

      init(
        port: Int, path: String = "/", from source: String? = nil, cookie: String? = nil
      ) throws {
        let page = try RawHTTPResponse.get(
          path, port: port, from: source, headers: cookie.map { "Cookie: \($0)\r\n" } ?? "")
        id = try #require(Checks.attribute("data-session", in: page.body))
        let secret = try #require(Checks.attribute("data-secret", in: page.body))
        let token = try #require(Checks.attribute("data-resume", in: page.body))
        hello = #"{"type":"hello","secret":"\#(secret)","token":"\#(token)"}"#
        self.cookie = cookie ?? page.cookie
        body = page.body
      }

      /// The page's socket, attached: it said hello and was sent the app.
      func attach(
        port: Int, from source: String? = nil, receiveBuffer: Int32? = nil
      ) throws -> StalledSocket {
        let socket = try StalledSocket(
          port: port, path: "/ws?session=\(id)&resync=1", cookie: cookie, from: source,
          receiveBuffer: receiveBuffer)
        try socket.sendText(hello)
        return socket
      }
    }

    /// What a connection that sent `request` got: the answer's status (0 for none) and
    /// whether the server then ended the connection, within `timeout` seconds.
    static func answer(port: Int, _ request: [UInt8], timeout: Int = 5) throws -> (
      status: Int, ended: Bool
    ) {
      let descriptor = try connectToLoopback(port: port, timeout: timeout)
      defer { close(descriptor) }
      _ = request.withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      var received: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 16_384)
      var ended = false
      while true {
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
          received += chunk[..<count]
          continue
        }
        ended = count == 0 || errno == ECONNRESET
        break
      }
      let text = String(decoding: received, as: UTF8.self)
      let status =
        text.hasPrefix("HTTP/1.1 ")
        ? Int(text.dropFirst(9).prefix(3)) ?? 0 : 0
      return (status, ended)
    }

    // MARK: Finding 1: a malformed head held its connection forever

    @Test func aMalformedRequestHeadIsAnswered400AndClosed() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let port = showcase.port
      let heads: [String] = [
        "GARBAGE\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Note: a\u{0}b\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 5\r\n"
          + "Transfer-Encoding: chunked\r\n\r\n",
      ]
      for head in heads {
        let (status, ended) = try Self.answer(port: port, Array(head.utf8))
        #expect(status == 400, "\(head.debugDescription): \(status)")
        #expect(ended, "\(head.debugDescription): the connection is closed")
      }
    }

    @Test func anHTTP11RequestWithoutHostIsRefused() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let (status, _) = try Self.answer(
        port: showcase.port, Array("GET / HTTP/1.1\r\nConnection: close\r\n\r\n".utf8))
      #expect(status == 400)
      // HTTP/1.0 may omit it, as a load balancer's health check does.
      let (check, _) = try Self.answer(
        port: showcase.port, Array("GET /health HTTP/1.0\r\n\r\n".utf8))
      #expect(check == 200)
    }

    // MARK: Finding 2: frames that are not gestures were never metered

    @Test(arguments: [
      "ping", "pong", "text", "binary", "upload chunks of no file", "ping before the hello",
    ])
    func aFloodOfFramesThatAreNotMessagesIsClosed(kind: String) async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let page = try Page(port: showcase.port)
      let socket: StalledSocket
      if kind == "ping before the hello" {
        socket = try StalledSocket(
          port: showcase.port, path: "/ws?session=\(page.id)", cookie: page.cookie)
      } else {
        socket = try page.attach(port: showcase.port)
        #expect(try socket.next() != nil, "the page is sent the app")
      }
      // Never read while flooding: a server that answers every ping piles its pongs up.
      var sent = 0
      for _ in 0..<20_000 {
        do {
          switch kind {
          case "pong": try socket.sendFrame(opcode: 0xA)
          case "text": try socket.sendText("x")
          case "binary": try socket.sendFrame(opcode: 0x2, [1, 2, 3])
          // Whole chunks (a reference, then 16,380 bytes) for a file the session never took.
          case "upload chunks of no file":
            try socket.sendFrame(opcode: 0x2, [0, 0, 0, 9] + [UInt8](repeating: 1, count: 16_380))
          default: try socket.sendFrame(opcode: 0x9)
          }
          sent += 1
        } catch {
          break
        }
      }
      let (_, code) = try socket.readToClose()
      #expect(code == 1008, "\(kind): \(sent) frames sent, close \(String(describing: code))")
      // Another visitor is served as before.
      #expect(try RawHTTPResponse.get("/", port: showcase.port, from: "127.0.0.77").status == 200)
    }

    /// A browser whose TodoMVC list holds `count` items of 3 KB titles (finding 4's own list),
    /// added through its first tab, which stays open.
    static func bigList(port: Int, count: Int) throws -> (cookie: String, owner: StalledSocket) {
      let page = try Page(port: port, path: "/todos", from: "127.0.0.40")
      let cookie = try #require(page.cookie)
      let marker = try #require(page.body.range(of: #"class="new-todo""#))
      let tag = page.body[..<marker.lowerBound]
      let idStart = try #require(tag.range(of: #"id=""#, options: .backwards))
      let field = tag[idStart.upperBound...].prefix { $0 != "\"" }
      let owner = try page.attach(port: port, from: "127.0.0.40")
      _ = try owner.next()
      for number in 1...count {
        let title = "\(number) " + String(repeating: "漢", count: 1_000)
        try owner.sendText(
          #"{"type":"submit","id":"\#(field)","value":"\#(title)","seq":\#(number),"g":\#(number)}"#
        )
        // Acknowledged in turn, so the list is whole before anyone switches its filters.
        while let message = try owner.next(), !message.contains(#""k":\#(number)"#) {}
      }
      return (cookie, owner)
    }

    /// A tab's filter switches, Completed then All, numbered from `first`: every second one
    /// sends the whole list again.
    static func filterSwitches(_ count: Int, from first: Int = 1) -> [String] {
      (first..<(first + count)).map { number in
        let path = number % 2 == 1 ? "/todos/completed" : "/todos"
        return #"{"type":"navigate","path":"\#(path)","g":\#(number)}"#
      }
    }

    // MARK: Finding 3: a close the server could not echo held the connection forever

    @Test func aPagesCloseTheServerCannotEchoStillEndsTheConnection() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let (cookie, owner) = try Self.bigList(port: showcase.port, count: 40)
      let page = try Page(port: showcase.port, path: "/todos", from: "127.0.0.41", cookie: cookie)
      // A tab that reads nothing, with a small receive buffer, has its session send more than
      // the connection takes (twenty renders of the whole list, 2.4 MB), then closes.
      let tab = try page.attach(port: showcase.port, from: "127.0.0.41", receiveBuffer: 4_096)
      try await Checks.waitForConnected(port: showcase.port, 2)
      for text in Self.filterSwitches(40) { try tab.sendText(text) }
      // The close goes once the server is writing the whole list to a tab that reads nothing:
      // its receive buffer has filled with what the server sent.
      await expectEventually(timeout: .seconds(30)) { tab.waitingBytes() >= 2_048 }
      try tab.sendFrame(opcode: 0x8, [0x03, 0xE8])  // close, 1000
      // The server cannot write its answer; it must end the connection anyway.
      try await Checks.waitForConnected(port: showcase.port, 1)
      withExtendedLifetime((owner, tab)) {}
    }

    // MARK: Finding 4: one tab's own gestures held the shared main actor

    @Test func aTabSwitchingItsBigListsFiltersDoesNotHoldAnotherVisitorsPageLoads() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let port = showcase.port
      let (cookie, owner) = try Self.bigList(port: port, count: 60)
      let page = try Page(port: port, path: "/todos", from: "127.0.0.42", cookie: cookie)
      let tab = try page.attach(port: port, from: "127.0.0.42")
      _ = try tab.next()
      // The attacker sends its switches as fast as the socket takes them (its rate paces it)
      // on a thread of its own, and reads everything it is sent.
      let writer = tab.writer
      let switches = Self.filterSwitches(400)
      let sent = Shared(false)
      Thread.detachNewThread {
        for text in switches {
          guard (try? writer.sendText(text)) != nil else { break }
        }
        sent.set(true)
      }
      // Meanwhile another visitor loads its own page, ten times, on a thread of its own.
      let visits = Shared<[Duration]?>(nil)
      let visited = Task.detached {
        await withCheckedContinuation { (done: CheckedContinuation<[Duration], Never>) in
          Thread.detachNewThread {
            var times: [Duration] = []
            for _ in 0..<10 {
              let start = ContinuousClock.now
              let visit = try? RawHTTPResponse.get("/todos", port: port, from: "127.0.0.78")
              times.append(visit?.status == 200 ? .now - start : .seconds(3_600))
            }
            visits.set(times)
            done.resume(returning: times)
          }
        }
      }
      var read = 0
      while visits.value == nil, (try? tab.next()) != nil { read += 1 }
      let readMeanwhile = read
      // The attacking tab is served too, not starved for the visitor: it goes on being
      // answered. (How many it reads while the visitor loads depends on how fast the
      // visitor is served: a fresh-clone CI run read 2.)
      while read <= 2, (try? tab.next()) != nil { read += 1 }
      let slowest = await visited.value.max() ?? .zero
      print(
        "figure: a visitor's slowest of 10 page loads beside a tab switching its list's filters "
          + "(\(readMeanwhile) messages read meanwhile): \(slowest)")
      // Served on, or closed for holding the most a socket may have waiting (4408): the server
      // sent it renders faster than it read them. Either way it was not starved.
      #expect(
        read > 2 || tab.closeCode == 4408,
        "the attacking tab was served too (read \(read), closed with \(String(describing: tab.closeCode)))"
      )
      #expect(slowest < .seconds(2), "the visitor waited \(slowest) for a page")
      showcase.process.terminate()
      while !sent.value { _ = try? tab.next() }
      withExtendedLifetime(owner) {}
    }

    // MARK: Finding 5: the send queue was bounded by count, not bytes

    @Test func aTabThatReadsNothingIsClosedOnceItsQueueHoldsItsBytes() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let port = showcase.port
      let (cookie, owner) = try Self.bigList(port: port, count: 40)
      let page = try Page(port: port, path: "/todos", from: "127.0.0.43", cookie: cookie)
      let tab = try page.attach(port: port, from: "127.0.0.43", receiveBuffer: 4_096)
      try await Checks.waitForConnected(port: port, 2)
      // Sixty switches: thirty renders of the whole list (120 KB each), 3.6 MB in all, far
      // fewer messages than the 256 the queue once counted. The tab reads nothing.
      for text in Self.filterSwitches(60) {
        guard (try? tab.sendText(text)) != nil else { break }
      }
      // Once its queue holds its bytes, the server closes the socket (4408), waits a while for
      // the page to read its close, and ends the connection.
      await expectEventually(timeout: .seconds(45), "the tab's connection is ended") {
        (try? Checks.stats(port: port).connected) == 1
      }
      withExtendedLifetime((owner, tab)) {}
    }

    // MARK: Finding 6: a crafted link made a page that could never connect

    @Test func aPathLongerThanTheServerSignsIsRefusedBeforeAPageIsServed() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let long = try RawHTTPResponse.get(
        "/entry/greeting/" + String(repeating: "a", count: 3_000), port: showcase.port)
      #expect(long.status == 414)
      // The longest path served still makes a page whose hello fits a frame.
      let longest = "/entry/greeting/" + String(repeating: "b", count: 1_024 - 16)
      let page = try Page(port: showcase.port, path: longest)
      #expect(page.hello.utf8.count <= 4_096, "\(page.hello.utf8.count) bytes")
      let socket = try page.attach(port: showcase.port)
      #expect(try socket.next() != nil, "its socket opens and is sent the app")
    }

    // MARK: Finding 7: an upgrade the server does not speak got no answer

    @Test func anUpgradeTheServerDoesNotSpeakIsAnswered() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let port = showcase.port
      let base = "Host: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
      let requests: [(String, Set<Int>)] = [
        (
          "GET / HTTP/1.1\r\n\(base)Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
            + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n", [200]
        ),
        ("GET / HTTP/1.1\r\n\(base)Connection: Upgrade\r\nUpgrade: TLS/1.0\r\n\r\n", [200]),
        (
          "GET /ws HTTP/1.1\r\n\(base)Connection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n", [400]
        ),
        (
          "GET /ws HTTP/1.1\r\n\(base)Connection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
          [400]
        ),
        (
          "GET /ws HTTP/1.1\r\n\(base)Connection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n",
          [400, 426]
        ),
      ]
      for (request, expected) in requests {
        let (status, _) = try Self.answer(port: port, Array(request.utf8))
        #expect(expected.contains(status), "\(request.prefix(60).debugDescription): \(status)")
      }
    }

    // MARK: Finding 8: a whole office was locked out

    @Test func aThousandBrowsersBehindOneAddressAreServed() async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      var cookies: Set<String> = []
      var statuses: [Int: Int] = [:]
      for _ in 0..<1_000 {
        let page = try RawHTTPResponse.get("/", port: showcase.port, from: "127.0.0.88")
        statuses[page.status, default: 0] += 1
        if let cookie = page.cookie { cookies.insert(cookie) }
      }
      #expect(statuses == [200: 1_000], "\(statuses)")
      #expect(cookies.count == 1_000, "each a browser of its own")
      // Each comes back as itself.
      var back: [Int: Int] = [:]
      for cookie in cookies.prefix(1_000) {
        let page = try RawHTTPResponse.get(
          "/todos", port: showcase.port, from: "127.0.0.88", headers: "Cookie: \(cookie)\r\n")
        back[page.status, default: 0] += 1
        #expect(page.cookie == nil, "a browser that has its cookie is issued none")
      }
      #expect(back == [200: 1_000], "\(back)")
    }

    // MARK: Finding 9: the socket's framing rules, on the server

    @Test(arguments: [
      "unmasked", "reserved bit", "reserved opcode", "lone continuation", "invalid UTF-8",
      "close code 1005",
    ])
    func aFrameAgainstTheProtocolIsClosedWithItsCode(kind: String) async throws {
      let showcase = try await WebShowcase()
      defer { showcase.process.terminate() }
      let page = try Page(port: showcase.port)
      let socket = try page.attach(port: showcase.port)
      #expect(try socket.next() != nil, "the page is sent the app")
      let expected: Int
      switch kind {
      case "unmasked":
        try socket.sendFrame(
          opcode: 0x1, Array(#"{"type":"key","key":"ArrowDown"}"#.utf8), masked: false)
        expected = 1002
      case "reserved bit":
        try socket.sendFrame(opcode: 0x1, Array("{}".utf8), reservedBits: 0x4)
        expected = 1002
      case "reserved opcode":
        try socket.sendFrame(opcode: 0x3, [1])
        expected = 1002
      case "lone continuation":
        try socket.sendFrame(opcode: 0x0, Array("x".utf8))
        expected = 1002
      case "invalid UTF-8":
        try socket.sendFrame(opcode: 0x1, [0xCE, 0xBA, 0xED, 0xA0, 0x80])
        expected = 1007
      default:
        try socket.sendFrame(opcode: 0x8, [0x03, 0xED])
        expected = 1002
      }
      let (_, code) = try socket.readToClose()
      #expect(code == expected, "\(kind): close \(String(describing: code))")
    }
  }
}
