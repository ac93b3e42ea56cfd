import Foundation
import Gallery
import TetherWeb

/// The id of the session a page belongs to (its script's `data-session`).
func sessionID(inPage html: String) -> String? {
  guard let start = html.range(of: "data-session=\"") else { return nil }
  let rest = html[start.upperBound...]
  guard let end = rest.firstIndex(of: "\"") else { return nil }
  return String(rest[..<end])
}

/// Opens a page and its session's socket, as a browser tab does.
func openSession(port: Int) throws -> Connection {
  try openSessionWithPage(port: port).socket
}

/// Opens a page and its session's socket, and returns the page too.
func openSessionWithPage(port: Int) throws -> (socket: Connection, html: String) {
  let (status, html) = try Connection(port: port).get("/", port: port)
  guard status == 200, let id = sessionID(inPage: html) else {
    throw ConnectionError("GET / answered \(status)")
  }
  let socket = try Connection(port: port)
  try socket.upgrade("/ws?session=\(id)", port: port)
  return (socket, html)
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

/// A well-formed session: home → Gallery → its own photo → Gallery → home, again and again
/// until `deadline`, with `think` between gestures. Each gesture's latency is the time to the
/// message that moves the page to the expected path. A message naming a path this session
/// never asked for is another session's data: an isolation violation.
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
    let (socket, page) = try openSessionWithPage(port: port)
    var rendered = RenderedElements(page: page)
    // "/" and "/gallery" are every session's paths, so a message merely naming one of them
    // proves nothing: the path must be the one this session just asked for, or the one it
    // is leaving (a late re-render of that screen).
    var previous = "/"
    while Date() < deadline {
      for path in tour {
        step = "waiting for \(path)"
        let start = ContinuousClock.now
        try socket.sendText(ClientMessage.navigate(path: path).json)
        while true {
          guard let message = try socket.receiveText() else {
            throw ConnectionError("the server closed the socket")
          }
          let unknown = rendered.apply(message)
          if !unknown.isEmpty {
            recorder.update {
              $0.isolationViolations.append(
                "session \(index) was sent patches for \(unknown.prefix(3)) it never rendered")
            }
          }
          let (received, title) = pathAndTitle(message)
          guard let received else { continue }
          if received != path && received != previous {
            recorder.update {
              $0.isolationViolations.append(
                "session \(index) asked for \(path) and was sent \(received)")
            }
          }
          if received == "/gallery/photo/\(photo.id)", let title, !title.contains(photo.name) {
            recorder.update {
              $0.isolationViolations.append("session \(index) was shown the title \(title)")
            }
          }
          if received == path { break }
        }
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
    try socket.send(Connection.frame(opcode: 0x8, [0x03, 0xE8]))
    recorder.update { $0.sessionsCompleted += 1 }
  } catch {
    recorder.update { $0.errors.append("session \(index), \(step): \(error)") }
  }
}

/// The clients that get things wrong, each kind with what the server must do about it.
enum BadClient: String, CaseIterable, Sendable {
  /// Promises a 1000-byte frame, sends 10 bytes and vanishes.
  case cutMidFrame = "cut mid-frame"
  /// Sends non-JSON, an incomplete click, invalid UTF-8, a binary frame and an unknown type,
  /// then a good gesture: the session must still answer it.
  case malformed
  /// Sends a 64 KiB frame (the limit is 16 KiB): the server must close the socket.
  case oversized
  /// Sends 300 gestures and never reads a byte, then vanishes at the end of the run.
  case neverReads = "never reads"
  /// Asks for a socket to a session that does not exist: the server must close it.
  case noSession = "no such session"

  /// Runs once; returns a failure, or `nil` if the server did the right thing.
  func run(port: Int, until deadline: Date) -> String? {
    do {
      switch self {
      case .cutMidFrame:
        let socket = try openSession(port: port)
        let frame = Connection.frame(opcode: 0x1, Array(repeating: 0x61, count: 1000))
        try socket.send(Array(frame.prefix(16)))
        socket.shutDown()
        // The client cannot see what the server did with the cut frame; what can be seen is
        // that the server still serves: a new session answers a gesture.
        return Self.serverStillServes(port: port)
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
        guard socket.waitForClose(seconds: 10) else { return "an oversized frame was kept open" }
      case .neverReads:
        let socket = try openSession(port: port)
        for number in 0..<300 {
          try socket.sendText(ClientMessage.navigate(path: number % 2 == 0 ? "/gallery" : "/").json)
        }
        while Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        // Then it reads. The server may have closed a client this far behind (that bounds
        // it); if not, one more gesture must be answered after all 300, in order, and other
        // sessions must have been served meanwhile.
        if let failure = Self.serverStillServes(port: port) { return failure }
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
          return "a socket with no session stayed open"
        }
      }
      return nil
    } catch {
      return "\(rawValue): \(error)"
    }
  }

  /// `nil` if a new session opens and answers a gesture; otherwise what went wrong.
  static func serverStillServes(port: Int) -> String? {
    do {
      let socket = try openSession(port: port)
      try socket.sendText(ClientMessage.navigate(path: "/courses").json)
      while let message = try socket.receiveText() {
        if pathAndTitle(message).path == "/courses" {
          socket.shutDown()
          return nil
        }
      }
      return "after a misbehaving client, a new session's socket closed before answering"
    } catch {
      return "after a misbehaving client, a new session failed: \(error)"
    }
  }
}
