import Foundation
import LoopbackClient
import ShowcaseWeb
import Synchronization

/// The highest `/stats` figures seen, from the watcher's thread.
final class LockedStats: Sendable {
  private let stats = Mutex(
    WebServerStats(sessions: 0, connected: 0, liveViewModels: 0, heapBytes: 0))
  func raise(to new: WebServerStats) {
    stats.withLock {
      $0.sessions = max($0.sessions, new.sessions)
      $0.connected = max($0.connected, new.connected)
      $0.liveViewModels = max($0.liveViewModels, new.liveViewModels)
      $0.heapBytes = max($0.heap, new.heap)
    }
  }
  var value: WebServerStats { stats.withLock { $0 } }
}

/// A flag set once, read from another thread.
final class LockedFlag: Sendable {
  private let flag = Mutex(false)
  func set() { flag.withLock { $0 = true } }
  var value: Bool { flag.withLock { $0 } }
}

/// `showcase --web` in a child process, on a free loopback port.
final class ServerProcess {
  let port: Int
  private let process = Process()
  /// The server's log (one line per refused message or closed socket).
  let logFile = URL(filePath: NSTemporaryDirectory())
    .appending(path: "showcase-load-\(UUID().uuidString).log")

  /// - Parameters:
  ///   - binary: The `showcase` binary.
  ///   - arguments: More arguments (such as `--data FOLDER`).
  /// - Throws: ``LaunchError`` when it is not built or never says where it listens.
  init(binary: String, arguments: [String] = []) throws {
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw LaunchError.noBinary(path: binary, product: "showcase")
    }
    process.executableURL = URL(filePath: binary)
    process.arguments =
      ["--web", "--host", "127.0.0.1", "--port", "0", "--session-grace", "1", "--stats"]
      + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: logFile)
    try process.run()
    let announced = announcedPort(on: output) { ClusterAnnouncement.servingPort(in: $0) }
    guard let port = announced.port else {
      process.terminate()
      throw LaunchError.didNotStart(program: "showcase", output: announced.output)
    }
    self.port = port
  }

  func stop() {
    defer { try? FileManager.default.removeItem(at: logFile) }
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }
}

/// Why the load tool could not start the server it loads.
enum LaunchError: Error, CustomStringConvertible {
  /// No executable at `path`.
  case noBinary(path: String, product: String)
  /// The program ran but never said where it listens.
  case didNotStart(program: String, output: String)

  var description: String {
    switch self {
    case .noBinary(let path, let product):
      "no \(product) binary at \(path); build it: swift build --product \(product)"
    case .didNotStart(let program, let output):
      "\(program) did not say where it listens: \(output)"
    }
  }
}
