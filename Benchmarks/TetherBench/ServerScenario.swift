import Foundation
import HeapStatistics
import Hummingbird
import HummingbirdWebSocket
import Logging
import LoopbackClient
import ShowcaseWeb
import ShowcaseWebServer
import Tether
import TetherFlow
import TetherWeb
import TetherWebHummingbird

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// W6 and W7: a real server in a child process (this binary, `--serve KIND`), driven through
// real sockets by a blocking loopback client in this process. CPU is the child's utime + stime
// from /proc; memory its heap in use (glibc mallinfo2, read at `/bench/heap`) and its RSS.

/// The servers `tether-bench --serve KIND` runs.
enum ServedKind: String {
  /// The getting-started article's counter, served by `TetherWebServer.run`.
  case counter
  /// The same counter with room for 20,000 sessions and connections: the scale run
  /// (`Benchmarks/Scale/idle_sessions.py`), which raises the descriptor limit first.
  case counterAtScale = "counter-scale"
  /// The showcase (the Gallery for a selection move).
  case showcase
  /// Hummingbird alone: a WebSocket route that answers each message with a 31-byte text (the
  /// counter's patch size), and one that holds its socket open.
  case hummingbird
  /// SwiftNIO alone, answering each message on the event loop (BareNIOServer.swift).
  case nio
  /// SwiftNIO alone, answering each message after a hop to the main actor and back: the floor
  /// under any server whose sessions live on the main actor.
  case nioHop = "nio-hop"
  /// A page with a file input taking one file of up to 64 MB (W10, UploadScenario.swift).
  case upload
}

// MARK: - The child: servers

/// The article's counter (Examples/CounterArticle, the same code), for W6 and W7.
@MainActor
final class BenchCounterViewModel {
  @Output private(set) var countText = "Count: 0"
  private var count = 0

  func increment() {
    count += 1
    countText = "Count: \(count)"
  }
}

@MainActor
final class BenchCounterFlow: FlowController {
  func start(on navigator: any Navigator<BenchCounter>) -> Screen<BenchCounter> {
    Screen(.counter(BenchCounterViewModel()), title: "Counter", owner: self)
  }
}

enum BenchCounter {
  case counter(BenchCounterViewModel)
}

@MainActor
final class BenchCounterScreen: WebScreen {
  enum Action { case increment }
  let counter: BenchCounterViewModel
  init(_ counter: BenchCounterViewModel) { self.counter = counter }

  var body: Markup<Action> {
    vstack {
      p { counter.countText }
      button("Increment").onClick(.increment)
    }
  }

  func handle(_ action: Action) { counter.increment() }
}

@MainActor
let benchCounterApp = WebApp(title: "Counter", rootFlow: { BenchCounterFlow() }) { screen in
  switch screen.destination {
  case .counter(let counter): BenchCounterScreen(counter)
  }
}

