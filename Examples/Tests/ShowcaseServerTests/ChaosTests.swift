import Articles
import Courses
import Foundation
import Gallery
import ShowcaseFlows
import ShowcaseServer
import ShowcaseTerminal
import ShowcaseWeb
import Testing
import Tether
import TetherFlow
import TetherTerminal
import TetherWeb

/// One app under chaos: where it starts, the gesture that makes it fetch (if opening it does
/// not), its terminal retry key, and text that only the loaded screen shows.
struct ChaosApp: Sendable, CustomTestStringConvertible {
  let path: String
  let fetchKey: Character?
  let retryKey: Character
  let loaded: String
  var testDescription: String { path }

  static let all = [
    ChaosApp(
      path: "/gallery", fetchKey: nil, retryKey: "r",
      loaded: BundledPhotoService.page(1).photos[0].name),
    ChaosApp(
      path: "/courses", fetchKey: nil, retryKey: "r", loaded: BundledCourseService.catalog[0].name),
    ChaosApp(path: "/profile", fetchKey: nil, retryKey: "r", loaded: "@octocat"),
    ChaosApp(
      path: "/articles", fetchKey: nil, retryKey: "r",
      loaded: BundledArticleService.models[0].title),
    ChaosApp(path: "/entry", fetchKey: "f", retryKey: "f", loaded: "User: "),
  ]
}

/// Polls `condition` every 20 ms for up to 10 s.
@MainActor
func eventually(_ condition: () -> Bool) async -> Bool {
  for _ in 0..<500 {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(20))
  }
  return condition()
}

/// `showcase-api` failing every request (status, malformed JSON, dropped connection), then
/// healthy again: every app shows its error state, and its Retry — a key in the terminal, a
/// button on the web — loads the data once the server recovers. Both view layers, the real
/// HTTP services, a real server on loopback.
@MainActor
@Suite(.serialized) struct ChaosTests {
  static let modes = FaultInjection.Mode.allCases

  @Test("terminal: every app shows the error and its retry key recovers", arguments: ChaosApp.all)
  func terminal(app: ChaosApp) async throws {
    for mode in Self.modes {
      let faults = FaultSwitch(FaultInjection(failRate: 1, mode: mode))
      try await withShowcaseServer(faults: faults) { url in
        let stack = ScreenStack<ShowcaseDestination>()
        let tick = MutableProperty(0)
        let navigator = TerminalNavigator(
          stack: stack,
          screens: { screen in
            ShowcaseViews.makeScreen(for: screen, tick: tick)
          })
        let flow = MainFlowController(services: .http(baseURL: url, timeout: .seconds(5)))
        _ = await flow.openPresentingFailure(ScreenPath(parsing: app.path), on: stack)
        var text: String { navigator.render(width: 100, height: 30).text }
        _ = text  // the screen appears: its view model starts loading
        if let key = app.fetchKey { navigator.handle(.character(key)) }
        let failed = await eventually { text.contains("to retry") }
        #expect(failed, "\(app.path), \(mode): no error shown:\n\(text)")

        faults.current = .none
        navigator.handle(.character(app.retryKey))
        let recovered = await eventually { text.contains(app.loaded) && !text.contains("retry") }
        #expect(recovered, "\(app.path), \(mode): retry did not recover:\n\(text)")
        withExtendedLifetime(flow) {}
      }
    }
  }

  @Test("web: every app shows the error and its Retry button recovers", arguments: ChaosApp.all)
  func web(app: ChaosApp) async throws {
    for mode in Self.modes {
      let faults = FaultSwitch(FaultInjection(failRate: 1, mode: mode))
      try await withShowcaseServer(faults: faults) { url in
        let stack = ScreenStack<ShowcaseDestination>()
        let flow = MainFlowController(services: .http(baseURL: url, timeout: .seconds(5)))
        _ = await flow.openPresentingFailure(ScreenPath(parsing: app.path), on: stack)
        let session = WebSession(
          id: "chaos", stack: stack, appTitle: "Tether showcase",
          open: { _ in }, trackedObject: { $0.destination.viewModel },
          makeView: ShowcaseWebViews.makeView(for:))
        var page: String { session.document(script: "/tether.js", style: "/tether.css") }
        await session.waitForAppearance()
        if app.fetchKey != nil, let fetch = buttonID(labelled: "Fetch user", in: page) {
          await session.receive(ClientMessage.click(id: fetch).json)
        }
        let failed = await eventually { page.contains("Retry") }
        #expect(failed, "\(app.path), \(mode): no error shown:\n\(page)")

        faults.current = .none
        let retry = try #require(buttonID(labelled: "Retry", in: page))
        #expect(await session.receive(ClientMessage.click(id: retry).json) == nil)
        let loaded = HTMLEscaping.text(app.loaded)
        let recovered = await eventually { page.contains(loaded) && !page.contains(">Retry<") }
        #expect(recovered, "\(app.path), \(mode): retry did not recover:\n\(page)")
        session.close()
        withExtendedLifetime(flow) {}
      }
    }
  }

  /// The id of the button whose label is `label`.
  private func buttonID(labelled label: String, in page: String) -> String? {
    guard let end = page.range(of: ">\(label)</button>") else { return nil }
    let before = page[..<end.lowerBound]
    guard let start = before.range(of: "<button id=\"", options: .backwards) else { return nil }
    let rest = before[start.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
  }
}
