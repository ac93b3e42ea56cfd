import ArgumentParser
import Foundation
import ShowcaseFlows
import ShowcaseTerminal
import TetherFlow
import TetherTerminal

/// `showcase`: the five seed apps in one terminal app.
@main
struct ShowcaseCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "showcase",
    abstract: "The five Tether seed apps, driven by their view models, in your terminal.",
    discussion: """
      Keys: ↑/↓ (or k/j) move, Enter opens, Esc/Backspace/← go back, q quits.
      Data is embedded by default; --api uses a server such as `swift run showcase-api`.
      """)

  @Option(help: "Use this server's data instead of the embedded data, e.g. http://127.0.0.1:8080.")
  var api: String?

  @Option(
    name: .customLong("open"),
    help: "Start on the screen at this path, e.g. /gallery/photo/230200400 or /entry.")
  var path: String?

  func validate() throws {
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
    guard TerminalSession.isInteractive else {
      FileHandle.standardError.write(Data("showcase: \(TerminalError.notATerminal)\n".utf8))
      throw ExitCode(2)
    }
    let services: ShowcaseServices =
      if let api, let url = URL(string: api) { .http(baseURL: url) } else { .bundled() }
    let session = try TerminalSession()
    let stack = NavigationStack<ShowcaseDestination>()
    let navigator = TerminalNavigator(stack: stack) { screen in
      ShowcaseViews.makeView(for: screen, tick: session.tick)
    }
    let flow = MainFlowController(services: services)
    if let path {
      // A path that names no screen lands on the nearest one, with an alert saying so.
      Task { await flow.open(ScreenPath(parsing: path), on: stack) }
    } else {
      flow.startFlow(on: stack)
    }
    do {
      try await session.run(navigator: navigator)
    } catch {
      FileHandle.standardError.write(Data("showcase: \(error)\n".utf8))
      throw ExitCode(2)
    }
  }
}
