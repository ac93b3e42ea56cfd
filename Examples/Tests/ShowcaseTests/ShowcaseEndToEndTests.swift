import Foundation
import Gallery
import Testing

struct SpawnError: Error {
  let code: Int32
}

/// Drives the built `showcase` binary in a private tmux server, as a person would: keys in,
/// screen text out, and the terminal's state after it exits.
struct TmuxSession {
  let socket =
    "tether-e2e-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
  let name = "showcase"

  @discardableResult
  func tmux(_ arguments: String...) throws -> String {
    try run(arguments, capture: true)
  }

  /// Runs tmux with `posix_spawn` and reaps it with `waitpid`. Output goes through a temporary
  /// file: the command that starts the tmux server must not hand it a pipe (the server would
  /// inherit it), and `Foundation.Process` left tmux clients unreaped off the main thread.
  private func run(_ arguments: [String], capture: Bool) throws -> String {
    let outputPath = NSTemporaryDirectory() + "tether-e2e-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let argv = ["tmux", "-L", socket, "-f", "/dev/null"] + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, capture ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // Test threads block every signal, and a spawned process inherits that mask: the tmux
    // server would never see SIGCHLD, never reap the app, and never know its exit status.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGCHLD)
    sigaddset(&defaults, SIGTERM)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var cArguments = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, &cArguments, environ)
    guard spawned == 0 else { throw SpawnError(code: spawned) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    guard capture else { return "" }
    return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
  }

  func start(_ binary: String, arguments: [String] = [], width: Int = 100, height: Int = 30)
    throws
  {
    _ = try run(
      ["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)"], capture: false)
    try tmux("set-option", "-t", name, "remain-on-exit", "on")
    // The showcase keeps its TodoMVC list in a fresh folder per run, not the user's own.
    let data = binary.hasSuffix("/showcase") ? ["--data", freshDataFolder()] : []
    _ = try run(["respawn-pane", "-k", "-t", name, binary] + arguments + data, capture: false)
  }

  func keys(_ keys: String...) async throws {
    for key in keys {
      try tmux("send-keys", "-t", name, key)
      // One key at a time, as a person types: the app reads each before the next comes.
      try? await Task.sleep(for: .milliseconds(60))
    }
  }

  func screen() throws -> String { try tmux("capture-pane", "-p", "-t", name) }

  func value(_ format: String) throws -> String {
    try tmux("display", "-p", "-t", name, format).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Waits until the screen contains `text`; returns the screen.
  @discardableResult
  func waitFor(_ text: String, seconds: Double = 10) async throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var last = ""
    while Date() < deadline {
      last = try screen()
      if last.contains(text) { return last }
      try? await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("screen never showed \"\(text)\"; it shows:\n\(last)")
    return last
  }

  func waitUntilDead(seconds: Double = 10) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try value("#{pane_dead}") == "1" { return true }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return false
  }

  func stop() { _ = try? tmux("kill-server") }
}

/// The executable product `name` beside the test bundle (`swift build` puts both in the same
/// folder), or `nil` if it was not built.
func builtProduct(named name: String) -> String? {
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for candidate in [folder, folder.deletingLastPathComponent()] {
    let path = candidate.appendingPathComponent(name).path
    if FileManager.default.isExecutableFile(atPath: path) { return path }
  }
  return nil
}

/// The `showcase` binary beside the test bundle.
let showcaseBinary = builtProduct(named: "showcase")

