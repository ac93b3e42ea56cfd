import ArgumentParser
import Foundation

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
      Exits 1 if any check fails.
      """)

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

  @Option(help: "Heap growth allowed after everything closed, in KiB, over the baseline.")
  var heapToleranceKiB = 4096

  func validate() throws {
    guard (1...2000).contains(sessions) else { throw ValidationError("--sessions: 1...2000") }
    guard (1...3600).contains(seconds) else { throw ValidationError("--seconds: 1...3600") }
    guard (0...10_000).contains(thinkMs) else { throw ValidationError("--think-ms: 0...10000") }
    guard (0...200).contains(badClients) else { throw ValidationError("--bad-clients: 0...200") }
  }

  func run() throws {
    let binary =
      server
      ?? URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appending(path: "showcase").path
    let process = try ServerProcess(binary: binary)
    defer { process.stop() }
    let port = process.port
    print("server: \(binary) --web on 127.0.0.1:\(port), sessions expire 1 s after their socket")

    // Warm-up: one-time allocations (assets, the bundled catalog) are not a leak.
    let warmUp = LoadRecorder()
    runClients(
      count: 2, port: port, seconds: 1, think: .milliseconds(0), badClients: 0,
      recorder: warmUp)
    let baseline = try waitForAllClosed(port: port)

    let recorder = LoadRecorder()
    let peak = PeakWatcher(port: port)
    let started = Date()
    runClients(
      count: sessions, port: port, seconds: seconds, think: .milliseconds(thinkMs),
      badClients: badClients, recorder: recorder)
    let elapsed = Date().timeIntervalSince(started)
    let highest = peak.stop()
    let after = try waitForAllClosed(port: port)
    let state = recorder.snapshot

    let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    let growth = after.heapBytes - baseline.heapBytes
    let badRuns = BadClient.allCases.map {
      "\(state.badClientRuns[$0.rawValue] ?? 0) \($0.rawValue)"
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
      not handled: \(state.badClientFailures.count); the server refused \
      \(process.logLines(containing: "refused")) messages and logged \
      \(process.logLines(containing: "socket ended")) broken sockets
      memory (heap in use): before \(mib(baseline.heapBytes)), peak \(mib(highest.heapBytes)), \
      after \(mib(after.heapBytes)) (\(growth >= 0 ? "+" : "")\(growth / 1024) KiB)
      sessions open: peak \(highest.sessions), after \(after.sessions); \
      view models alive: peak \(highest.liveViewModels), after \(after.liveViewModels)
      """)
    for line in (state.errors + state.isolationViolations + state.badClientFailures).prefix(10) {
      print("  ! \(line)")
    }
    var failures: [String] = []
    if state.sessionsCompleted != sessions { failures.append("not every session completed") }
    if !state.errors.isEmpty { failures.append("well-formed sessions saw errors") }
    if !state.isolationViolations.isEmpty { failures.append("a session saw another's data") }
    if !state.badClientFailures.isEmpty { failures.append("a misbehaving client was mishandled") }
    if after.liveViewModels != 0 { failures.append("view models outlived their sessions") }
    if growth > heapToleranceKiB * 1024 { failures.append("the heap did not return to baseline") }
    guard failures.isEmpty else {
      print("FAILED: \(failures.joined(separator: "; "))")
      throw ExitCode(1)
    }
    print("PASSED")
  }

  private func format(_ value: Double) -> String { String(format: "%.1f", value) }

  /// Runs `count` sessions and `badClients` misbehaving threads until `seconds` have passed.
  private func runClients(
    count: Int, port: Int, seconds: Int, think: Duration, badClients: Int, recorder: LoadRecorder
  ) {
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
    for index in 0..<count {
      start {
        runSession(index: index, port: port, deadline: deadline, think: think, recorder: recorder)
      }
    }
    for worker in 0..<badClients {
      start {
        var turn = worker
        while Date() < deadline {
          let kind = BadClient.allCases[turn % BadClient.allCases.count]
          let failure = kind.run(port: port, until: deadline)
          recorder.update {
            $0.badClientRuns[kind.rawValue, default: 0] += 1
            if let failure { $0.badClientFailures.append(failure) }
          }
          turn += 1
          Thread.sleep(forTimeInterval: 0.1)
        }
      }
    }
    group.wait()
  }

  /// Waits until the server has no session open (the grace period ran out), then reads it.
  private func waitForAllClosed(port: Int) throws -> ServerStats {
    let deadline = Date().addingTimeInterval(60)
    while true {
      let stats = try ServerStats.read(port: port)
      if stats.sessions == 0 || Date() > deadline { return stats }
      Thread.sleep(forTimeInterval: 0.25)
    }
  }
}

/// Polls `/stats` twice a second and keeps the highest figures.
final class PeakWatcher: Sendable {
  private let highest = LockedStats()
  private let done = LockedFlag()

  init(port: Int) {
    let highest = self.highest
    let done = self.done
    Thread.detachNewThread {
      while !done.value {
        if let stats = try? ServerStats.read(port: port) { highest.raise(to: stats) }
        Thread.sleep(forTimeInterval: 0.5)
      }
    }
  }

  func stop() -> ServerStats {
    done.set()
    return highest.value
  }
}
