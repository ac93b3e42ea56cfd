import Foundation
import Gallery
import LoopbackClient
import TetherWeb

/// Opens session `sessionID`'s socket again through the balancer with the newest `token`, as
/// the page's script does after its socket broke, until the session answers (or 10 s pass);
/// records how long that took. Returns the socket and the resumed session's first message.
func reopenSocket(
  port: Int, sessionID: String, secret: String, token: String?, cookie: String? = nil,
  from source: String? = nil, recorder: LoadRecorder
) throws -> (socket: Connection, first: String) {
  let start = ContinuousClock.now
  var lastError: ConnectionError?
  while ContinuousClock.now - start < .seconds(10) {
    do {
      let fresh = try Connection(port: port, from: source)
      try fresh.upgrade("/ws?session=\(sessionID)&resync=1", port: port, cookie: cookie)
      try fresh.sendText(ClientMessage.hello(secret: secret, token: token).json)
      guard let first = try fresh.receiveText() else { throw ConnectionError.closedByServer }
      recorder.update { $0.reconnects.append((ContinuousClock.now - start).milliseconds) }
      return (fresh, first)
    } catch {
      lastError = ConnectionError(error)
      Thread.sleep(forTimeInterval: 0.05)
    }
  }
  throw ConnectionError.couldNotResume(seconds: 10, last: lastError)
}

/// The `path` and `title` of one server message.
func pathAndTitle(_ message: String) -> (path: String?, title: String?) {
  guard let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]
  else { return (nil, nil) }
  return (object["path"] as? String, object["title"] as? String)
}

/// Every element id a session's page holds, as far as its messages show: a patch may only
/// name an element the session itself rendered (an id from another session's page, or from a
/// screen it never opened, is another session's data reaching it).
struct RenderedElements {
  private(set) var ids: Set<String>

  init(page html: String) {
    ids = Self.ids(in: html)
  }

  /// Applies a message's patches; returns the ids it patched that this session never
  /// rendered.
  mutating func apply(_ message: String) -> [String] {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any],
      let patches = object["p"] as? [[Any]]
    else { return [] }
    var unknown: [String] = []
    for patch in patches {
      guard patch.count >= 2, let kind = patch[0] as? String, let id = patch[1] as? String
      else { continue }
      if !ids.contains(id) { unknown.append(id) }
      if kind == "r" || kind == "c", let html = patch.count > 2 ? patch[2] as? String : nil {
        ids.formUnion(Self.ids(in: html))
      }
      // An insert names its parent, then the child it follows (or ""), then the new HTML.
      if kind == "i", let html = patch.count > 3 ? patch[3] as? String : nil {
        if let after = patch[2] as? String, !after.isEmpty, !ids.contains(after) {
          unknown.append(after)
        }
        ids.formUnion(Self.ids(in: html))
      }
    }
    return unknown
  }

  private static func ids(in html: String) -> Set<String> {
    var found: Set<String> = []
    var rest = html[...]
    while let start = rest.range(of: " id=\"") {
      let tail = rest[start.upperBound...]
      guard let end = tail.firstIndex(of: "\"") else { break }
      found.insert(String(tail[..<end]))
      rest = tail[end...]
    }
    return found
  }
}

/// A message's resume token (`r`), if it carries one.
func resumeToken(inMessage message: String) -> String? {
  guard let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]
  else { return nil }
  return object["r"] as? String
}

/// A well-formed session: home → Gallery → its own photo → Gallery → home, again and again
/// until `deadline`, with `think` between gestures. Each gesture's latency is the time to the
/// message that moves the page to the expected path. A message naming a path this session
/// never asked for is another session's data: an isolation violation.
///
/// Behind a cluster (the page came with a resume token), a socket that breaks — its node was
/// killed — is opened again through the balancer with the newest token, as the page's script
/// does, and the gesture it broke is sent once more: the one retry a client is allowed. A
/// gesture that fails after that is lost.
func runSession(
  index: Int, port: Int, deadline: Date, think: Duration, recorder: LoadRecorder
) {
  // A photo for sale opens its detail screen; one that is not shows an alert instead.
  let photos = BundledPhotoService.page(1).photos.filter(\.forSale)
  let photo = photos[index % photos.count]
  let tour = ["/gallery", "/gallery/photo/\(photo.id)", "/gallery", "/"]
  recorder.update { $0.sessionsStarted += 1 }
  var step = "opening the page"
  do {
    let tab = try TouringTab(index: index, port: port, recorder: recorder, photo: photo)
    var previous = "/"
    while Date() < deadline {
      for path in tour {
        step = "waiting for \(path)"
        let start = ContinuousClock.now
        try tab.go(to: path, from: previous)
        previous = path
        let elapsed = ContinuousClock.now - start
        let milliseconds =
          Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        recorder.update {
          $0.requests += 1
          $0.latencies.append(milliseconds)
        }
        Thread.sleep(forTimeInterval: Double(think.components.attoseconds) / 1e18)
      }
    }
    try? tab.socket.send(Connection.frame(opcode: 0x8, [0x03, 0xE8]))
    recorder.update { $0.sessionsCompleted += 1 }
  } catch {
    recorder.update {
      $0.errors.append("session \(index), \(step): \(error)")
      if step.hasPrefix("waiting") { $0.lostGestures += 1 }
    }
  }
}

