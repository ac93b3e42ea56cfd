import Foundation
import ShowcaseBrowser

/// The `showcase` binary beside the test bundle, running with `--web --port 0`.
final class WebShowcase: @unchecked Sendable {
  // @unchecked: set once in `init`; `stop()` only signals the process.
  let process = Process()
  let url: String

  init(arguments: [String] = []) async throws {
    guard let binary = showcaseBinary else {
      throw WebDriverError(description: "build the app first: swift build --product showcase")
    }
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--web", "--port", "0"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    var line = ""
    let deadline = Date().addingTimeInterval(20)
    while !line.contains("\n"), Date() < deadline {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line += String(decoding: chunk, as: UTF8.self)
    }
    guard let range = line.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression)
    else {
      process.terminate()
      throw WebDriverError(description: "showcase --web printed no URL: \(line)")
    }
    url = String(line[range])
  }

  /// Sends SIGTERM and waits for the exit; returns the status, or `nil` if it took over 5 s.
  func stop() async -> Int32? {
    process.terminate()
    for _ in 0..<100 {
      if !process.isRunning { return process.terminationStatus }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return nil
  }
}
