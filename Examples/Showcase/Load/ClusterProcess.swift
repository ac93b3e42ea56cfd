import Foundation
import LoopbackClient
import ShowcaseWeb
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a load run drives: one `showcase --web`, or a cluster of them behind HAProxy.
protocol LoadTarget: AnyObject {
  /// Where the clients connect.
  var port: Int { get }
  /// Each node's own port, for its `/stats` (one entry for a single server).
  var nodePorts: [Int] { get }
  /// The servers' log (stderr): one line per refused message or closed socket.
  var logFile: URL { get }
  /// Stops the server(s) and removes the log.
  func stop()
}

extension LoadTarget {
  /// How many lines of the servers' log contain `text`.
  func logLines(containing text: String) -> Int {
    let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    return log.split(separator: "\n").filter { $0.contains(text) }.count
  }
}

extension ServerProcess: LoadTarget {
  var nodePorts: [Int] { [port] }
}

/// `showcase-cluster --nodes N --port 0` in a child process: HAProxy's port, and each node's
/// port and current pid as the cluster's output tells (it starts a killed node again).
final class ClusterProcess: LoadTarget, @unchecked Sendable {
  // @unchecked: `process` and `port` are set once in `init`; the output lines are behind a lock.
  let port: Int
  let nodeCount: Int
  private let process = Process()
  private let lines = Mutex<[String]>([])
  let logFile = URL(filePath: NSTemporaryDirectory())
    .appending(path: "showcase-load-cluster-\(UUID().uuidString).log")

  /// - Parameters:
  ///   - binary: The `showcase-cluster` binary.
  ///   - nodes: How many nodes.
  ///   - arguments: More arguments (such as `--database URL`).
  /// - Throws: ``LaunchError`` when it is not built or never says where it listens.
  init(binary: String, nodes: Int, arguments: [String] = []) throws {
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw LaunchError.noBinary(path: binary, product: "showcase-cluster")
    }
    nodeCount = nodes
    process.executableURL = URL(filePath: binary)
    process.arguments =
      ["--nodes", String(nodes), "--port", "0", "--session-grace", "1", "--stats"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: logFile)
    try process.run()
    let reader = output.fileHandleForReading
    let deadline = Date().addingTimeInterval(60)
    var pending = ""
    var found: Int?
    while found == nil, Date() < deadline {
      let data = reader.availableData
      if data.isEmpty { break }
      pending += String(decoding: data, as: UTF8.self)
      while let newline = pending.firstIndex(of: "\n") {
        let line = String(pending[..<newline])
        pending.removeSubrange(...newline)
        lines.withLock { $0.append(line) }
        found = found ?? ClusterAnnouncement.servingPort(in: line)
      }
    }
    guard let found else {
      process.terminate()
      let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
      throw LaunchError.didNotStart(
        program: "showcase-cluster", output: "\(lines.withLock { $0 }) \(log.suffix(300))")
    }
    port = found
    // The rest of its output, as it comes: a restarted node says so with its new pid.
    let leftover = pending
    Thread.detachNewThread { [self] in
      var rest = leftover
      while true {
        let data = reader.availableData
        if data.isEmpty { break }
        rest += String(decoding: data, as: UTF8.self)
        while let newline = rest.firstIndex(of: "\n") {
          let line = String(rest[..<newline])
          rest.removeSubrange(...newline)
          lines.withLock { $0.append(line) }
        }
      }
    }
  }

  /// Each node's port and newest pid, by node number.
  var nodes: [Int: (port: Int, pid: Int32)] {
    ClusterAnnouncement.nodes(in: lines.withLock { $0 })
  }

  var nodePorts: [Int] { nodes.keys.sorted().compactMap { nodes[$0]?.port } }

  /// How many times the cluster said a node ended and was started again.
  var restarts: Int { ClusterAnnouncement.restarts(in: lines.withLock { $0 }) }

  /// Kills node `number` with SIGKILL, as a crash or the OOM killer would.
  func kill(node number: Int) -> Bool {
    guard let pid = nodes[number]?.pid else { return false }
    return killProcess(pid)
  }

  func stop() {
    defer { try? FileManager.default.removeItem(at: logFile) }
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }
}

/// Sends SIGKILL to `pid`.
private func killProcess(_ pid: Int32) -> Bool {
  kill(pid, SIGKILL) == 0
}
