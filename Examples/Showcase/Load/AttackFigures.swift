import Foundation
import LoopbackClient
import ShowcaseWeb
import Synchronization
import TetherWeb

/// `showcase-load --scenario attack`: what the third security round's attacks cost another
/// visitor, with the server's default limits.
///
/// For no attacker, one, eight (each from an address of its own) and eight from one address,
/// each attack in turn:
/// - **filters** (finding 4): a tab of a `list`-item TodoMVC list of 3 KB titles switches
///   between its Completed and All filters as fast as the server answers, reading everything;
/// - **unread filters** (finding 5): the same, never reading;
/// - **pings** (finding 2): empty pings as fast as the connection takes them, never reading;
///
/// and meanwhile another visitor, from its own address, loads `/todos` (the whole page, to
/// its last byte) and adds an item (a gesture, from its submit to the message that shows its
/// row), `samples` of each, 50 ms apart: p50 and p99 of each. Then the server's heap per
/// attacking socket, eight sockets switching filters unread, once the heap settles.
struct AttackFigures {
  let port: Int
  var samples = 50
  var list = 1_000

  /// An attacking tab: a page of the shared list, opened from `source`.
  ///
  /// `@unchecked`: while it attacks, one thread sends (and alone touches `gesture`) and, for
  /// the reading attack, one other only reads; a `Connection`'s sends touch only its
  /// descriptor and its reads only its own buffer. Both threads are joined before it is
  /// used again.
  final class Attacker: @unchecked Sendable {
    let socket: Connection
    var gesture = 0
    init(port: Int, cookie: String, source: String?) throws {
      let page = try Connection(port: port, from: source)
      let (status, _, html) = try page.getWithHead("/todos", port: port, cookie: cookie)
      guard status == 200, let id = sessionID(inPage: html),
        let secret = scriptAttribute("data-secret", inPage: html)
      else {
        throw ConnectionError.unexpectedStatus(request: "GET /todos", status: status, body: "")
      }
      socket = try Connection(port: port, from: source)
      try socket.upgrade("/ws?session=\(id)", port: port, cookie: cookie)
      try socket.sendText(
        ClientMessage.hello(secret: secret, token: resumeToken(inPage: html)).json)
      guard try socket.receiveText() != nil else { throw ConnectionError.closedByServer }
    }
  }

  enum Attack: String, CaseIterable {
    case filters
    case unreadFilters = "unread filters"
    case pings
  }

  /// Runs `attack` from each of `attackers` until the returned stop is called.
  private func start(_ attack: Attack, from attackers: [Attacker]) -> () -> Void {
    let stop = LockedFlag()
    var finished: [DispatchSemaphore] = []
    for attacker in attackers {
      let done = DispatchSemaphore(value: 0)
      finished.append(done)
      if attack == .filters {
        // The reader: the tab reads everything it is sent.
        let reading = DispatchSemaphore(value: 0)
        finished.append(reading)
        Thread {
          defer { reading.signal() }
          while !stop.value, (try? attacker.socket.receiveFrame()) != nil {}
        }.start()
      }
      Thread {
        defer { done.signal() }
        var completed = false
        while !stop.value {
          do {
            switch attack {
            case .pings:
              try attacker.socket.send(Connection.frame(opcode: 0x9, []))
            case .filters, .unreadFilters:
              completed.toggle()
              attacker.gesture += 1
              let path = completed ? "/todos/completed" : "/todos"
              try attacker.socket.sendText(
                #"{"type":"navigate","path":"\#(path)","g":\#(attacker.gesture)}"#)
            }
          } catch {
            return
          }
        }
      }.start()
    }
    return {
      stop.set()
      for attacker in attackers { attacker.socket.shutDown() }
      for done in finished { done.wait() }
    }
  }

  /// The visitor's page loads and adds, in milliseconds.
  private func visit() throws -> (loads: [Double], adds: [Double]) {
    let (cookie, _) = try Connection.issuedCookie(port: port, path: "/todos")
    let source = LoadSources.next()
    var loads: [Double] = []
    for _ in 0..<samples {
      let start = ContinuousClock.now
      let (status, _) = try Connection(port: port, from: source).get(
        "/todos", port: port, cookie: cookie)
      guard status == 200 else {
        throw ConnectionError.unexpectedStatus(request: "GET /todos", status: status, body: "")
      }
      loads.append((ContinuousClock.now - start).milliseconds)
      Thread.sleep(forTimeInterval: 0.05)
    }
    let visitor = try TypingFigures.openTab(port: port, cookie: cookie)
    let adds = try TypingFigures.adds(samples, by: visitor)
    return (loads, adds)
  }

  private func settledHeap() throws -> Int { try TypingFigures.settledHeap(port: port) }

  /// Runs every figure and prints them.
  func run() throws {
    let (cookie, _) = try Connection.issuedCookie(port: port, path: "/todos")
    let owner = try TypingFigures.openTab(port: port, cookie: cookie)
    try TypingFigures.fill(owner, count: list, title: TypingFigures.longTitle)
    say("the attackers' list: \(list) items of 3 KB titles")
    let (loads, adds) = try visit()
    row("no attacker", loads, adds)
    let oneAddress = LoadSources.next()
    for attack in Attack.allCases {
      for (count, shared) in [(1, false), (8, false), (8, true)] {
        let attackers = try (0..<count).map { _ in
          try Attacker(port: port, cookie: cookie, source: shared ? oneAddress : LoadSources.next())
        }
        let stop = start(attack, from: attackers)
        Thread.sleep(forTimeInterval: 0.5)
        let measured = Result { try visit() }
        stop()
        let (loads, adds) = try measured.get()
        row(
          "\(count) attacker\(count == 1 ? "" : "s")\(shared ? " on one address" : ""), "
            + attack.rawValue, loads, adds)
      }
    }
    // Heap per attacking socket: eight tabs switching filters and reading nothing.
    let before = try settledHeap()
    let attackers = try (0..<8).map { _ in
      try Attacker(port: port, cookie: cookie, source: LoadSources.next())
    }
    let opened = try settledHeap()
    let stop = start(.unreadFilters, from: attackers)
    Thread.sleep(forTimeInterval: 5)
    let attacking = try settledHeap()
    stop()
    say(
      "heap per socket: \((opened - before) / 8 / 1024) KiB open (its session included), "
        + "\((attacking - before) / 8 / 1024) KiB after 5 s switching filters unread")
  }

  private func row(_ label: String, _ loads: [Double], _ adds: [Double]) {
    say(
      "\(label): visitor's page load p50 \(Self.format(percentile(loads, 50))) / "
        + "p99 \(Self.format(percentile(loads, 99))) ms, add p50 "
        + "\(Self.format(percentile(adds, 50))) / p99 \(Self.format(percentile(adds, 99))) ms")
  }

  private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

  private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}
