import Foundation
import Testing

/// The `showcase-load` tool beside the test bundle.
let loadBinary = builtProduct(named: "showcase-load")

extension EndToEnd {
  /// A short load run in every `swift test`: the full one (200 sessions × 60 s) is
  /// `swift run -c release --package-path Examples showcase-load`, figures in the README.
  @Suite struct LoadTests {
    @Test("sessions under load and misbehaving clients: no errors, no leaks, heap back down")
    func shortLoadRunPasses() throws {
      let text = try runLoad(["--sessions", "16", "--seconds", "4", "--bad-clients", "5"])
      #expect(text.contains("not handled: 0"), "\(text)")
    }

    @Test(
      "through HAProxy with a node killed: every session resumes, no gesture lost",
      .enabled(if: haproxyIsInstalled, "needs haproxy"))
    func shortClusterRunWithAKillPasses() throws {
      let text = try runLoad([
        "--cluster", "3", "--kill-every", "4", "--sessions", "16", "--seconds", "6",
        "--bad-clients", "3",
      ])
      #expect(text.contains("nodes killed: 1 (the cluster restarted 1)"), "\(text)")
      #expect(text.contains("lost after the retry: 0"), "\(text)")
    }

    @Test(
      "TodoMVC through HAProxy on PostgreSQL with a node killed: no write lost or doubled",
      .enabled(if: haproxyIsInstalled, "needs haproxy"))
    func shortTodoMVCClusterRunWithAKillKeepsEveryWrite() throws {
      let text = try runLoad([
        "--scenario", "todos", "--cluster", "3", "--kill-every", "4", "--sessions", "16",
        "--seconds", "6", "--bad-clients", "0",
      ])
      #expect(text.contains("nodes killed: 1 (the cluster restarted 1)"), "\(text)")
      #expect(text.contains("todos: 8 lists"), "\(text)")
      #expect(
        text.contains("lost writes 0, duplicated writes 0, cross-list leaks 0"), "\(text)")
      #expect(text.contains("read from PostgreSQL"), "\(text)")
    }

    /// Runs `showcase-load` with `arguments`, checks what every run must show, and returns its
    /// output for the checks of that run.
    private func runLoad(_ arguments: [String]) throws -> String {
      let binary = try #require(loadBinary, "build it first: swift build --product showcase-load")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = arguments
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(text)")
      #expect(text.contains("sessions: 16 started, 16 completed"), "\(text)")
      #expect(text.contains("errors: 0, isolation violations: 0"), "\(text)")
      #expect(text.contains("view models alive: peak") && text.contains(", after 0"), "\(text)")
      #expect(text.hasSuffix("PASSED\n"), "\(text)")
      return text
    }
  }
}
