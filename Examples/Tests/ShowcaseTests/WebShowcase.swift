import Foundation
import ShowcaseBrowser

/// A web server binary beside the test bundle — `showcase --web --port 0` by default — once it
/// has printed the address it serves.
final class WebShowcase: @unchecked Sendable {
  // @unchecked: set once in `init`; `stop()` only signals the process.
  let process = Process()
  let url: String
  /// What it wrote to standard error (its log).
  let errorLog = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("web-showcase-\(UUID().uuidString).log")

  /// The showcase's TodoMVC lists go to a fresh folder unless `arguments` name one; it serves
  /// `/stats`.
  convenience init(arguments: [String] = []) async throws {
    let data = arguments.contains("--data") ? [] : ["--data", freshDataFolder()]
    try await self.init(
      product: "showcase", arguments: ["--web", "--port", "0", "--stats"] + data + arguments)
  }

  /// The showcase with its descriptor limit (`ulimit -n`) set to `descriptorLimit`.
  convenience init(descriptorLimit: Int) async throws {
    try await self.init(
      product: "showcase",
      arguments: ["--web", "--port", "0", "--stats", "--data", freshDataFolder()],
      descriptorLimit: descriptorLimit)
  }

  /// Starts the built product `product` (under a descriptor limit if one is given) and waits
  /// (up to 20 s) for the first `http://127.0.0.1:<port>` it prints.
  init(
    product: String, arguments: [String] = [], environment: [String: String] = [:],
    descriptorLimit: Int? = nil
  ) async throws {
    guard let binary = builtProduct(named: product) else {
      throw WebDriverError.notBuilt(product: product)
    }
    if let descriptorLimit {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments =
        ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", binary] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: errorLog)
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
      throw WebDriverError.noAddress(product: product, output: line)
    }
    url = String(line[range])
  }

  /// The port it serves on.
  var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

  /// Its log so far.
  var log: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

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

/// Runs `body` with a fresh showcase (`showcase --web`, a fresh data folder) and a fresh
/// headless Chromium, and stops both however `body` ends.
func withShowcaseInBrowser(
  width: Int = 390, height: Int = 844, _ body: (WebShowcase, Browser) async throws -> Void
) async throws {
  let showcase = try await WebShowcase()
  let browser = try await Browser(width: width, height: height)
  do {
    try await body(showcase, browser)
  } catch {
    await browser.quit()
    _ = await showcase.stop()
    throw error
  }
  await browser.quit()
  _ = await showcase.stop()
}