/// Runs the server `kind` on a free loopback port until killed; prints `port N` once it
/// listens.
@MainActor
func serve(_ kind: ServedKind) async throws -> Never {
  var logger = Logger(label: "tether-bench-child")
  logger.logLevel = .critical
  let announce: @Sendable (Int) async -> Void = { port in
    FileHandle.standardOutput.write(Data("port \(port)\n".utf8))
  }
  let heapRoute: (Router<BasicWebSocketRequestContext>) -> Void = { router in
    router.get("bench/heap") { _, _ in "\(heap_statistics_bytes_in_use())" }
  }
  switch kind {
  case .counter:
    // Every message handled as it comes: the figures are what a message costs, and a
    // driven socket sends far faster than the default pace of 50 a second.
    try await TetherWebServer.run(
      benchCounterApp, port: 0, capacity: 2_000, limits: WebConnectionLimits(messageRate: nil),
      logger: logger, onRunning: announce, routes: heapRoute)
  case .counterAtScale:
    // The server's defaults but for its room: a visitor's click is paced as it would be.
    try await TetherWebServer.run(
      benchCounterApp, port: 0, capacity: 20_000,
      limits: WebConnectionLimits(maximumConnections: 24_000), logger: logger,
      onRunning: announce, routes: heapRoute)
  case .showcase:
    let registry = WebSessionRegistry(
      services: .bundled(thumbnailDelay: .zero), signing: .hmacSHA256)
    let application = ShowcaseWebServer.makeApplication(
      host: "127.0.0.1", port: 0, registry: registry,
      limits: WebConnectionLimits(messageRate: nil), logger: logger, onRunning: announce)
    try await application.runService(gracefulShutdownSignals: [])
  case .hummingbird:
    let router = Router(context: BasicWebSocketRequestContext.self)
    heapRoute(router)
    let reply = String(repeating: "x", count: 31)
    let page = String(repeating: "x", count: 1_000)
    router.get("page") { _, _ in page }
    router.ws("ws") { inbound, outbound, _ in
      for try await _ in inbound.messages(maxSize: 4_096) {
        try await outbound.write(.text(reply))
      }
    }
    let app = Application(
      router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in await announce(channel.localAddress?.port ?? 0) },
      logger: logger)
    try await app.runService(gracefulShutdownSignals: [])
  case .upload:
    try await TetherWebServer.run(
      benchUploadApp, port: 0, capacity: 10, limits: WebConnectionLimits(messageRate: nil),
      logger: logger, onRunning: announce, routes: heapRoute)
  case .nio, .nioHop:
    try await serveBareNIO(hop: kind == .nioHop) { port in
      Task { await announce(port) }
    }
  }
  exit(0)
}

// MARK: - The parent: a child server and what it costs

/// A `tether-bench --serve KIND` child on a free loopback port.
final class ChildServer {
  let port: Int
  private let process = Process()

  init(_ kind: ServedKind) throws {
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--serve", kind.rawValue]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let announced = announcedPort(on: output) { text in
      text.split(separator: "\n").first { $0.hasPrefix("port ") }.flatMap { Int($0.dropFirst(5)) }
    }
    guard let port = announced.port else {
      process.terminate()
      throw ChildError.didNotStart(output: announced.output)
    }
    self.port = port
  }

  deinit { stop() }

  /// Stops the child. (Polls rather than `waitUntilExit()`, which waits for the main run
  /// loop and never returns on the main actor of an async `main`.)
  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    for _ in 0..<500 where process.isRunning { usleep(10_000) }
  }

  /// The child's CPU time so far (utime + stime, every thread), in seconds.
  func cpuSeconds() throws -> Double {
    let stat = try String(
      contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
    // Fields after the command's closing parenthesis: state is field 3; utime 14, stime 15.
    guard let close = stat.lastIndex(of: ")") else { throw ChildError.unreadable("stat") }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      throw ChildError.unreadable("stat")
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// The CPU time the child's threads have had so far, in nanoseconds: the first field of each
  /// thread's `schedstat` (a thread that has ended is no longer counted, so read this across
  /// spans in which the child starts and ends no threads of its own).
  func scheduledNanoseconds() throws -> Int {
    let tasks = "/proc/\(process.processIdentifier)/task"
    var total = 0
    for thread in try FileManager.default.contentsOfDirectory(atPath: tasks) {
      guard
        let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
        let first = stat.split(separator: " ").first, let nanoseconds = Int(first)
      else { continue }
      total += nanoseconds
    }
    return total
  }

  /// How many times the child's threads have been switched out so far, waiting (voluntary) or
  /// preempted: summed over each thread's `status`, the wake-ups a workload costs.
  func contextSwitches() throws -> Int {
    let tasks = "/proc/\(process.processIdentifier)/task"
    var total = 0
    for thread in try FileManager.default.contentsOfDirectory(atPath: tasks) {
      guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8)
      else { continue }
      for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
        total += Int(line.split(separator: "\t").last ?? "") ?? 0
      }
    }
    return total
  }

  /// The child's resident set, in bytes.
  func residentBytes() throws -> Int {
    let status = try String(
      contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { throw ChildError.unreadable("status") }
    return kilobytes * 1_024
  }

  /// The child's heap in use, in bytes (its `/bench/heap`).
  func heapBytes() throws -> Int {
    let (status, body) = try Connection(port: port).get("/bench/heap", port: port)
    guard status == 200, let bytes = Int(body.trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw ChildError.unreadable("/bench/heap: \(status)") }
    return bytes
  }

  enum ChildError: Error {
    case didNotStart(output: String)
    case unreadable(String)
  }
}

