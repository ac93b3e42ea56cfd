import Dispatch
import Foundation
import ShowcaseWeb
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How to start one node: a binary and its arguments, before `--port` and `--session-grace`.
struct NodeCommand: Sendable {
  var binary: String
  var arguments: [String]
}

/// Why the cluster could not start.
enum ClusterError: Error, CustomStringConvertible {
  case nodeDidNotStart(node: Int, output: String)
  case noFreePort(errno: Int32)
  case haproxyDidNotStart(String)

  var description: String {
    switch self {
    case .nodeDidNotStart(let node, let output):
      "node \(node) did not say where it listens: \(output.prefix(300))"
    case .noFreePort(let errno): "no free loopback port (errno \(errno))"
    case .haproxyDidNotStart(let detail): "haproxy did not start: \(detail)"
    }
  }
}

/// The nodes and HAProxy: starts them, starts a node again on its port when it dies, stops
/// them all on SIGTERM or SIGINT.
final class Cluster: Sendable {
  private let nodeCount: Int
  private let nodeCommand: NodeCommand
  private let sessionGrace: Double
  private let haproxyPath: String
  private let key: String
  private let databaseURL: String
  /// Where HAProxy's generated configuration lives while the cluster runs.
  private let folder = URL(filePath: NSTemporaryDirectory())
    .appending(path: "showcase-cluster-\(ProcessInfo.processInfo.processIdentifier)")
  private let state = Mutex(State())

  private struct State {
    var nodes: [Int: Process] = [:]
    var ports: [Int: Int] = [:]
    var haproxy: Process?
    var stopping = false
    var finished: CheckedContinuation<Int32, Never>?
    var status: Int32?
  }

  init(
    nodes: Int, nodeCommand: NodeCommand, sessionGrace: Double, haproxy: String,
    databaseURL: String
  ) {
    nodeCount = nodes
    self.databaseURL = databaseURL
    self.nodeCommand = nodeCommand
    self.sessionGrace = sessionGrace
    haproxyPath = haproxy
    // 32 random bytes as 64 hex digits, shared by the nodes only (through their environment).
    var generator = SystemRandomNumberGenerator()
    key = (0..<32).map { _ in
      let byte = UInt8.random(in: 0...255, using: &generator)
      return String(byte >> 4, radix: 16) + String(byte & 0x0f, radix: 16)
    }.joined()
  }

  /// Starts everything, prints where it serves, and waits for SIGTERM or SIGINT; returns the
  /// exit status (0, or 1 if HAProxy died).
  func run(port requested: Int) async throws -> Int32 {
    let signals = watchStopSignals()
    defer { withExtendedLifetime(signals) {} }
    for index in 1...nodeCount {
      let (process, port) = try startNode(index, port: 0)
      state.withLock {
        $0.nodes[index] = process
        $0.ports[index] = port
      }
      say(ClusterAnnouncement.node(index, port: port, pid: process.processIdentifier))
    }
    let port = requested == 0 ? try freeLoopbackPort() : requested
    let ports = state.withLock { state in (1...nodeCount).compactMap { state.ports[$0] } }
    try startHAProxy(HAProxyConfiguration(port: port, nodePorts: ports))
    try waitUntilServing(port: port)
    say(ClusterAnnouncement.servingPrefix + "127.0.0.1:\(port)")
    let status = await withCheckedContinuation { continuation in
      let early = state.withLock { state -> Int32? in
        if let status = state.status { return status }
        state.finished = continuation
        return nil
      }
      if let early { continuation.resume(returning: early) }
    }
    stopAll()
    return status
  }

