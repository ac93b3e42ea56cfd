import Foundation
import Tether
import TetherFlow

/// What a server needs to know of an app to give every browser tab its own session: its
/// title, its root flow (a new one per tab) and the web view of each destination.
///
/// ```swift
/// let app = WebApp(title: "Counter", rootFlow: { CounterFlow() }) { screen in
///   switch screen.destination {
///   case .counter(let counter): CounterView(counter)
///   }
/// }
/// ```
///
/// A tab's path (`/gallery/photo/230200335`) is followed as a deep link: the root flow
/// starts, then the flow's `restore(_:on:)` pushes the screens the rest of the path
/// names.
@MainActor
public struct WebApp {
  /// The title every page's title ends with.
  public let title: String
  /// The app's own style sheet, served at `/app.css` after the library's and linked from
  /// every page: keep it in a `.css` file of the app's target and read it with
  /// ``stylesheet(contentsOf:)``, never as a Swift string.
  public var stylesheet: String?

  /// The app with the style sheet in the file at `url` (a resource of the app's target).
  ///
  /// - Parameter url: The `.css` file.
  /// - Returns: The app with ``stylesheet`` set to the file's text.
  /// - Throws: The error reading the file.
  public func stylesheet(contentsOf url: URL) throws -> WebApp {
    var app = self
    app.stylesheet = try String(contentsOf: url, encoding: .utf8)
    return app
  }
  /// The scripts of the app's client hooks (``WebHook``), by hook: each served at its
  /// ``WebHook/scriptPath`` and loaded by every page (``hook(_:contentsOf:)``).
  public internal(set) var hookScripts: [WebHook: String] = [:]
  /// What every page shows around its screen that the app writes itself (``chrome(_:)``).
  public var chrome = WebPageChrome.standard
  /// Where a session's uploads (``fileInput(_:label:_:)``) are written as they arrive, and how
  /// many bytes one session may receive at once.
  public var uploads = WebUploadLimits()

  /// Builds a session for a tab: its stack, opened at a path.
  let makeSession:
    @MainActor (
      _ id: String, _ path: ScreenPath, _ signer: WebResumeSigner?, _ client: WebClient,
      _ chrome: WebPageChrome
    )
      async -> Result<
        (session: WebSession, track: (@escaping ([AnyObject]) -> Void) -> ObservationToken),
        NavigationError
      >

  /// Describes an app whose root flow is the same for every browser.
  ///
  /// - Parameters:
  ///   - title: The title every page's title ends with.
  ///   - rootFlow: A new root flow, for each tab (and for each path a tab opens that is not on
  ///     its stack, such as a browser's Forward).
  ///   - trackedObject: The screen's view model: the object whose release proves the session
  ///     freed the screen (``WebSessionRegistry/liveObjects``), and, with the screen's
  ///     destination, the one the session asks whether its writes are done
  ///     (`SettlingViewModel`) and what it keeps across servers (`RestorableViewModel`).
  ///     The screen by default.
  ///   - makeView: The web view for a screen: a switch over the app's destinations.
  public init<Flow: FlowController>(
    title: String, rootFlow: @escaping @MainActor () -> Flow,
    trackedObject: @escaping @MainActor (Screen<Flow.Destination>) -> AnyObject = { $0 },
    makeView: @escaping @MainActor (Screen<Flow.Destination>) -> any WebScreen
  ) {
    self.init(
      title: title, rootFlowFor: { _ in rootFlow() }, trackedObject: trackedObject,
      makeView: makeView)
  }

  /// Describes an app whose root flow depends on the browser: its data (a TodoMVC list kept
  /// per browser) is found by the browser's ``WebClient/id``.
  ///
  /// - Parameters:
  ///   - title: The title every page's title ends with.
  ///   - rootFlowFor: A new root flow for a tab of this browser.
  ///   - trackedObject: The screen's view model (see
  ///     ``init(title:rootFlow:trackedObject:makeView:)``).
  ///   - makeView: The web view for a screen: a switch over the app's destinations.
  public init<Flow: FlowController>(
    title: String, rootFlowFor: @escaping @MainActor (WebClient) -> Flow,
    trackedObject: @escaping @MainActor (Screen<Flow.Destination>) -> AnyObject = { $0 },
    makeView: @escaping @MainActor (Screen<Flow.Destination>) -> any WebScreen
  ) {
    self.init(
      title: title, rootFlowFor: rootFlowFor, trackedObject: trackedObject,
      makeWebView: { screen in
        MountedScreen(
          makeView(screen), viewModels: MountedScreen.viewModels(of: screen, trackedObject))
      })
  }

  /// An app whose views are hand-built ``WebView``s: the library's own tests and the
  /// benchmarks' hand-built baseline.
  @_spi(HandBuilt)
  public init<Flow: FlowController>(
    title: String, rootFlowFor: @escaping @MainActor (WebClient) -> Flow,
    trackedObject: @escaping @MainActor (Screen<Flow.Destination>) -> AnyObject = { $0 },
    makeWebView: @escaping @MainActor (Screen<Flow.Destination>) -> any WebView
  ) {
    self.title = title
    makeSession = { id, path, signer, client, chrome in
      let stack = ScreenStack<Flow.Destination>()
      do throws(NavigationError) {
        try await rootFlowFor(client).open(path, on: stack)
      } catch {
        return .failure(error)
      }
      let session = WebSession(
        id: id, stack: stack, appTitle: title, chrome: chrome, resumeSigner: signer,
        client: client,
        open: { [weak stack] path in
          guard let stack else { return }
          await rootFlowFor(client).openPresentingFailure(path, on: stack)
        },
        makeWebView: makeWebView)
      // Hands every screen's tracked object to the registry while the stack shows it.
      // (Called once, at once, by the registry; the token holds no object of the stack.)
      let track = { (handler: @escaping ([AnyObject]) -> Void) -> ObservationToken in
        stack.$screens.observe { screens in handler(screens.map(trackedObject)) }
      }
      return .success((session, track))
    }
  }

  /// An app whose views are hand-built ``WebView``s, with one root flow for every browser.
  @_spi(HandBuilt)
  public init<Flow: FlowController>(
    title: String, rootFlow: @escaping @MainActor () -> Flow,
    trackedObject: @escaping @MainActor (Screen<Flow.Destination>) -> AnyObject = { $0 },
    makeWebView: @escaping @MainActor (Screen<Flow.Destination>) -> any WebView
  ) {
    self.init(
      title: title, rootFlowFor: { _ in rootFlow() }, trackedObject: trackedObject,
      makeWebView: makeWebView)
  }
}
