import TetherFlow

/// What a page shows around its screen that an app may write itself: the title bar's content
/// and the alert's. The rules stay the library's whichever markup draws them — Back goes back
/// in the browser's history, everything behind an alert or a sheet is inert, the alert opens
/// on its default button and Escape answers its cancel button (TetherFlow's presentation
/// rules) — so a chrome only says what they look like.
///
/// ```swift
/// let app = WebApp(title: "Boards", rootFlow: { BoardsFlow() }) { screen in
///   BoardsScreen(board: screen.destination)
/// }
/// .chrome(
///   WebPageChrome(bar: { bar in
///     nav(.class("brand")) {
///       if bar.canGoBack { backButton("Back") }
///       a(.href(trusted: "/")) { bar.appTitle }
///       pageTitle(bar.title)
///     }
///   }))
/// ```
///
/// A part left `nil` is the library's own.
@MainActor
public struct WebPageChrome {
  /// What the gestures of a chrome's markup ask for.
  public enum Action: Equatable, Sendable {
    /// Answer the open alert with its button at this position (``alertButton(_:)`` sends it).
    case respond(toButtonAt: Int)
  }

  /// What the title bar shows.
  public struct Bar: Equatable, Sendable {
    /// The top screen's title, or the app's when the stack has none.
    public let title: String
    /// The app's title.
    public let appTitle: String
    /// Whether a screen is below the top one: Back has somewhere to go.
    public let canGoBack: Bool
  }

  /// The open alert, as TetherFlow's rules present it.
  public struct Alert: Equatable, Sendable {
    /// Its title.
    public let title: String
    /// Its message.
    public let message: String
    /// Whether it is a confirmation dialog (an action sheet) rather than an alert.
    public let isConfirmationDialog: Bool
    /// Its buttons, in the order the rules present them.
    public let buttons: [Button]
  }

  /// One of an alert's buttons.
  public struct Button: Equatable, Sendable {
    /// Its position among the alert's buttons.
    public let index: Int
    /// Its title.
    public let title: String
    /// Whether it destroys something (drawn apart, never the default).
    public let isDestructive: Bool
    /// Whether the keyboard is on it: the alert opens on it and Enter presses it.
    public let isFocused: Bool
  }

  /// The title bar's content, or `nil` for the library's (Back, then the title).
  let bar: ((Bar) -> Markup<Never>)?
  /// The alert's content, or `nil` for the library's (title, message, buttons).
  let alert: ((Alert) -> Markup<Action>)?

  /// A chrome whose given parts are the app's markup.
  ///
  /// - Parameters:
  ///   - bar: The title bar's content. Name the screen with ``pageTitle(_:)`` (a page's lists
  ///     take it as their accessible name) and offer Back with ``backButton(_:)``.
  ///   - alert: An alert's content, inside the dialog the library opens. Draw each button with
  ///     ``alertButton(_:)``, which answers the alert and carries the keyboard's focus.
  public init(
    @MarkupBuilder<Never> bar: @escaping (Bar) -> Markup<Never>,
    @MarkupBuilder<Action> alert: @escaping (Alert) -> Markup<Action>
  ) {
    self.bar = bar
    self.alert = alert
  }

  /// A chrome whose title bar is the app's markup and whose alert is the library's.
  ///
  /// - Parameter bar: The title bar's content (see ``init(bar:alert:)``).
  public init(@MarkupBuilder<Never> bar: @escaping (Bar) -> Markup<Never>) {
    self.bar = bar
    alert = nil
  }

  /// A chrome whose alert is the app's markup and whose title bar is the library's.
  ///
  /// - Parameter alert: An alert's content (see ``init(bar:alert:)``).
  public init(@MarkupBuilder<Action> alert: @escaping (Alert) -> Markup<Action>) {
    bar = nil
    self.alert = alert
  }

  private init(
    bar: ((Bar) -> Markup<Never>)?, alert: ((Alert) -> Markup<Action>)?
  ) {
    self.bar = bar
    self.alert = alert
  }

  /// The library's own title bar and alert.
  public static var standard: WebPageChrome { WebPageChrome(bar: nil, alert: nil) }
}

extension WebApp {
  /// The app with its own title bar or alert markup around every screen.
  ///
  /// - Parameter chrome: The parts the app writes itself.
  /// - Returns: The app with ``chrome`` set.
  public func chrome(_ chrome: WebPageChrome) -> WebApp {
    var app = self
    app.chrome = chrome
    return app
  }
}

/// The page's Back button: it goes back in the browser's history, as the browser's own Back
/// does, so the address and the stack stay in step.
///
/// - Parameter title: The button's text.
/// - Returns: The button.
@MainActor
public func backButton<Action>(_ title: String = "‹ Back") -> Markup<Action> {
  Markup(nodes: [
    .control { _, _, _ in
      .element(
        "button", id: "back", [("type", "button"), ("class", "back"), ("data-back", "")],
        [.text(title)])
    }
  ])
}

/// The screen's title as the page's heading: the element a page's lists are named by.
///
/// - Parameter title: The title.
/// - Returns: The heading.
@MainActor
public func pageTitle<Action>(_ title: String) -> Markup<Action> {
  Markup(nodes: [.control { _, _, _ in .element("h1", id: "title", [], [.text(title)]) }])
}

/// One of an open alert's buttons: a click answers the alert with it, and the alert opens
/// with the keyboard on the focused one.
///
/// - Parameter button: The button, as ``WebPageChrome/Alert/buttons`` gives it.
/// - Returns: The button.
@MainActor
public func alertButton(_ button: WebPageChrome.Button) -> Markup<WebPageChrome.Action> {
  Markup(nodes: [
    .control { _, context, dispatch in
      let id = WebPageShell.alertButtonID(button.index)
      context.onClick(id) { dispatch(.respond(toButtonAt: button.index)) }
      if button.isFocused { context.focus = id }
      let className = button.isDestructive ? "alert-button destructive" : "alert-button"
      return .element(
        "button", id: id, [("type", "button"), ("class", className)], [.text(button.title)])
    }
  ])
}
