import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One way out of the terminal app, and the exit status a shell must see.
struct ExitPath: CustomTestStringConvertible, Sendable {
  enum Trigger: Sendable {
    case keys([String])
    case signal(Int32)
  }

  let name: String
  let trigger: Trigger
  let arguments: [String]
  let expectedStatus: Int32

  var testDescription: String { name }

  static let all: [ExitPath] = [
    ExitPath(name: "q", trigger: .keys(["q"]), arguments: [], expectedStatus: 0),
    ExitPath(name: "Ctrl-C", trigger: .keys(["C-c"]), arguments: [], expectedStatus: 128 + 2),
    ExitPath(name: "SIGTERM", trigger: .signal(SIGTERM), arguments: [], expectedStatus: 128 + 15),
    ExitPath(name: "SIGHUP", trigger: .signal(SIGHUP), arguments: [], expectedStatus: 128 + 1),
    ExitPath(name: "SIGINT", trigger: .signal(SIGINT), arguments: [], expectedStatus: 128 + 2),
    ExitPath(
      name: "SIGSEGV", trigger: .keys(["!"]), arguments: ["--debug-fatal-signal", "SIGSEGV"],
      expectedStatus: 128 + 11),
    ExitPath(
      name: "SIGABRT", trigger: .keys(["!"]), arguments: ["--debug-fatal-signal", "SIGABRT"],
      expectedStatus: 128 + 6),
  ]
}

/// The pid of `parent`'s child named `name`, read from `/proc`.
func childProcess(of parent: pid_t, named name: String) -> pid_t? {
  guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
    return nil
  }
  for entry in entries {
    guard let pid = pid_t(entry),
      let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
      let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
    else { continue }
    let command = stat[stat.index(after: open)..<close]
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    if command == name, fields.count > 1, pid_t(fields[1]) == parent { return pid }
  }
  return nil
}

extension EndToEnd {
  /// Every way out of the terminal app restores the terminal and exits with the status a shell
  /// expects. The app runs under `sh` in tmux, as from a prompt: the shell records `stty -a`
  /// before and after and the app's status, and tmux reports the alternate screen and cursor.
  @Suite(.serialized) struct TerminalExitTests {
    @Test(
      "each exit path restores the terminal and exits with 0 or 128 + the signal",
      .enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"),
      arguments: ExitPath.all)
    func exitPath(_ path: ExitPath) async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let folder = URL(filePath: NSTemporaryDirectory())
        .appending(path: "tether-exit-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let script = folder.appending(path: "run.sh")
      let quoted = ([binary] + path.arguments).map { "'\($0)'" }.joined(separator: " ")
      try """
      stty -a > '\(folder.path)/before'
      \(quoted)
      echo $? > '\(folder.path)/status.tmp' && mv '\(folder.path)/status.tmp' '\(folder.path)/status'
      stty -a > '\(folder.path)/after'
      echo done > '\(folder.path)/finished'
      exec sleep 60
      """.write(to: script, atomically: true, encoding: .utf8)

      let session = TmuxSession()
      defer { session.stop() }
      try session.start("/bin/sh", arguments: [script.path])
      try await session.waitFor("Choose an app")
      #expect(try session.value("#{alternate_on}") == "1")
      #expect(try session.value("#{cursor_flag}") == "0")

      switch path.trigger {
      case .keys(let keys):
        try await session.keys(keys.joined())
      case .signal(let number):
        let shell = try #require(pid_t(try session.value("#{pane_pid}")))
        let app = try #require(childProcess(of: shell, named: "showcase"))
        #expect(kill(app, number) == 0)
      }

      let finished = folder.appending(path: "finished").path
      let deadline = Date().addingTimeInterval(15)
      while !FileManager.default.fileExists(atPath: finished), Date() < deadline {
        try await Task.sleep(for: .milliseconds(50))
      }
      let screen = (try? session.screen()) ?? ""
      try #require(
        FileManager.default.fileExists(atPath: finished),
        "the app did not end after \(path.name); the screen shows:\n\(screen)")
      let status = try String(
        contentsOfFile: folder.appending(path: "status").path, encoding: .utf8)
      #expect(Int32(status.trimmingCharacters(in: .whitespacesAndNewlines)) == path.expectedStatus)

      // Echo and canonical mode are back: the settings are exactly the ones before the app.
      let before = try String(
        contentsOfFile: folder.appending(path: "before").path, encoding: .utf8)
      let after = try String(contentsOfFile: folder.appending(path: "after").path, encoding: .utf8)
      #expect(after == before)
      #expect(after.contains(" icanon") && after.contains(" echo ") && !after.contains("-echo "))
      #expect(try session.value("#{alternate_on}") == "0")
      #expect(try session.value("#{cursor_flag}") == "1")
    }

    /// A hang-up, again and again: each must end the app, restore the terminal and exit 129.
    /// Before the stop signals had their own handler, one SIGHUP in a few under load was
    /// dropped (see `TerminalSession.installSignalSources`) and the app kept running.
    @Test(
      "SIGHUP ends the app every time",
      .enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"),
      arguments: 1...5)
    func sighupIsNeverLost(_ attempt: Int) async throws {
      try await exitPath(ExitPath.all[3])
    }
  }
}