  /// Stops every node and HAProxy: SIGTERM, then SIGKILL for whatever is left after 5 s.
  func stopAll() {
    let processes = state.withLock { state -> [Process] in
      state.stopping = true
      return Array(state.nodes.values) + (state.haproxy.map { [$0] } ?? [])
    }
    for process in processes where process.isRunning { process.terminate() }
    let deadline = Date().addingTimeInterval(5)
    for process in processes {
      while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    try? FileManager.default.removeItem(at: folder)
  }

  private func finish(_ status: Int32) {
    let continuation = state.withLock { state -> CheckedContinuation<Int32, Never>? in
      guard state.status == nil else { return nil }
      state.status = status
      defer { state.finished = nil }
      return state.finished
    }
    continuation?.resume(returning: status)
  }

  private func watchStopSignals() -> [any DispatchSourceSignal] {
    [SIGTERM, SIGINT].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [weak self] in self?.finish(0) }
      source.resume()
      return source
    }
  }

  /// Starts node `index` on `port` (0: a free one); returns it once it listens.
  private func startNode(_ index: Int, port: Int) throws -> (Process, Int) {
    let process = Process()
    process.executableURL = URL(filePath: nodeCommand.binary)
    process.arguments =
      nodeCommand.arguments + [
        "--port", String(port), "--session-grace", String(sessionGrace),
      ]
    var environment = ProcessInfo.processInfo.environment
    environment["TETHER_RESUME_KEY"] = key
    environment["DATABASE_URL"] = databaseURL
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    process.terminationHandler = { [weak self] ended in self?.nodeEnded(index, ended) }
    try process.run()
    var text = ""
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      text += String(decoding: data, as: UTF8.self)
      if let listening = ClusterAnnouncement.servingPort(in: text) {
        // Nothing else is read from it; drain it so a chatty node never blocks.
        output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
        return (process, listening)
      }
    }
    if process.isRunning { process.terminate() }
    throw ClusterError.nodeDidNotStart(node: index, output: text)
  }

  /// A node ended. Unless the cluster is stopping, it starts again on the same port (a
  /// supervisor's restart); HAProxy's health check brings it back into rotation.
  private func nodeEnded(_ index: Int, _ process: Process) {
    let port = state.withLock { state -> Int? in
      guard !state.stopping, state.nodes[index] === process else { return nil }
      return state.ports[index]
    }
    guard let port else { return }
    let how =
      process.terminationReason == .uncaughtSignal
      ? "signal \(process.terminationStatus)" : "status \(process.terminationStatus)"
    say(ClusterAnnouncement.restarting(index, pid: process.processIdentifier, how: how))
    DispatchQueue.global().async { [self] in
      // The port may take a moment to be free again.
      for _ in 0..<40 {
        if state.withLock({ $0.stopping }) { return }
        if let (restarted, _) = try? startNode(index, port: port) {
          let kept = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.nodes[index] = restarted
            return true
          }
          if !kept {
            restarted.terminate()
            return
          }
          say(ClusterAnnouncement.node(index, port: port, pid: restarted.processIdentifier))
          return
        }
        Thread.sleep(forTimeInterval: 0.25)
      }
      say("node \(index) could not be started again on port \(port)")
    }
  }

  private func startHAProxy(_ configuration: HAProxyConfiguration) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appending(path: "haproxy.cfg")
    try configuration.text.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(filePath: haproxyPath)
    // -db: stay in the foreground, so it is our child and stops with us.
    process.arguments = ["-f", file.path, "-db"]
    process.standardInput = FileHandle.nullDevice
    process.terminationHandler = { [weak self] ended in
      guard let self, !self.state.withLock({ $0.stopping }) else { return }
      self.say("haproxy ended unexpectedly (status \(ended.terminationStatus)); stopping")
      self.finish(1)
    }
    try process.run()
    state.withLock { $0.haproxy = process }
  }

  /// Waits until `/health` answers through HAProxy.
  private func waitUntilServing(port: Int) throws {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if state.withLock({ $0.status != nil }) { break }
      if healthAnswers(port: port) { return }
      Thread.sleep(forTimeInterval: 0.1)
    }
    throw ClusterError.haproxyDidNotStart("no answer on 127.0.0.1:\(port)/health")
  }

  private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}

/// A port on 127.0.0.1 nothing listens on now (the kernel's pick for port 0).
func freeLoopbackPort() throws -> Int {
  let descriptor = openSocket()
  guard descriptor >= 0 else { throw ClusterError.noFreePort(errno: errno) }
  defer { close(descriptor) }
  var address = loopbackAddress(port: 0)
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
    }
  }
  guard bound else { throw ClusterError.noFreePort(errno: errno) }
  return Int(UInt16(bigEndian: address.sin_port))
}

/// Whether `GET /health` on `127.0.0.1:port` answers 200.
func healthAnswers(port: Int) -> Bool {
  let descriptor = openSocket()
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  var limit = timeval(tv_sec: 2, tv_usec: 0)
  setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  var address = loopbackAddress(port: port)
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
  guard connected else { return false }
  let request = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
  guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count
  else { return false }
  var buffer = [UInt8](repeating: 0, count: 64)
  let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
  return count > 12 && String(decoding: buffer[..<count], as: UTF8.self).hasPrefix("HTTP/1.1 200")
}

private func openSocket() -> Int32 {
  #if canImport(Darwin)
    socket(AF_INET, SOCK_STREAM, 0)
  #else
    socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #endif
}

private func loopbackAddress(port: Int) -> sockaddr_in {
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  return address
}
