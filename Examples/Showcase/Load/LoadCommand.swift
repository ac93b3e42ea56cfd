import ArgumentParser
import Foundation
import LoopbackClient
import ShowcaseWeb
import Synchronization
import TetherWeb
import TodosStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `showcase-load`: the web showcase under load and faults, on loopback, with figures.
@main
struct LoadCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "showcase-load",
    abstract: "Drives the web showcase with many sessions and misbehaving clients; prints figures.",
    discussion: """
      Starts `showcase --web` (the binary beside this one) on a free loopback port, warms it
      up, then runs --sessions well-formed sessions touring the Gallery for --seconds, while
      --bad-clients threads cut frames, send malformed, oversized and unmasked frames, open
      sockets to missing sessions and never read. Then it closes everything and checks:
      zero errors and no cross-session data for the well-formed sessions, every misbehaving
      client handled, no view model alive, and the heap back near its baseline.
      With --cluster N it starts `showcase-cluster` (beside this tool) instead: N nodes
      behind HAProxy, and --kill-every S kills one node with SIGKILL every S seconds (the
      cluster starts it again); sessions whose socket breaks resume through HAProxy on
      another node and retry the broken gesture once. Then every node is checked.
      With --scenario todos the sessions are TodoMVC tabs in pairs, one pair per simulated
      browser (its own cookie, so its own list): one tab adds, edits and deletes items with
      numbered gestures it sends again after a node's death until they are acknowledged, the
      other watches; at the end every list is read from the database (the server's SQLite file,
      or the cluster's PostgreSQL: a throwaway server this tool starts unless --database) and
      compared with what its tab did: lost, duplicated and leaked writes are counted.
      Exits 1 if any check fails.
      """)

  /// What the well-formed sessions do.
  enum Scenario: String, ExpressibleByArgument, CaseIterable {
    /// Tour the Gallery.
    case gallery
    /// Change and watch TodoMVC lists, two tabs per list.
    case todos
    /// Figures only: heap per tab of a 600-item list, and another visitor's add latency while
    /// sockets type into 1,000-item lists (``TypingFigures``).
    case typing
    /// Figures only: another visitor's page load and add while 1 and 8 attackers switch a
    /// 1,000-item list's filters (reading or not) or flood pings (``AttackFigures``).
    case attack
  }

  @Option(
    help: """
      What the sessions do: gallery, todos (pairs of tabs on TodoMVC lists), typing (figures only: heap per tab of a 600-item list, and a visitor's add latency while 0, 1 and 8 sockets type into 1,000-item lists), or attack (figures only: a visitor's page load and add while attackers switch a 1,000-item list's filters or flood pings).
      """)
  var scenario = Scenario.gallery

  @Option(
    help: """
      With --scenario todos and --cluster: the cluster's PostgreSQL database; default: a \
      throwaway server this tool starts and stops.
      """)
  var database: String?

  @Option(help: "Well-formed sessions, all at once.")
  var sessions = 200

  @Option(help: "How long each session tours the Gallery.")
  var seconds = 60

  @Option(help: "Milliseconds a session waits between gestures.")
  var thinkMs = 100

  @Option(help: "Threads running misbehaving clients, one kind after another.")
  var badClients = 12

  @Option(help: "The showcase binary to start (default: the one beside this tool).")
  var server: String?

  @Option(help: "Run against this many nodes behind HAProxy (showcase-cluster); 0: one server.")
  var cluster = 0

  @Option(help: "With --cluster: kill one node (SIGKILL) every this many seconds; 0: never.")
  var killEvery = 0.0

  @Option(help: "With --cluster: the showcase-cluster binary (default: the one beside this tool).")
  var clusterBinary: String?

  @Option(help: .hidden)
  var figureScale = 1.0

  @Option(help: "Heap growth allowed after everything closed, in KiB, over the baseline.")
  var heapToleranceKiB = 4096

  @Option(help: "Seconds to wait, once every session closed, for the heap to come back.")
  var heapWaitSeconds = 75

  func validate() throws {
    guard (1...2000).contains(sessions) else { throw ValidationError("--sessions: 1...2000") }
    guard (1...3600).contains(seconds) else { throw ValidationError("--seconds: 1...3600") }
    guard (0...10_000).contains(thinkMs) else { throw ValidationError("--think-ms: 0...10000") }
    guard (0...200).contains(badClients) else { throw ValidationError("--bad-clients: 0...200") }
    guard (0...16).contains(cluster) else { throw ValidationError("--cluster: 0...16") }
    guard killEvery >= 0, killEvery == 0 || cluster > 0 else {
      throw ValidationError("--kill-every needs --cluster and seconds of 0 or more")
    }
    guard (0...600).contains(heapWaitSeconds) else {
      throw ValidationError("--heap-wait-seconds: 0...600")
    }
    guard scenario != .todos || sessions % 2 == 0 else {
      throw ValidationError("--scenario todos needs an even number of --sessions (tab pairs)")
    }
  }

  func run() throws {
    let folder = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
    // TodoMVC's lists go where this run can read them at the end.
    let dataFolder = FileManager.default.temporaryDirectory
      .appending(path: "showcase-load-\(UUID().uuidString)").path
    var throwaway: ThrowawayPostgres?
    var databaseURL: String?
    if cluster > 0, scenario == .todos {
      if let database {
        databaseURL = database
      } else {
        let started = try ThrowawayPostgres.start()
        throwaway = started
        databaseURL = started.url
      }
    }
    defer {
      throwaway?.stop()
      try? FileManager.default.removeItem(atPath: dataFolder)
    }
    if scenario == .attack {
      let binary = server ?? folder.appending(path: "showcase").path
      let process = try ServerProcess(binary: binary, arguments: ["--data", dataFolder])
      defer { process.stop() }
      print("server: \(binary) --web on 127.0.0.1:\(process.port)")
      var figures = AttackFigures(port: process.port)
      figures.list = Int((1_000 * figureScale).rounded())
      try figures.run()
      return
    }
    if scenario == .typing {
      let binary = server ?? folder.appending(path: "showcase").path
      let process = try ServerProcess(binary: binary, arguments: ["--data", dataFolder])
      defer { process.stop() }
      print("server: \(binary) --web on 127.0.0.1:\(process.port)")
      var figures = TypingFigures(port: process.port, adds: Int((100 * figureScale).rounded()))
      figures.bigList = Int((600 * figureScale).rounded())
      figures.typedList = Int((1_000 * figureScale).rounded())
      try figures.run()
      return
    }
    let target: any LoadTarget
    let clusterProcess: ClusterProcess?
    if cluster > 0 {
      let binary = clusterBinary ?? folder.appending(path: "showcase-cluster").path
      let process = try ClusterProcess(
        binary: binary, nodes: cluster, arguments: databaseURL.map { ["--database", $0] } ?? [])
      clusterProcess = process
      target = process
      print(
        "cluster: \(binary), \(cluster) nodes behind HAProxy on 127.0.0.1:\(process.port), "
          + "sessions expire 1 s after their socket"
          + (killEvery > 0 ? ", one node killed every \(format(killEvery)) s" : ""))
    } else {
      let binary = server ?? folder.appending(path: "showcase").path
      target = try ServerProcess(binary: binary, arguments: ["--data", dataFolder])
      clusterProcess = nil
      print(
        "server: \(binary) --web on 127.0.0.1:\(target.port), sessions expire 1 s after their socket"
      )
    }
    defer { target.stop() }
    let port = target.port
    let nodePorts = target.nodePorts

    // Warm-up: one-time allocations (assets, the bundled catalog) are not a leak. Through a
    // balancer, enough sessions that every node gets some.
    let warmUp = LoadRecorder()
    runClients(
      count: 2 * max(1, cluster), port: port, seconds: 1, think: .milliseconds(0), badClients: 0,
      scenario: .gallery, recorder: warmUp)
    let baselines = try nodePorts.map { try waitForAllClosed(port: $0) }

    let recorder = LoadRecorder()
    let peak = PeakWatcher(ports: nodePorts)
    let started = Date()
    let killer = clusterProcess.flatMap { process in
      killEvery > 0
        ? NodeKiller(
          cluster: process, every: killEvery, until: started.addingTimeInterval(Double(seconds)),
          recorder: recorder) : nil
    }
    // Each browser's cookie is one the server issued (it takes no other), from a first page.
    var browsers: [TodoLoadBrowser] = []
    if scenario == .todos {
      for number in 0..<(sessions / 2) {
        let issued = try Connection.issuedCookie(port: port, path: "/todos")
        browsers.append(
          TodoLoadBrowser(number: number, clientID: issued.clientID, cookie: issued.cookie))
      }
    }
    let written = runClients(
      count: sessions, port: port, seconds: seconds, think: .milliseconds(thinkMs),
      badClients: badClients, scenario: scenario, browsers: browsers, recorder: recorder)
    killer?.wait()
    let elapsed = Date().timeIntervalSince(started)
    let highest = peak.stop()
    // A killed node is back by now (or the check below says it is not). Memory that outlives
    // the sessions for a while — a database pool's idle connections, closed after 60 s — is
    // waited for, and the wait reported.
    let closed = ContinuousClock.now
    var afters = try nodePorts.map { try waitForAllClosed(port: $0) }
    while zip(baselines, afters).contains(where: { $1.heap - $0.heap > heapToleranceKiB * 1024 }),
      ContinuousClock.now - closed < .seconds(heapWaitSeconds)
    {
      Thread.sleep(forTimeInterval: 1)
      afters = try nodePorts.map { try waitForAllClosed(port: $0) }
    }
    let heapWait = (ContinuousClock.now - closed).components.seconds
    let state = recorder.snapshot

    let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    let growths = zip(baselines, afters).map { $1.heap - $0.heap }
    let badRuns = BadClient.allCases.map {
      "\(state.badClientRuns[$0.rawValue] ?? 0) \($0.rawValue)"
    }
    let memory = zip(baselines, afters).enumerated().map { index, pair in
      let growth = pair.1.heap - pair.0.heap
      return (nodePorts.count > 1 ? "node \(index + 1): " : "")
        + "before \(mib(pair.0.heap)), after \(mib(pair.1.heap)) "
        + "(\(growth >= 0 ? "+" : "")\(growth / 1024) KiB)"
    }
    print(
      """
      sessions: \(state.sessionsStarted) started, \(state.sessionsCompleted) completed, \
      \(sessions) × \(seconds) s, \(thinkMs) ms between gestures
      requests: \(state.requests) gestures answered (\(Int(Double(state.requests) / elapsed))/s), \
      errors: \(state.errors.count), isolation violations: \(state.isolationViolations.count)
      latency: p50 \(format(percentile(state.latencies, 50))) ms, \
      p99 \(format(percentile(state.latencies, 99))) ms, \
      max \(format(state.latencies.max() ?? 0)) ms
      misbehaving clients: \(badRuns.joined(separator: ", ")); \
      not handled: \(state.badClientFailures.count), cut short by a node kill: \
      \(state.badClientRunsCutByKill); the server refused \
      \(target.logLines(containing: "refused a message")) messages and logged \
      \(target.logLines(containing: "socket ended")) broken sockets
      memory (heap in use): \(memory.joined(separator: "; ")); peak \(mib(highest.heap)) \
      over all nodes; read \(heapWait) s after every session closed
      sessions open: peak \(highest.sessions), after \(afters.map(\.sessions).reduce(0, +)); \
      view models alive: peak \(highest.liveViewModels), after \
      \(afters.map(\.liveViewModels).reduce(0, +))
      """)
    if let clusterProcess {
      print(
        """
        nodes killed: \(state.kills) (the cluster restarted \(clusterProcess.restarts)); \
        reconnects: \(state.reconnects.count), p50 \(format(percentile(state.reconnects, 50))) ms, \
        p99 \(format(percentile(state.reconnects, 99))) ms, max \(format(state.reconnects.max() ?? 0)) ms; \
        gestures retried once: \(state.retriedGestures), lost after the retry: \(state.lostGestures)
        """)
    }
    var listCheck: TodoListCheck?
    if scenario == .todos {
      let check = TodoListCheck.run(
        browsers: browsers, written: written, databaseURL: databaseURL,
        sqlitePath: dataFolder + "/todos.sqlite")
      listCheck = check
      let total =
        state.livePatches.count + state.liveAfterReconnect + state.liveNeverSeen
        + state.liveReplaced
      print(
        """
        todos: \(check.lists) lists (\(check.items) items) read from \(check.store) and compared \
        with what their tabs did: lost writes \(check.lost), duplicated writes \(check.duplicated), \
        cross-list leaks \(check.leaked)\(check.failure.map { "; could not read: \($0)" } ?? "")
        writes (gesture → acknowledged, committed): p50 \(format(percentile(state.latencies, 50))) ms, \
        p99 \(format(percentile(state.latencies, 99))) ms, max \(format(state.latencies.max() ?? 0)) ms
        the other tab (gesture → its patch): p50 \(format(percentile(state.livePatches, 50))) ms, \
        p99 \(format(percentile(state.livePatches, 99))) ms; commit → patch: p50 \
        \(format(percentile(state.commitToPatch, 50))) ms, p99 \
        \(format(percentile(state.commitToPatch, 99))) ms; of \(total) changes \
        \(state.livePatches.count) arrived as patches, \(state.liveAfterReconnect) in the redraw \
        after the watching tab's node died, \(state.liveReplaced) were replaced by a later change to \
        the same item first, \(state.liveNeverSeen) never
        """)
      for line in (check.problems + state.liveUnseen).prefix(10) { print("  ! \(line)") }
    }
    for line in (state.errors + state.isolationViolations + state.badClientFailures).prefix(10) {
      print("  ! \(line)")
    }
    var failures: [String] = []
    if state.sessionsCompleted != sessions { failures.append("not every session completed") }
    if let listCheck {
      if listCheck.failure != nil { failures.append("the lists could not be read back") }
      if listCheck.lost > 0 { failures.append("writes were lost") }
      if listCheck.duplicated > 0 { failures.append("writes were applied twice") }
      if listCheck.leaked > 0 { failures.append("an item reached another browser's list") }
      if listCheck.lists != browsers.count { failures.append("not every list was checked") }
      if state.liveNeverSeen > 0 { failures.append("a change never reached the other tab") }
    }
    if !state.errors.isEmpty { failures.append("well-formed sessions saw errors") }
    if state.lostGestures > 0 { failures.append("gestures were lost") }
    if !state.isolationViolations.isEmpty { failures.append("a session saw another's data") }
    if !state.badClientFailures.isEmpty { failures.append("a misbehaving client was mishandled") }
    if afters.contains(where: { $0.liveViewModels != 0 }) {
      failures.append("view models outlived their sessions")
    }
    if growths.contains(where: { $0 > heapToleranceKiB * 1024 }) {
      failures.append("the heap did not return to baseline")
    }
    if let clusterProcess, killEvery > 0 {
      let expected = Int((Double(seconds) / killEvery).rounded(.up)) - 1
      if state.kills < max(1, expected) { failures.append("fewer nodes were killed than planned") }
      if clusterProcess.restarts < state.kills {
        failures.append("a killed node was not restarted")
      }
      if state.reconnects.isEmpty { failures.append("no session had to reconnect") }
    }
    guard failures.isEmpty else {
      print("FAILED: \(failures.joined(separator: "; "))")
      throw ExitCode(1)
    }
    print("PASSED")
  }

  private func format(_ value: Double) -> String { String(format: "%.1f", value) }

  /// Runs `count` sessions and `badClients` misbehaving threads until `seconds` have passed;
  /// for TodoMVC, returns what each browser's writing tab left in its list, by browser number.
  @discardableResult
  private func runClients(
    count: Int, port: Int, seconds: Int, think: Duration, badClients: Int, scenario: Scenario,
    browsers: [TodoLoadBrowser] = [], recorder: LoadRecorder
  ) -> [Int: [TodoItemWritten]] {
    let deadline = Date().addingTimeInterval(TimeInterval(seconds))
    let group = DispatchGroup()
    func start(_ body: @escaping @Sendable () -> Void) {
      group.enter()
      let thread = Thread {
        body()
        group.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    let written = Mutex<[Int: [TodoItemWritten]]>([:])
    switch scenario {
    case .gallery:
      for index in 0..<count {
        start {
          runSession(
            index: index, port: port, deadline: deadline, think: think, recorder: recorder)
        }
      }
    case .todos:
      for browser in browsers {
        start {
          let items = runTodoBrowser(
            browser, port: port, deadline: deadline, think: think, recorder: recorder)
          if let items { written.withLock { $0[browser.number] = items } }
        }
      }
    case .typing, .attack:
      break  // figures of their own (``TypingFigures``, ``AttackFigures``), run before any client
    }
    for worker in 0..<badClients {
      start {
        var turn = worker
        while Date() < deadline {
          let kind = BadClient.allCases[turn % BadClient.allCases.count]
          let killsBefore = recorder.snapshot.kills
          let failure = kind.run(port: port, until: deadline)
          recorder.update {
            $0.badClientRuns[kind.rawValue, default: 0] += 1
            guard let failure else { return }
            // A node killed under a misbehaving client cuts its socket: that says nothing of
            // how the server handles the client, so it is counted apart, not as handled.
            if $0.kills != killsBefore, failure.isCutConnection {
              $0.badClientRunsCutByKill += 1
            } else {
              $0.badClientFailures.append(failure.description)
            }
          }
          turn += 1
          Thread.sleep(forTimeInterval: 0.1)
        }
      }
    }
    group.wait()
    return written.withLock { $0 }
  }

  /// Waits until the server has no session open (the grace period ran out), then reads it.
  /// A node that is starting again after a kill is waited for too.
  private func waitForAllClosed(port: Int) throws -> WebServerStats {
    let deadline = Date().addingTimeInterval(60)
    while true {
      do {
        let stats = try WebServerStats.read(port: port)
        if stats.sessions == 0 || Date() > deadline { return stats }
      } catch {
        if Date() > deadline { throw error }
      }
      Thread.sleep(forTimeInterval: 0.25)
    }
  }
}

/// Kills one node with SIGKILL every `every` seconds until `until`, round robin over the
/// nodes, and counts the kills.
final class NodeKiller: Sendable {
  private let done = DispatchSemaphore(value: 0)

  init(cluster: ClusterProcess, every: Double, until: Date, recorder: LoadRecorder) {
    let done = self.done
    Thread.detachNewThread {
      var next = 0
      var when = Date().addingTimeInterval(every)
      while when < until {
        Thread.sleep(until: when)
        if cluster.kill(node: next % cluster.nodeCount + 1) {
          recorder.update { $0.kills += 1 }
        }
        next += 1
        when = when.addingTimeInterval(every)
      }
      done.signal()
    }
  }

  func wait() { done.wait() }
}

/// Polls every node's `/stats` twice a second and keeps the highest sums.
final class PeakWatcher: Sendable {
  private let highest = LockedStats()
  private let done = LockedFlag()

  init(ports: [Int]) {
    let highest = self.highest
    let done = self.done
    Thread.detachNewThread {
      while !done.value {
        let all = ports.compactMap { try? WebServerStats.read(port: $0) }
        highest.raise(
          to: WebServerStats(
            sessions: all.map(\.sessions).reduce(0, +),
            connected: all.map(\.connected).reduce(0, +),
            liveViewModels: all.map(\.liveViewModels).reduce(0, +),
            heapBytes: all.map(\.heap).reduce(0, +)))
        Thread.sleep(forTimeInterval: 0.5)
      }
    }
  }

  func stop() -> WebServerStats {
    done.set()
    return highest.value
  }
}