/// One tab of a touring session: its socket, the elements its page holds, its newest resume
/// token.
final class TouringTab {
  let index: Int
  let port: Int
  let recorder: LoadRecorder
  let photo: Photo
  let id: String
  let secret: String
  private(set) var socket: Connection
  private var rendered: RenderedElements
  private var token: String?
  /// The cookie the page issued: the session's token opens it only for this browser.
  private let cookie: String?
  /// The address it connects from.
  private let source: String?

  init(index: Int, port: Int, recorder: LoadRecorder, photo: Photo) throws {
    self.index = index
    self.port = port
    self.recorder = recorder
    self.photo = photo
    let page = try OpenedPage(port: port)
    id = page.sessionID
    secret = page.secret
    cookie = page.cookie
    source = page.source
    token = page.token
    rendered = RenderedElements(page: page.html)
    socket = page.socket
  }

  /// Asks for `path` and waits until the page is there; on a broken socket, reconnects and
  /// asks once more.
  func go(to path: String, from previous: String) throws {
    do {
      try socket.sendText(ClientMessage.navigate(path: path).json)
      try wait(for: path, from: previous)
    } catch {
      guard token != nil else { throw error }
      try reconnect(expecting: [path, previous])
      recorder.update { $0.retriedGestures += 1 }
      try socket.sendText(ClientMessage.navigate(path: path).json)
      try wait(for: path, from: previous)
    }
  }

  private func wait(for path: String, from previous: String) throws {
    while true {
      guard let message = try socket.receiveText() else {
        throw ConnectionError.closedByServer
      }
      let received = check(message, allowed: [path, previous])
      if received == path { return }
    }
  }

  /// Checks a message against what this session may be sent; returns its path, if any.
  private func check(_ message: String, allowed: [String]) -> String? {
    let unknown = rendered.apply(message)
    if !unknown.isEmpty {
      recorder.update {
        $0.isolationViolations.append(
          "session \(index) was sent patches for \(unknown.prefix(3)) it never rendered")
      }
    }
    if let newer = resumeToken(inMessage: message) { token = newer }
    // "/" and "/gallery" are every session's paths, so a message merely naming one of them
    // proves nothing: the path must be the one this session just asked for, or the one it
    // is leaving (a late re-render of that screen).
    let (received, title) = pathAndTitle(message)
    guard let received else { return nil }
    if !allowed.contains(received) {
      recorder.update {
        $0.isolationViolations.append(
          "session \(index) asked for \(allowed[0]) and was sent \(received)")
      }
    }
    if received == "/gallery/photo/\(photo.id)", let title, !title.contains(photo.name) {
      recorder.update {
        $0.isolationViolations.append("session \(index) was shown the title \(title)")
      }
    }
    return received
  }

  /// Opens the socket again through the balancer with the newest token; checks the whole
  /// app it sends back.
  private func reconnect(expecting allowed: [String]) throws {
    let (fresh, first) = try reopenSocket(
      port: port, sessionID: id, secret: secret, token: token, cookie: cookie, from: source,
      recorder: recorder)
    socket = fresh
    _ = check(first, allowed: allowed)
  }

}

