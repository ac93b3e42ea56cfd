import ArgumentParser
import Foundation
import ShowcaseServer

/// `showcase-api`: serves the examples' bundled data over HTTP on loopback.
@main
struct ShowcaseAPICommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "showcase-api",
    abstract: "Serve the Tether examples' data over HTTP on 127.0.0.1.",
    discussion: """
      Routes:
      \(ShowcaseServer.routes.map { "  \($0.pattern)\n      \($0.summary)" }.joined(separator: "\n"))

      Faults for demos and tests: --latency, --fail-rate, --fail-status, --fail-mode.
      """)

  @Option(help: "The port to listen on (0 picks a free one).")
  var port: Int = 8080

  @Option(help: "Milliseconds to wait before every answer.")
  var latency: Int = 0

  @Option(help: "The share of requests that fail, from 0 to 1.")
  var failRate: Double = 0

  @Option(help: "The HTTP status of failed requests in 'status' mode.")
  var failStatus: Int = 503

  @Option(help: "How failed requests fail: status, malformed (invalid JSON) or close.")
  var failMode: FaultInjection.Mode = .status

  func validate() throws {
    guard (0...65_535).contains(port) else {
      throw ValidationError("--port must be from 0 to 65535, not \(port).")
    }
    guard latency >= 0 else { throw ValidationError("--latency cannot be negative.") }
    guard (0...1).contains(failRate) else {
      throw ValidationError("--fail-rate must be from 0 to 1, not \(failRate).")
    }
    guard (100...599).contains(failStatus) else {
      throw ValidationError("--fail-status must be an HTTP status (100-599), not \(failStatus).")
    }
  }

  func run() async throws {
    let faults = FaultInjection(
      latency: .milliseconds(latency), failRate: failRate, failStatus: failStatus, mode: failMode)
    let app = ShowcaseServer.makeApplication(port: port, faults: faults) { port in
      // Unbuffered: scripts wait for this line even when stdout is a pipe.
      FileHandle.standardOutput.write(
        Data("showcase-api listening on http://127.0.0.1:\(port)\n".utf8))
    }
    try await app.runService()
  }
}

extension FaultInjection.Mode: ExpressibleByArgument {}
