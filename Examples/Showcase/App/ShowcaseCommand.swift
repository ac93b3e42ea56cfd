import ArgumentParser
import Dispatch
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import ShowcaseFlows
import ShowcaseTerminal
import ShowcaseWeb
import ShowcaseWebServer
import TetherFlow
import TetherTerminal
import TetherWeb
import TetherWebHummingbird
import TodosStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `showcase`: the five seed apps in one terminal app.
@main
struct ShowcaseCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "showcase",
    abstract:
      "The five Tether seed apps, driven by their view models, in your terminal or browser.",
    discussion: """
      Keys: ↑/↓ (or k/j) move, Enter opens, Esc/Backspace/← go back, q quits.
      --web serves the same apps to browsers instead: every screen has its own URL.
      Data is embedded by default; --api uses a server such as `swift run showcase-api`.
      TodoMVC's lists (one per browser, and the terminal's own) are kept in a SQLite file in
      --data (default: $XDG_STATE_HOME/tether-showcase, else ~/.local/state/tether-showcase),
      or in PostgreSQL with --database or $DATABASE_URL. A store that cannot be opened is
      said in one line, with exit status 2.
      """)

  @Flag(help: "Serve the showcase to web browsers instead of drawing it in this terminal.")
  var web = false

  @Option(help: "With --web: the port to listen on; 0 picks a free one.")
  var port = 8080

  @Option(help: "With --web: the address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "With --web: seconds a session outlives its page's socket.")
  var sessionGrace = 30.0

  @Option(
    help: """
      With --web: the key every node of a cluster shares, to sign resume tokens (any node then \
      resumes any session): 32 random bytes or more as hex or base64, as openssl rand -base64 \
      32 prints. Also read from $TETHER_RESUME_KEY.
      """)
  var resumeKey: String?

  @Option(
    help: """
      With --resume-key: the previous key, while a rollover is under way: tokens it signed are \
      still accepted. Also read from $TETHER_RETIRING_RESUME_KEY.
      """)
  var retiringResumeKey: String?

  @Flag(
    help: """
      With --web: serve /stats (sessions, sockets, live view models, heap), for tests and load \
      runs. Off by default: it tells anyone how busy the server is.
      """)
  var stats = false

  @Option(
    help: """
      With --web: the most connections one address may hold open (0: no limit, the default; \
      behind a proxy every browser has the proxy's address).
      """)
  var connectionsPerAddress = 0

  @Option(
    help: """
      With --web: how many messages a second one page's socket may have handled, after a \
      burst of twice as many (0: as fast as they come). A flood waits in its own socket.
      """)
  var messagesPerSecond = 50

  @Option(
    help: """
      With --web: a proxy in front (its address, e.g. 127.0.0.1) whose X-Forwarded-For names \
      the browser; repeat for several. A page load then counts against the browser's address.
      """)
  var trustedProxy: [String] = []

  @Option(help: "Use this server's data instead of the embedded data, e.g. http://127.0.0.1:8080.")
  var api: String?

  @Option(
    name: .customLong("data"),
    help: "The folder for TodoMVC's SQLite file (default: ~/.local/state/tether-showcase).")
  var dataFolder: String?

  @Option(
    help: """
      Keep TodoMVC's lists in PostgreSQL instead: postgres://user:password@host:port/database. \
      Also read from $DATABASE_URL.
      """)
  var database: String?

  @Option(
    name: .customLong("open"),
    help: "Start on the screen at this path, e.g. /gallery/photo/230200400 or /entry.")
  var path: String?

  /// For the end-to-end tests of the crash path: `!` raises this fatal signal (SIGSEGV,
  /// SIGABRT, SIGBUS, SIGFPE, SIGILL or SIGTRAP) on the main thread, as a crash would.
  @Option(help: .hidden)
  var debugFatalSignal: String?

  static let fatalSignals: [String: Int32] = [
    "SIGSEGV": SIGSEGV, "SIGABRT": SIGABRT, "SIGBUS": SIGBUS, "SIGFPE": SIGFPE,
    "SIGILL": SIGILL, "SIGTRAP": SIGTRAP,
  ]

  func validate() throws {
    if let debugFatalSignal, Self.fatalSignals[debugFatalSignal] == nil {
      throw ValidationError(
        "--debug-fatal-signal needs one of \(Self.fatalSignals.keys.sorted().joined(separator: ", "))."
      )
    }
    guard sessionGrace >= 0, sessionGrace <= 86_400 else {
      throw ValidationError("--session-grace needs seconds from 0 to 86400, not \(sessionGrace).")
    }
    do {
      _ = try resumeSigner
    } catch {
      throw ValidationError("\(error).")
    }
    guard (0...100_000).contains(connectionsPerAddress) else {
      throw ValidationError(
        "--connections-per-address needs 0 (no limit) to 100000, not \(connectionsPerAddress).")
    }
    guard (0...100_000).contains(messagesPerSecond) else {
      throw ValidationError(
        "--messages-per-second needs 0 (no limit) to 100000, not \(messagesPerSecond).")
    }
    guard (0...65_535).contains(port) else {
      throw ValidationError("--port needs a number from 0 to 65535, not \(port).")
    }
    if let api {
      guard let url = URL(string: api), url.scheme == "http" || url.scheme == "https",
        url.host != nil
      else {
        throw ValidationError(
          "--api needs an http(s) URL such as http://127.0.0.1:8080, not '\(api)'.")
      }
    }
  }

  @MainActor
  func run() async throws {
    var services: ShowcaseServices =
      if let api, let url = URL(string: api) { .http(baseURL: url) } else { .bundled() }
    do {
      services.todos = try await TodoStorage.open(database: database, dataFolder: dataFolder).store
    } catch {
      FileHandle.standardError.write(Data("showcase: \(error)\n".utf8))
      throw ExitCode(2)
    }
    if web {
      do {
        services.pubsub = try await TodoStorage.pubsub(database: database)
      } catch {
        FileHandle.standardError.write(Data("showcase: \(error)\n".utf8))
        throw ExitCode(2)
      }
      try await serveWeb(services: services)
      await services.pubsub?.shutdown()
      return
    }
    guard TerminalSession.isInteractive else {
      FileHandle.standardError.write(Data("showcase: \(TerminalError.notATerminal)\n".utf8))
      throw ExitCode(2)
    }
    let session = try TerminalSession()
    let stack = ScreenStack<ShowcaseDestination>()
    let navigator = TerminalNavigator(
      stack: stack,
      screens: { screen in
        ShowcaseViews.makeScreen(for: screen, tick: session.tick)
      })
    let flow = MainFlowController(services: services)
    if let path {
      // A path that names no screen lands on the nearest one, with an alert saying so.
      Task { await flow.openPresentingFailure(ScreenPath(parsing: path), on: stack) }
    } else {
      flow.startFlow(on: stack)
    }
    if let name = debugFatalSignal, let fatal = Self.fatalSignals[name] {
      navigator.onUnhandledKey = { key in
        guard key == .character("!") else { return }
        // Main-actor code runs on a dispatch worker, which blocks most signals: unblock it
        // first, as `abort()` and a real fault do.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, fatal)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(fatal)
      }
    }
    let exit: TerminalExit
    do {
      exit = try await session.run(navigator: navigator)
    } catch {
      FileHandle.standardError.write(Data("showcase: \(error)\n".utf8))
      throw ExitCode(2)
    }
    // q returns (status 0); a signal is raised again with its default action, so whoever
    // started us sees the process die of it (status 128 + n).
    if exit != .quit { exit.terminateProcess() }
  }

  /// Serves the showcase to browsers until SIGTERM or SIGINT; exits 0.
  @MainActor
  private func serveWeb(services: ShowcaseServices) async throws {
    let signer = try resumeSigner
    // Without a cluster's key, browsers' cookies are issued under a key kept with the data,
    // so a restart still knows each browser and shows it its list.
    var clientKeys: [WebResumeKey]?
    if signer == nil {
      do {
        let bytes = try TodoStorage.browserCookieKey(dataFolder: dataFolder)
        clientKeys = [try WebResumeKey.hmacSHA256(bytes)]
      } catch {
        FileHandle.standardError.write(Data("showcase: \(error)\n".utf8))
        throw ExitCode(2)
      }
    }
    try await ShowcaseWebServer.serve(
      services: services, host: host, port: port,
      sessionGrace: .milliseconds(Int(sessionGrace * 1000)), resumeSigner: signer,
      clientKeys: clientKeys,
      connectionsPerAddress: connectionsPerAddress > 0 ? connectionsPerAddress : nil,
      trustedProxies: Set(trustedProxy),
      messageRate: messagesPerSecond > 0
        ? WebMessageRate(burst: 2 * messagesPerSecond, perSecond: messagesPerSecond) : nil,
      stats: stats)
  }

  /// The signer for `--resume-key` or `$TETHER_RESUME_KEY` (and the retiring key), if a key
  /// is set; throws for a key that is not 32 random bytes in hex or base64.
  private var resumeSigner: WebResumeSigner? {
    get throws(WebResumeKeyError) {
      let environment = ProcessInfo.processInfo.environment
      guard let key = resumeKey ?? environment[ShowcaseWebServer.resumeKeyVariable] else {
        return nil
      }
      return try ShowcaseWebServer.resumeSigner(
        key: key,
        retiring: retiringResumeKey ?? environment[ShowcaseWebServer.retiringResumeKeyVariable])
    }
  }
}