/// The clients that get things wrong, each kind with what the server must do about it.
enum BadClient: String, CaseIterable, Sendable {
  /// Promises a 1000-byte frame, sends 10 bytes and vanishes.
  case cutMidFrame = "cut mid-frame"
  /// Sends non-JSON, an incomplete click, invalid UTF-8, a binary frame and an unknown type,
  /// then a good gesture: the session must still answer it.
  case malformed
  /// Sends a 64 KiB frame (the limit is 4 KiB): the server must close the socket.
  case oversized
  /// Sends 300 gestures and never reads a byte, then vanishes at the end of the run.
  case neverReads = "never reads"
  /// Asks for a socket to a session that does not exist: the server must close it.
  case noSession = "no such session"

  /// What went wrong in one run.
  enum Failure: Error, CustomStringConvertible {
    /// The server did the wrong thing.
    case wrongAnswer(BadClient, String)
    /// The client's connection failed.
    case connection(BadClient, ConnectionError)

    /// Whether the connection was cut (reset, broken pipe, closed early) rather than answered
    /// wrongly: what a node killed under the client looks like.
    var isCutConnection: Bool {
      if case .connection(_, let error) = self { error.isCut } else { false }
    }

    var description: String {
      switch self {
      case .wrongAnswer(let client, let what): "\(client.rawValue): \(what)"
      case .connection(let client, let error): "\(client.rawValue): \(error)"
      }
    }
  }

  /// Runs once; returns a failure, or `nil` if the server did the right thing.
  func run(port: Int, until deadline: Date) -> Failure? {
    do {
      switch self {
      case .cutMidFrame:
        let socket = try openSession(port: port)
        let frame = Connection.frame(opcode: 0x1, Array(repeating: 0x61, count: 1000))
        try socket.send(Array(frame.prefix(16)))
        socket.shutDown()
        // The client cannot see what the server did with the cut frame; what can be seen is
        // that the server still serves: a new session answers a gesture.
        return Self.serverStillServes(port: port).map { .connection(self, $0) }
      case .malformed:
        let socket = try openSession(port: port)
        try socket.sendText("not json")
        try socket.sendText(#"{"type":"click"}"#)
        try socket.send(Connection.frame(opcode: 0x1, [0xFF, 0xFE, 0x41]))
        try socket.send(Connection.frame(opcode: 0x2, [0, 1, 2, 3]))
        try socket.sendText(#"{"type":"explode","key":"\#(String(repeating: "k", count: 3000))"}"#)
        try socket.sendText(ClientMessage.navigate(path: "/gallery").json)
        while true {
          guard let message = try socket.receiveText() else {
            // Invalid UTF-8 in a text frame is a protocol error the server may close for.
            return nil
          }
          if pathAndTitle(message).path == "/gallery" { break }
        }
      case .oversized:
        let socket = try openSession(port: port)
        try? socket.send(Connection.frame(opcode: 0x1, Array(repeating: 0x61, count: 65_536)))
        guard socket.waitForClose(seconds: 10) else {
          return .wrongAnswer(self, "an oversized frame was kept open")
        }
      case .neverReads:
        let socket = try openSession(port: port)
        for number in 0..<300 {
          try socket.sendText(ClientMessage.navigate(path: number % 2 == 0 ? "/gallery" : "/").json)
        }
        while Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        // Then it reads. The server may have closed a client this far behind (that bounds
        // it); if not, one more gesture must be answered after all 300, in order, and other
        // sessions must have been served meanwhile.
        if let failure = Self.serverStillServes(port: port) { return .connection(self, failure) }
        if (try? socket.sendText(ClientMessage.navigate(path: "/courses").json)) != nil {
          // A timeout reading throws: the session neither answered nor closed.
          while let message = try socket.receiveText() {
            if pathAndTitle(message).path == "/courses" { break }
          }
        }
        socket.shutDown()
      case .noSession:
        let socket = try Connection(port: port)
        try socket.upgrade("/ws?session=0123456789abcdef", port: port)
        guard socket.waitForClose(seconds: 10) else {
          return .wrongAnswer(self, "a socket with no session stayed open")
        }
      }
      return nil
    } catch {
      return .connection(self, ConnectionError(error))
    }
  }

  /// `nil` if a new session opens and answers a gesture after a misbehaving client; otherwise
  /// how its connection failed.
  static func serverStillServes(port: Int) -> ConnectionError? {
    do {
      let socket = try openSession(port: port)
      try socket.sendText(ClientMessage.navigate(path: "/courses").json)
      while let message = try socket.receiveText() {
        if pathAndTitle(message).path == "/courses" {
          socket.shutDown()
          return nil
        }
      }
      return .closedByServer
    } catch {
      return ConnectionError(error)
    }
  }
}