/// The value of attribute `name` in the first `<tag` of `html` that has one.
func firstAttribute(_ name: String, ofTag tag: String, in html: String) -> String? {
  var rest = html[...]
  while let open = rest.range(of: "<\(tag)") {
    let element = rest[open.upperBound...].prefix { $0 != ">" }
    if let start = element.range(of: " \(name)=\"") {
      let value = element[start.upperBound...]
      return value.firstIndex(of: "\"").map { String(value[..<$0]) }
    }
    rest = rest[open.upperBound...]
  }
  return nil
}

/// Sends `count` messages on `socket`, each after the answer to the one before (as a user's
/// clicks are) and, with a `gap`, that long after it (a person's pace); reads one text message
/// per gesture and returns the bytes received.
@discardableResult
private func drive(
  _ socket: Connection, count: Int, gap: Duration = .zero, message: (Int) -> String,
  scenario: String
) throws -> Int {
  let pause = UInt32((gap / .microseconds(1)).rounded())
  var received = 0
  for index in 0..<count {
    if pause > 0 { usleep(pause) }
    try socket.sendText(message(index))
    guard let answer = try socket.receiveText() else {
      invalid("\(scenario): the server closed the socket at gesture \(index)")
    }
    received += answer.utf8.count
  }
  return received
}

/// The child's CPU (utime + stime) per gesture, one sample per repetition, each of `gestures`
/// messages driven through `socket` after a warm-up of 200; and the bytes received per gesture.
private func cpuPerGesture(
  _ child: ChildServer, socket: Connection, gestures: Int, repetitions: Int,
  scenario: String, message: (Int) -> String
) throws -> (samples: [Double], bytesPerGesture: Int) {
  _ = try drive(socket, count: 200, message: message, scenario: scenario)
  var samples: [Double] = []
  var bytes = 0
  for _ in 0..<repetitions {
    let before = try child.cpuSeconds()
    bytes = try drive(socket, count: gestures, message: message, scenario: scenario)
    samples.append((try child.cpuSeconds() - before) / Double(gestures) * 1e6)
  }
  return (samples, bytes / gestures)
}

/// The child's CPU per gesture at a person's pace, one sample per repetition: `gestures`
/// messages each `gap` after the answer to the one before, less what the child spends idle in
/// the same time (its idle rate measured over a second before each repetition). CPU is read
/// from the threads' scheduler statistics, in nanoseconds (`/proc/PID/task/*/schedstat`),
/// since `stat`'s ticks are 10 ms: a few hundred paced clicks cost about that.
private func pacedCPUPerGesture(
  _ child: ChildServer, socket: Connection, gestures: Int, gap: Duration, repetitions: Int,
  scenario: String, message: String
) throws -> (samples: [Double], switchesPerGesture: Double) {
  try drive(socket, count: 20, gap: gap, message: { _ in message }, scenario: scenario)
  var samples: [Double] = []
  var switches: [Double] = []
  for _ in 0..<repetitions {
    let idleStart = (cpu: try child.scheduledNanoseconds(), at: ContinuousClock.now)
    usleep(1_000_000)
    let idleRate =
      Double(try child.scheduledNanoseconds() - idleStart.cpu)
      / nanoseconds(ContinuousClock.now - idleStart.at)
    let start = (
      cpu: try child.scheduledNanoseconds(), switches: try child.contextSwitches(),
      at: ContinuousClock.now
    )
    try drive(socket, count: gestures, gap: gap, message: { _ in message }, scenario: scenario)
    let spent = Double(try child.scheduledNanoseconds() - start.cpu)
    let idle = idleRate * nanoseconds(ContinuousClock.now - start.at)
    samples.append(max(0, spent - idle) / Double(gestures) / 1_000)
    switches.append(Double(try child.contextSwitches() - start.switches) / Double(gestures))
  }
  return (samples, switches.sorted()[switches.count / 2])
}

