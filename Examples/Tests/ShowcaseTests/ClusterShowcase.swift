import Foundation
import ShowcaseBrowser
import ShowcaseWeb
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `showcase-cluster` binary beside the test bundle.
let clusterBinary = builtProduct(named: "showcase-cluster")

/// Whether HAProxy is installed where `showcase-cluster` looks for it.
let haproxyIsInstalled = [
  "/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy",
  "/usr/local/bin/haproxy", "/opt/homebrew/bin/haproxy",
].contains {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// Why the cluster under test misbehaved.
struct ClusterTestError: Error, CustomStringConvertible {
  let description: String
}

/// `showcase-cluster --nodes N --port 0` in a child process: its front URL, and each node's
/// port and current pid as its output tells (a node that dies is started again).
final class ClusterShowcase: Sendable {
  let process: Process
  let url: String
  private let lines: LineLog

  init(nodes: Int = 3, arguments: [String] = []) async throws {
    guard let binary = clusterBinary else {
      throw ClusterTestError(description: "build it first: swift build --product showcase-cluster")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--nodes", String(nodes), "--port", "0", "--stats"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let lines = LineLog()
    // Every line, as it comes, for the whole run: nodes say when they start again.
    let reader = output.fileHandleForReading
    Thread.detachNewThread {
      var pending = ""
      while true {
        let data = reader.availableData
        if data.isEmpty { break }
        pending += String(decoding: data, as: UTF8.self)
        while let newline = pending.firstIndex(of: "\n") {
          let line = String(pending[..<newline])
          pending.removeSubrange(...newline)
          lines.lines.withLock { $0.append(line) }
        }
      }
    }
    try process.run()
    self.process = process
    self.lines = lines
    let deadline = ContinuousClock.now + .seconds(60)
    var found: String?
    while found == nil, ContinuousClock.now < deadline, process.isRunning {
      found = lines.lines.withLock { lines in
        lines.lazy.compactMap { ClusterAnnouncement.servingPort(in: $0) }.first
      }.map { "http://127.0.0.1:\($0)" }
      try await Task.sleep(for: .milliseconds(50))
    }
    guard let found else {
      process.terminate()
      throw ClusterTestError(
        description: "showcase-cluster printed no URL: \(lines.lines.withLock { $0 })")
    }
    url = found
  }

  /// Everything it printed so far.
  var output: [String] { lines.lines.withLock { $0 } }

  /// Each node's port and newest pid, by node number.
  var nodes: [Int: (port: Int, pid: Int32)] { ClusterAnnouncement.nodes(in: output) }

  /// Each node's connected sockets, by node number, once two readings 200 ms apart agree.
  func connectedByNode() async throws -> [Int: Int] {
    var previous: [Int: Int] = [:]
    for _ in 0..<50 {
      var now: [Int: Int] = [:]
      for (number, node) in nodes {
        now[number] = (try? await WebServerStats.read(port: node.port))?.connected ?? -1
      }
      if now == previous, !now.values.contains(-1) { return now }
      previous = now
      try await Task.sleep(for: .milliseconds(200))
    }
    throw ClusterTestError(description: "the nodes' stats never settled: \(previous)")
  }

  /// Sends SIGTERM and waits; the exit status, or `nil` if it took over 10 s.
  func stop() async -> Int32? {
    process.terminate()
    for _ in 0..<200 {
      if !process.isRunning { return process.terminationStatus }
      try? await Task.sleep(for: .milliseconds(50))
    }
    kill(process.processIdentifier, SIGKILL)
    return nil
  }
}

/// Lines read on one thread, looked at from others.
final class LineLog: Sendable {
  let lines = Mutex<[String]>([])
}

extension WebServerStats {
  /// One node's `/stats`, read directly (not through HAProxy).
  /// Over a plain socket: FoundationNetworking's `URLSession.data(from:)` deadlocked with
  /// another request in flight in this process once (a CI run hung with a thread in each).
  static func read(port: Int) async throws -> WebServerStats {
    try WebServerStats(json: RawHTTPResponse.get("/stats", port: port).body)
  }
}