/// A new empty folder for one run's TodoMVC lists.
func freshDataFolder() -> String {
  let path = NSTemporaryDirectory() + "showcase-data-\(UUID().uuidString)"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

let tmuxIsInstalled = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// The end-to-end suites — the terminal app in tmux and the web app in Chromium — run one
/// test at a time, never beside each other: each drives a real process on a shared two-core
/// machine, and timing-sensitive checks (a redraw after a resize, latency figures) must not
/// compete with a browser.
@Suite(.serialized) enum EndToEnd {}

extension EndToEnd {
  @Suite(.serialized) struct ShowcaseEndToEndTests {
    /// The tests below skip without tmux on a developer's machine; in CI a missing tmux fails.
    @Test func ciHasTmux() {
      guard ProcessInfo.processInfo.environment["CI"] != nil else { return }
      #expect(tmuxIsInstalled, "CI must install tmux: the end-to-end tests would be skipped")
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func galleryRoutesAlertsAndQuitRestoresTheTerminal() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary)
      try await session.waitFor("Choose an app")
      #expect(try session.value("#{alternate_on}") == "1")

      try await session.keys("Enter")
      let photos = BundledPhotoService.page(1).photos
      try await session.waitFor(photos[0].name)
      try await session.waitFor("20 photos")

      // A photo that is not for sale: the seed's alert, and nothing pushed.
      let index = try #require(photos.firstIndex { !$0.forSale })
      for _ in 0..<index { try await session.keys("j") }
      try await session.keys("Enter")
      let alert = try await session.waitFor("This item is not for sale")
      #expect(alert.contains("Not for sale"))
      try await session.keys("Enter")
      try await session.waitFor("Esc back")
      #expect(try !session.screen().contains("This item is not for sale"))

      // Back to the menu, then quit.
      try await session.keys("Escape")
      try await session.waitFor("Choose an app")
      try await session.keys("q")
      #expect(try await session.waitUntilDead())
      #expect(try session.value("#{alternate_on}") == "0")
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func openStartsOnTheScreenAtAPathAndBackWalksUpIt() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let photo = try #require(BundledPhotoService.catalog.first { $0.forSale })
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, arguments: ["--open", "/gallery/photo/\(photo.id)"])
      let detail = try await session.waitFor("For sale")
      #expect(detail.contains(photo.name))
      #expect(detail.contains("▒"), "the picture's preview is drawn")
      try await session.keys("Escape")
      try await session.waitFor("20 photos")
      try await session.keys("Escape")
      try await session.waitFor("Choose an app")
      try await session.keys("q")
      #expect(try await session.waitUntilDead())
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func gallerySearchBySlashFiltersTheRows() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let photos = BundledPhotoService.page(1).photos
      let word = try #require(photos.first?.name.split(separator: " ").first).lowercased()
      let expected = photos.filter {
        $0.name.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil
      }.count
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, arguments: ["--open", "/gallery"])
      try await session.waitFor("20 photos")
      try await session.keys("/")
      try await session.waitFor("Search titles")
      try await session.keys(word)
      try await session.waitFor(expected == 1 ? "1 photo ·" : "\(expected) photos")
      // q is text while searching; Escape clears the search and gives the keys back.
      try await session.keys("Escape")
      try await session.waitFor("20 photos")
      try await session.keys("q")
      #expect(try await session.waitUntilDead())
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func todosAddToggleEditFilterClearAndDeleteByKeys() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, arguments: ["--open", "/todos"])
      try await session.waitFor("What needs to be done?")
      // q is text in the field, not quit.
      try await session.keys("Buy milk q")
      try await session.keys("BSpace", "BSpace", "Enter")
      try await session.waitFor("[ ] Buy milk")
      // A paste (bracketed, as tmux pastes for an app that asks) is one line, Enter unpressed.
      try session.tmux("set-buffer", "Walk\nthe dog")
      try session.tmux("paste-buffer", "-p", "-t", session.name)
      try await session.waitFor("› Walk the dog")
      try await session.keys("Enter")
      try await session.waitFor("2 items left")
      try await session.keys("Tab", "Space")
      var screen = try await session.waitFor("[x] Buy milk")
      #expect(screen.contains("1 item left"))
      #expect(screen.contains("Space toggle"), "the list's keys are shown")
      try await session.keys("e")
      try await session.waitFor("Edit (Enter saves")
      try await session.keys("C-u")
      try await session.keys("Buy oat milk")
      try await session.keys("Enter")
      try await session.waitFor("[x] Buy oat milk")
      try await session.keys("2")
      screen = try await session.waitFor("[2 Active]")
      #expect(!screen.contains("Buy oat milk") && screen.contains("Walk the dog"))
      try await session.keys("1", "c")
      screen = try await session.waitFor("1 item left")
      #expect(!screen.contains("Buy oat milk"), "clear completed removed it")
      try await session.keys("x")
      try await session.waitFor("Type a todo")
      #expect(!(try session.screen().contains("Walk the dog")))
      try await session.keys("C-c")
      #expect(try await session.waitUntilDead())
      #expect(try session.value("#{alternate_on}") == "0")
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func anUnknownPathLandsOnTheNearestScreenWithAnAlert() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, arguments: ["--open", "/courses/course/999"])
      let screen = try await session.waitFor("There is no course 999.")
      #expect(screen.contains("Page not found"))
      try await session.keys("Enter")
      try await session.waitFor("Podcasts Course")
      try await session.keys("q")
      #expect(try await session.waitUntilDead())
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func aConfirmationsDestructiveButtonIsPressedFromTheKeyboard() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, arguments: ["--open", "/courses/course/2"])
      try await session.waitFor("Remove from list")
      try await session.keys("x")
      let alert = try await session.waitFor("[ Remove ] [ Cancel (Enter, Esc) ]")
      #expect(alert.contains("Remove “Podcasts Course”?"), "the title is whole: \(alert)")
      try await session.keys("Tab")
      try await session.waitFor("[ Remove (Enter) ] [ Cancel (Esc) ]")
      try await session.keys("Enter")
      // Back on the list (a course the detail never shows), which no longer has the course.
      let list = try await session.waitFor("Instagram Firebase")
      #expect(!list.contains("Podcasts Course"), "\(list)")
      try await session.keys("q")
      #expect(try await session.waitUntilDead())
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func theSalutationSheetIsDrawnOverTheGreetingAndAnswersFromTheKeyboard() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, arguments: ["--open", "/entry/greeting/Ada"])
      try await session.waitFor("Hello, Ada!")
      try await session.keys("c")
      let sheet = try await session.waitFor("Esc close")
      #expect(sheet.contains("╭─ Salutation "), "the sheet's box and title: \(sheet)")
      #expect(sheet.contains("Hello ✓") && sheet.contains("Howdy"))
      // ↓ ↓ ↓ and Enter choose the fourth row; the sheet goes and the greeting takes it.
      try await session.keys("Down", "Down", "Down", "Enter")
      let greeting = try await session.waitFor("Howdy, Ada!")
      #expect(!greeting.contains("Esc close"), "the sheet closed: \(greeting)")
      // Escape closes it with no choice, and pops nothing.
      try await session.keys("c")
      try await session.waitFor("Howdy ✓")
      try await session.keys("Escape")
      let after = try await session.waitFor("Change salutation")
      #expect(!after.contains("Esc close") && after.contains("Howdy, Ada!"), "\(after)")
      try await session.keys("q")
      #expect(try await session.waitUntilDead())
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func aConfirmationDialogsDestructiveActionIsReachedWithTheArrows() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, arguments: ["--open", "/courses/course/2"])
      try await session.waitFor("More…")
      try await session.keys("m")
      let dialog = try await session.waitFor("Move to the top  (Enter)")
      #expect(dialog.contains("Remove from list") && dialog.contains("Cancel  (Esc)"))
      try await session.keys("Down")
      try await session.waitFor("Remove from list  (Enter)")
      try await session.keys("Enter")
      let list = try await session.waitFor("Instagram Firebase")
      #expect(!list.contains("Podcasts Course"), "removed: \(list)")
      try await session.keys("q")
      #expect(try await session.waitUntilDead())
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func theProfilesBindingStylesAreTabsAndALinkOpensOne() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, arguments: ["--open", "/profile/streams"])
      try await session.waitFor("[4 Streams (Driver)]")
      try await session.waitFor("@octocat")
      try await session.keys("1")
      let first = try await session.waitFor("[1 View binds model]")
      #expect(!first.contains("[4 Streams"), "one tab shown: \(first)")
      #expect(first.contains("@octocat"), "every style renders the same header")
      try await session.keys("q")
      #expect(try await session.waitUntilDead())
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func sigtermRestoresTheTerminal() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary)
      try await session.waitFor("Choose an app")
      let pid = try #require(Int32(try session.value("#{pane_pid}")))
      kill(pid, SIGTERM)
      #expect(try await session.waitUntilDead())
      #expect(try session.value("#{alternate_on}") == "0")
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func entryFlowGreetsTheSelectedUserInANarrowTerminal() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, width: 40, height: 20)
      try await session.waitFor("Choose an app")
      for _ in 0..<4 { try await session.keys("j") }
      try await session.keys("Enter")
      try await session.waitFor("Fetch user")
      try await session.keys("f")
      try await session.waitFor("User: Ada Lovelace")
      try await session.keys("s")
      try await session.waitFor("Hello, Ada Lovelace!")
      try await session.keys("C-c")
      #expect(try await session.waitUntilDead())
      #expect(try session.value("#{alternate_on}") == "0")
    }

    @Test(.enabled(if: tmuxIsInstalled, "needs tmux (.ci/run installs it)"))
    func resizeRedrawsAtTheNewSize() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let session = TmuxSession()
      defer { session.stop() }
      try session.start(binary, width: 100, height: 30)
      let wide = try await session.waitFor("Choose an app")
      #expect(wide.split(separator: "\n").first?.hasSuffix("q quit") == true)
      try session.tmux("resize-window", "-t", session.name, "-x", "50", "-y", "15")
      let deadline = Date().addingTimeInterval(5)
      var rule = ""
      while Date() < deadline {
        rule = try session.screen().split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        if rule.count == 50 { break }
        try await Task.sleep(for: .milliseconds(50))
      }
      // The title bar's rule spans exactly the new width.
      #expect(rule == String(repeating: "─", count: 50))
      try await session.keys("q")
      #expect(try await session.waitUntilDead())
    }

    @Test func withoutATerminalItSaysSoAndExitsWithStatus2() async throws {
      let binary = try #require(
        showcaseBinary, "build the app first: swift build --product showcase")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.standardInput = FileHandle.nullDevice
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      process.waitUntilExit()
      let message = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(process.terminationStatus == 2)
      #expect(
        message
          == "showcase: needs an interactive terminal: standard input and output must both be a TTY\n"
      )
    }
  }
}