/// A counter page connected through its socket (its first render read), and its button's click.
private func counterPage(port: Int, scenario: String) throws -> (OpenedPage, click: String) {
  let page = try OpenedPage(port: port)
  guard let first = try page.socket.receiveText(), !first.isEmpty else {
    invalid("\(scenario): the counter sent nothing after its hello")
  }
  guard let button = firstAttribute("id", ofTag: "button", in: page.html) else {
    invalid("\(scenario): no button on the counter's page")
  }
  return (page, ClientMessage.click(id: button).json)
}

/// A count of thread switches per message, to one decimal.
private func wakeUps(_ perMessage: Double) -> String {
  String(Double(Int((perMessage * 10).rounded())) / 10)
}

/// W6 paced: server CPU per gesture 40 ms apart, a person's pace (the peers harness's paced
/// column), against the same floor as W6: bare SwiftNIO answering after a hop to the main
/// actor and back. Between two clicks every thread the server has goes idle, so each click
/// pays its wake-ups in full.
@MainActor
func runW6Paced(_ bench: Bench, gestures: Int) async {
  let scenario = "W6 paced, 40 ms apart"
  guard procIsReadable(scenario) else { return }
  let gap = Duration.milliseconds(40)
  do {
    let floor = try ChildServer(.nioHop)
    defer { floor.stop() }
    let socket = try Connection(port: floor.port)
    try socket.upgrade("/ws", port: floor.port)
    let measured = try pacedCPUPerGesture(
      floor, socket: socket, gestures: gestures, gap: gap, repetitions: bench.repetitions,
      scenario: scenario, message: #"{"type":"click","id":"s1.2"}"#)
    bench.record(
      scenario, "bare SwiftNIO + a main-actor hop", baseline: true, samples: measured.samples,
      unit: "µs",
      note:
        "CPU per message, idle taken off; \(wakeUps(measured.switchesPerGesture)) thread switches per message"
    )
  } catch {
    invalid("\(scenario): \(error)")
  }
  do {
    let counter = try ChildServer(.counter)
    defer { counter.stop() }
    let (page, click) = try counterPage(port: counter.port, scenario: scenario)
    let measured = try pacedCPUPerGesture(
      counter, socket: page.socket, gestures: gestures, gap: gap,
      repetitions: bench.repetitions, scenario: scenario, message: click)
    bench.record(
      scenario, "Tether counter click", samples: measured.samples, unit: "µs",
      note:
        "CPU per click, idle taken off; \(wakeUps(measured.switchesPerGesture)) thread switches per click"
    )
  } catch {
    invalid("\(scenario): \(error)")
  }
}

/// W6: server CPU per gesture. Each repetition drives `gestures` gestures through one
/// connected socket and divides the child's CPU (utime + stime) by them: the counter's click,
/// the Gallery's ArrowDown/ArrowUp, and the floors answering each message with 31 B: bare
/// SwiftNIO on its event loop, the same after a hop to the main actor and back (the baseline),
/// and Hummingbird alone (the socket, the frames and the HTTP server, with no app behind them). The
/// breakdown row is a click handled in this process by the session registry (decode, view
/// model, render, diff, encode; no socket), wall time per click.
@MainActor
func runW6(_ bench: Bench, gestures: Int) async {
  let scenario = "W6 server CPU per gesture"
  guard procIsReadable(scenario) else { return }
  // The floors, each answering a 28 B message with 31 B: SwiftNIO on its event loop, the same
  // with a hop to the main actor and back (the baseline: the least a server whose sessions
  // live on the main actor can pay), and Hummingbird's WebSocket route.
  let floors: [(ServedKind, String, String)] = [
    (
      .nioHop, "bare SwiftNIO + a main-actor hop",
      "NIOHTTP1 + NIOWebSocket, answered after a hop to the main actor and back"
    ),
    (.nio, "bare SwiftNIO: 28 B in, 31 B out", "the same, answered on the event loop"),
    (.hummingbird, "Hummingbird alone: 28 B in, 31 B out", "a WebSocket route, no app"),
  ]
  for (kind, name, note) in floors {
    do {
      let floor = try ChildServer(kind)
      defer { floor.stop() }
      let socket = try Connection(port: floor.port)
      try socket.upgrade("/ws", port: floor.port)
      let measured = try cpuPerGesture(
        floor, socket: socket, gestures: gestures, repetitions: bench.repetitions,
        scenario: scenario, message: { _ in #"{"type":"click","id":"s1.2"}"# })
      bench.checksum &+= measured.bytesPerGesture
      bench.record(
        scenario, name, baseline: kind == .nioHop, samples: measured.samples, unit: "µs",
        note: note)
    } catch {
      invalid("\(scenario): \(error)")
    }
  }
  do {
    let counter = try ChildServer(.counter)
    defer { counter.stop() }
    let (page, click) = try counterPage(port: counter.port, scenario: scenario)
    let measured = try cpuPerGesture(
      counter, socket: page.socket, gestures: gestures, repetitions: bench.repetitions,
      scenario: scenario, message: { _ in click })
    bench.record(
      scenario, "Tether counter click", samples: measured.samples, unit: "µs",
      note:
        "\(measured.bytesPerGesture) B down per click, \(click.utf8.count) B up; the article's app"
    )
  } catch {
    invalid("\(scenario): \(error)")
  }
  do {
    let showcase = try ChildServer(.showcase)
    defer { showcase.stop() }
    let page = try OpenedPage(port: showcase.port, path: "/gallery")
    var shown = ""
    for _ in 0..<50 where !shown.contains("20 photos") {
      shown += try page.socket.receiveText() ?? ""
    }
    guard shown.contains("20 photos") || page.html.contains("20 photos") else {
      invalid("\(scenario): the Gallery never showed its photos")
    }
    let keys = [ClientMessage.key(.arrowDown).json, ClientMessage.key(.arrowUp).json]
    let measured = try cpuPerGesture(
      showcase, socket: page.socket, gestures: gestures, repetitions: bench.repetitions,
      scenario: scenario, message: { keys[$0 % 2] })
    bench.record(
      scenario, "Tether Gallery selection move", samples: measured.samples, unit: "µs",
      note: "\(measured.bytesPerGesture) B down per key")
  } catch {
    invalid("\(scenario): \(error)")
  }
  // Where a click's time goes: the registry's part, in this process.
  let registry = WebSessionRegistry(app: benchCounterApp, firstRender: .held)
  defer { registry.closeAll() }
  guard case .page(let html, let id) = await registry.page(for: "/"),
    let button = firstAttribute("id", ofTag: "button", in: html)
  else { invalid("\(scenario): no counter page in process") }
  var sent = 0
  _ = registry.attach(id, resync: false) { sent &+= $0.utf8.count }
  let click = ClientMessage.click(id: button).json
  var parts: [Double] = []
  for _ in 0..<bench.repetitions {
    let start = ContinuousClock.now
    for _ in 0..<gestures {
      if let error = await registry.receive(id, click) { invalid("\(scenario): \(error)") }
    }
    parts.append(nanoseconds(ContinuousClock.now - start) / Double(gestures) / 1_000)
  }
  bench.record(
    scenario, "  of the click: the registry", samples: parts, unit: "µs",
    note: "in process, wall time: decode, view model, render, diff, encode; no socket")
  bench.checksum &+= sent
}

/// W7: what an idle connected counter session costs the server. Each repetition starts a
/// fresh child, opens 10 sessions (first-use caches), then 200 more, each a page and its
/// socket with its hello answered, and divides the growth of the child's heap and RSS by 200,
/// 6 s after the last (idle: past the timers a new connection starts) and 0.3 s after it.
/// The baseline is bare SwiftNIO holding 200 idle WebSockets (the server that hops to the
/// main actor per message); beside it SwiftNIO answering on its event loop, Hummingbird alone,
/// and Hummingbird after a page GET and one message each way; the breakdown rows are a connected counter session in this
/// process (the registry's part, no socket).
@MainActor
func runW7(_ bench: Bench, sessions count: Int = 200) async {
  let scenario = "W7 per idle counter session"
  guard procIsReadable(scenario) else { return }
  var heap: [Double] = []
  var heapSoon: [Double] = []
  var resident: [Double] = []
  var floorHeap: [Double] = []
  var floorResident: [Double] = []
  var nioHeap: [Double] = []
  var nioHopHeap: [Double] = []
  var pageAndSocket: [Double] = []
  do {
    for _ in 0..<bench.repetitions {
      let nio = try await growthPerConnection(.nio, count: count) { try upgraded(port: $0) }
      nioHeap.append(nio.heap)
      let nioHop = try await growthPerConnection(.nioHop, count: count) {
        try upgraded(port: $0)
      }
      nioHopHeap.append(nioHop.heap)
      bench.checksum &+= nio.held + nioHop.held
      let floor = try await growthPerConnection(.hummingbird, count: count) {
        try upgraded(port: $0)
      }
      floorHeap.append(floor.heap)
      floorResident.append(floor.resident)
      // Like a page: a GET answered with 1,000 B on a connection that then closes, then the
      // socket, with one message each way (as a hello and its answer).
      let paged = try await growthPerConnection(.hummingbird, count: count) { port in
        let source = LoadSources.next()
        _ = try Connection(port: port, from: source).get("/page", port: port)
        let socket = try upgraded(port: port, from: source)
        try socket.sendText(String(repeating: "x", count: 300))
        _ = try socket.receiveText()
        return socket
      }
      pageAndSocket.append(paged.heap)
      let counter = try await growthPerConnection(.counter, count: count) {
        try connectedPage(port: $0, scenario: scenario)
      }
      heap.append(counter.heap)
      heapSoon.append(counter.soon)
      resident.append(counter.resident)
      bench.checksum &+= floor.held + paged.held + counter.held
    }
  } catch {
    invalid("\(scenario): \(error)")
  }
  bench.record(
    scenario, "bare SwiftNIO + a main-actor hop, heap", baseline: true, samples: nioHopHeap,
    unit: "bytes", note: "an idle WebSocket: NIOHTTP1 + NIOWebSocket, no task per socket")
  bench.record(
    scenario, "bare SwiftNIO, heap per socket", samples: nioHeap, unit: "bytes",
    note: "the same, answering on the event loop")
  bench.record(
    scenario, "Hummingbird alone, heap per socket", samples: floorHeap,
    unit: "bytes", note: "an idle WebSocket, no app")
  bench.record(
    scenario, "Hummingbird alone, a page GET + socket", samples: pageAndSocket, unit: "bytes",
    note: "1,000 B page; the socket: 300 B in, 31 B out")
  bench.record(
    scenario, "Tether counter session, heap", samples: heap, unit: "bytes",
    note: "page + socket + hello, idle (6 s after the last)")
  bench.record(
    scenario, "  the same, 0.3 s after the last", samples: heapSoon, unit: "bytes",
    note: "with timers that end within 5 s of connecting")
  bench.record(
    scenario, "Hummingbird alone, RSS per socket", samples: floorResident, unit: "bytes")
  bench.record(scenario, "Tether counter session, RSS", samples: resident, unit: "bytes")
  // The registry's part: a connected counter session in this process, no socket. The server
  // serves stateless pages (`FirstRender.stateless`): the page's session is closed once the
  // page is drawn, and the socket's hello rebuilds it from the page's token.
  guard allocatedBytes() != nil else { return }
  for firstRender in [WebSessionRegistry.FirstRender.stateless, .held] {
    var parts: [Double] = []
    for round in 0..<(2 + bench.repetitions) {
      let before = allocatedBytes() ?? 0
      let registry = WebSessionRegistry(
        app: benchCounterApp, capacity: count, firstRender: firstRender, signing: .hmacSHA256)
      for _ in 0..<count {
        guard case .page(let html, let id) = await registry.page(for: "/") else {
          invalid("\(scenario): no counter page in process")
        }
        if firstRender == .stateless {
          guard let token = resumeToken(inPage: html),
            case .rebuilt = await registry.resume(id, token: token)
          else { invalid("\(scenario): a stateless page's session was not rebuilt") }
        }
        guard registry.attach(id, resync: firstRender == .stateless, send: { _ in }) != nil else {
          invalid("\(scenario): no counter session in process")
        }
      }
      if round >= 2 { parts.append(Double((allocatedBytes() ?? 0) - before) / Double(count)) }
      registry.closeAll()
      for _ in 0..<100 { await Task.yield() }
    }
    bench.record(
      scenario,
      firstRender == .stateless
        ? "  of it: the session, in process" : "  the same, its page's session held",
      samples: parts, unit: "bytes",
      note: firstRender == .stateless
        ? "as the server makes it: rebuilt from the page's token; stack, view model, view, page tree"
        : "FirstRender.held: no token, no rebuild")
  }
}

/// Starts a fresh `kind` child, opens 10 connections (first-use caches), then `count` more,
/// and returns the growth of the child's heap per connection 0.3 s after the last (`soon`),
/// and of its heap and RSS once idle, 6 s after the last: past every timer a connection
/// starts (the 5 s wait for a socket's hello, a closed page session's last tasks). Also how
/// many connections were held.
@MainActor
private func growthPerConnection<Held>(
  _ kind: ServedKind, count: Int, open: (Int) throws -> Held
) async throws -> (soon: Double, heap: Double, resident: Double, held: Int) {
  let child = try ChildServer(kind)
  defer { child.stop() }
  var held: [Held] = []
  for _ in 0..<10 { held.append(try open(child.port)) }
  let (heapBefore, residentBefore) = (try child.heapBytes(), try child.residentBytes())
  for _ in 0..<count { held.append(try open(child.port)) }
  try await Task.sleep(for: .milliseconds(300))
  let soon = Double(try child.heapBytes() - heapBefore) / Double(count)
  try await Task.sleep(for: .milliseconds(5_700))
  let heap = Double(try child.heapBytes() - heapBefore) / Double(count)
  let resident = Double(try child.residentBytes() - residentBefore) / Double(count)
  return (soon, heap, resident, held.count)
}

/// Whether the child's CPU and memory can be read (Linux's /proc); says so when not.
func procIsReadable(_ scenario: String) -> Bool {
  #if os(Linux)
    return true
  #else
    print("\(scenario): not measured (reads the child server's /proc)")
    return false
  #endif
}

/// A WebSocket upgraded at `/ws` from an address of its own (or from `source`).
private func upgraded(port: Int, from source: String? = LoadSources.next()) throws -> Connection {
  let socket = try Connection(port: port, from: source)
  try socket.upgrade("/ws", port: port)
  return socket
}

/// A counter page whose socket has sent its hello and been answered.
private func connectedPage(port: Int, scenario: String) throws -> OpenedPage {
  let page = try OpenedPage(port: port)
  guard try page.socket.receiveText() != nil else {
    invalid("\(scenario): a counter session sent nothing after its hello")
  }
  return page
}
