import Foundation
import LoopbackClient
import ShowcaseWeb
import Synchronization

/// `showcase-load --scenario typing`: what one browser's big TodoMVC list costs everyone else.
///
/// - Heap per session showing a 600-item list of 3 KB titles: one browser's list, then ten of
///   its tabs open on it; the server's heap growth over the ten, per tab.
/// - Another visitor's add latency (p50, p99, max over `adds` adds, each its own page's submit
///   until its row is in a message) while no, one and eight sockets type into their own
///   1,000-item lists of 3 KB titles as fast as the server reads them.
///
/// Every browser gets the cookie the server issues on its first page, and connects from a
/// loopback address of its own.
struct TypingFigures {
  let port: Int
  let adds: Int
  /// Items in the big list whose tabs' heap is measured (600 for the figure).
  var bigList = 600
  /// Items in each typist's list (1,000 for the figure).
  var typedList = 1_000

  /// A title of about 3 KB (1,000 characters of 3 UTF-8 bytes, the longest a store keeps),
  /// as an attacker's list holds them.
  static func longTitle(_ index: Int) -> String {
    let number = "\(index) "
    return number + String(repeating: "漢", count: 1_000 - number.count)
  }

  /// A browser's tab on `/todos`, with its own gesture and edit numbers. Used by one thread
  /// at a time: a typist's thread while it types, which is joined before anyone else uses it.
  final class Tab: @unchecked Sendable {
    let page: OpenedPage
    /// The TodoMVC screen's new-item field, as the page names it.
    let newField: String
    var gesture = 0
    var edit = 0
    init(page: OpenedPage) throws {
      self.page = page
      guard let field = elementID(withClass: "new-todo", inPage: page.html) else {
        throw ConnectionError.unexpectedStatus(request: "GET /todos", status: 200, body: "")
      }
      newField = field
    }
  }

  static func openTab(port: Int, cookie: String?) throws -> Tab {
    let page = try OpenedPage(port: port, path: "/todos", cookie: cookie)
    // The socket's first message: the app, rebuilt from the page's token.
    guard try page.socket.receiveText() != nil else { throw ConnectionError.closedByServer }
    return try Tab(page: page)
  }

  /// Adds `count` items titled by `title` through `tab`, as Enter in the new-item field does,
  /// up to 50 gestures ahead of the acknowledgements; returns once all are acknowledged.
  static func fill(_ tab: Tab, count: Int, title: (Int) -> String) throws {
    var acknowledged = 0
    for index in 0..<count {
      tab.gesture += 1
      tab.edit += 1
      try tab.page.socket.sendText(
        #"{"type":"submit","id":"\#(tab.newField)","value":"\#(title(index))","seq":\#(tab.edit),"g":\#(tab.gesture)}"#
      )
      while tab.gesture - acknowledged > 50 {
        acknowledged = max(acknowledged, try nextAcknowledgement(tab))
      }
    }
    while acknowledged < tab.gesture {
      acknowledged = max(acknowledged, try nextAcknowledgement(tab))
    }
  }

  private static func nextAcknowledgement(_ tab: Tab) throws -> Int {
    guard let message = try tab.page.socket.receiveText() else {
      throw ConnectionError.closedByServer
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]
    else { return 0 }
    return object["k"] as? Int ?? 0
  }

  /// The server's heap in use, once two readings 300 ms apart agree within 1 %.
  private func settledHeap() throws -> Int { try Self.settledHeap(port: port) }

  /// The heap in use of the server on `port`, once two readings 300 ms apart agree within 1 %.
  static func settledHeap(port: Int) throws -> Int {
    var last = try WebServerStats.read(port: port).heap
    for _ in 0..<20 {
      Thread.sleep(forTimeInterval: 0.3)
      let now = try WebServerStats.read(port: port).heap
      if abs(now - last) * 100 <= max(last, 1) { return now }
      last = now
    }
    return last
  }

  /// Heap per tab showing a 600-item list of 3 KB titles.
  func heapPerBigListSession(tabs: Int = 10) throws -> Int {
    let (cookie, _) = try Connection.issuedCookie(port: port, path: "/todos")
    let writer = try Self.openTab(port: port, cookie: cookie)
    try Self.fill(writer, count: bigList, title: Self.longTitle)
    let before = try settledHeap()
    var open: [Tab] = []
    for _ in 0..<tabs { open.append(try Self.openTab(port: port, cookie: cookie)) }
    let after = try settledHeap()
    withExtendedLifetime((writer, open)) {}
    return (after - before) / tabs
  }

  /// One row of the latency table: the visitor's add latencies in milliseconds while
  /// `typists` sockets type.
  func visitorAdds(typing typists: [Tab]) throws -> [Double] {
    let stop = LockedFlag()
    let finished = typists.map { tab in
      let done = DispatchSemaphore(value: 0)
      Thread {
        defer { done.signal() }
        var text = ""
        while !stop.value {
          tab.edit += 1
          text = text.count > 40 ? "" : text + "x"
          do {
            try tab.page.socket.sendText(
              #"{"type":"input","id":"\#(tab.newField)","value":"\#(text)","seq":\#(tab.edit)}"#)
          } catch {
            return
          }
        }
      }.start()
      return done
    }
    defer {
      stop.set()
      // Each typist's last frame is whole before the next row uses its socket.
      for done in finished { done.wait() }
    }
    // The typists get going before the first add.
    Thread.sleep(forTimeInterval: 0.5)
    let (cookie, _) = try Connection.issuedCookie(port: port, path: "/todos")
    let visitor = try Self.openTab(port: port, cookie: cookie)
    return try Self.adds(adds, by: visitor)
  }

  /// `count` adds by `visitor`, 50 ms apart: each one's milliseconds from its submit to the
  /// message that shows its row.
  static func adds(_ count: Int, by visitor: Tab) throws -> [Double] {
    var latencies: [Double] = []
    for index in 0..<count {
      let title = "visit-\(UUID().uuidString.prefix(8))-\(index)"
      visitor.gesture += 1
      visitor.edit += 1
      let start = ContinuousClock.now
      try visitor.page.socket.sendText(
        #"{"type":"submit","id":"\#(visitor.newField)","value":"\#(title)","seq":\#(visitor.edit),"g":\#(visitor.gesture)}"#
      )
      while true {
        guard let message = try visitor.page.socket.receiveText() else {
          throw ConnectionError.closedByServer
        }
        if message.contains(title) { break }
      }
      latencies.append((ContinuousClock.now - start).milliseconds)
      Thread.sleep(forTimeInterval: 0.05)
    }
    return latencies
  }

  /// Runs every figure and prints them.
  func run() throws {
    let heap = try heapPerBigListSession()
    say("heap per tab showing a \(bigList)-item list of 3 KB titles: \(heap / 1024) KiB")
    var typists: [Tab] = []
    for count in [0, 1, 8] {
      while typists.count < count {
        let (cookie, _) = try Connection.issuedCookie(port: port, path: "/todos")
        let tab = try Self.openTab(port: port, cookie: cookie)
        try Self.fill(tab, count: typedList, title: Self.longTitle)
        typists.append(tab)
      }
      let latencies = try visitorAdds(typing: Array(typists.prefix(count)))
      say(
        "visitor's add while \(count) socket\(count == 1 ? "" : "s") type into a \(typedList)-item list of 3 KB titles: "
          + "p50 \(Self.format(percentile(latencies, 50))) ms, "
          + "p99 \(Self.format(percentile(latencies, 99))) ms, "
          + "max \(Self.format(latencies.max() ?? 0)) ms (\(latencies.count) adds)")
    }
  }

  private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

  /// Prints `line` at once: a run's figures show as they come, even into a file.
  private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}
