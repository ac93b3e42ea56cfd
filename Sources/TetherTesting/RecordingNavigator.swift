import Testing
import TetherFlow

/// A `Navigator` that records what flows ask of it, on top of a real `ScreenStack`:
///
/// ```swift
/// let navigator = RecordingNavigator<ShowcaseDestination>()
/// AppFlow(services: services).startFlow(on: navigator)  // TetherFlow's helper
/// homeViewModel.userSelected(row: 0)
/// navigator.assertEvents([.setRoot("Tether showcase"), .push("Popular")])
/// #expect(navigator.path == "/gallery")
/// ```
///
/// Every request goes on to ``stack``, so popping releases screens (and the flows they own)
/// exactly as a view layer would: leak-track them to prove it.
@MainActor
public final class RecordingNavigator<Destination>: Navigator {
  /// One navigation request.
  public enum Event: Equatable, Sendable, CustomStringConvertible {
    /// `setRoot` with the screen's title.
    case setRoot(String)
    /// `push` with the screen's title.
    case push(String)
    /// `pop`.
    case pop
    /// `present` with the alert.
    case present(ScreenAlert)
    /// `dismissAlert`.
    case dismissAlert
    /// `presentSheet` with the sheet's title.
    case presentSheet(String)
    /// `dismissSheet`, while a sheet was shown.
    case dismissSheet

    /// A short description for failure messages.
    public var description: String {
      switch self {
      case .setRoot(let title): "setRoot(\(title))"
      case .push(let title): "push(\(title))"
      case .pop: "pop"
      case .present(let alert): "present(\(alert))"
      case .dismissAlert: "dismissAlert"
      case .presentSheet(let title): "presentSheet(\(title))"
      case .dismissSheet: "dismissSheet"
      }
    }
  }

  /// The state the requests built: what a view layer would render.
  public let stack: ScreenStack<Destination>
  /// Every request, oldest first.
  public private(set) var events: [Event] = []

  /// Creates a navigator over `stack`.
  ///
  /// - Parameter stack: The stack requests go on to; a new one by default.
  public init(stack: ScreenStack<Destination> = ScreenStack()) {
    self.stack = stack
  }

  /// The screens shown, root first.
  public var screens: [Screen<Destination>] { stack.screens }
  /// The screen on top, if any.
  public var topScreen: Screen<Destination>? { stack.topScreen }
  /// The alert shown, if any.
  public var alert: ScreenAlert? { stack.alert }
  /// The sheet shown over the top screen, if any.
  public var sheet: Screen<Destination>? { stack.sheet }
  /// The stack's path, such as `/gallery/photo/230200335`: the stack's own `ScreenPath`, so
  /// a test compares it with a literal (`navigator.path == "/gallery"`) or with a path.
  public var path: ScreenPath { stack.path }

  /// Records the request and makes `screen` the only one.
  public func setRoot(_ screen: Screen<Destination>) {
    events.append(.setRoot(screen.title))
    stack.setRoot(screen)
  }

  /// Records the request and puts `screen` on top.
  public func push(_ screen: Screen<Destination>) {
    events.append(.push(screen.title))
    stack.push(screen)
  }

  /// Records the request and removes the top screen unless it is the root.
  public func pop() {
    events.append(.pop)
    stack.pop()
  }

  /// Records the request and shows `alert`; `onResponse` hears the button a test presses
  /// with ``respond(to:)``.
  public func present(
    _ alert: ScreenAlert, onResponse: @escaping @MainActor (ScreenAlert.Button) -> Void
  ) {
    events.append(.present(alert))
    stack.present(alert, onResponse: onResponse)
  }

  /// Presses `button` of the alert shown, as a user would (not a flow request, so not
  /// recorded): the alert goes and its presenter hears the button.
  ///
  /// - Parameter button: The button.
  /// - Returns: Whether the alert shown had that button.
  @discardableResult
  public func respond(to button: ScreenAlert.Button) -> Bool {
    stack.respond(to: button)
  }

  /// Every button pressed on an alert of ``stack``.
  public var alertResponses: Signal<ScreenAlert.Button> { stack.alertResponses }

  /// Records the request and removes the alert.
  public func dismissAlert() {
    events.append(.dismissAlert)
    stack.dismissAlert()
  }

  /// Records the request and shows `screen` as a sheet; `onDismiss` hears that it went.
  public func presentSheet(
    _ screen: Screen<Destination>, onDismiss: @escaping @MainActor () -> Void
  ) {
    events.append(.presentSheet(screen.title))
    stack.presentSheet(screen, onDismiss: onDismiss)
  }

  /// Records the request (when a sheet is shown) and removes the sheet.
  public func dismissSheet() {
    guard stack.sheet != nil else { return }
    events.append(.dismissSheet)
    stack.dismissSheet()
  }

  /// Closes the sheet shown as the person would (Escape, its Close button): not a flow
  /// request, so not recorded. A flow waiting in `presentSheet(_:until:)` gets
  /// `nil`.
  public func closeSheet() {
    stack.dismissSheet()
  }

  /// Forgets the recorded events (the stack stays).
  public func clearEvents() {
    events.removeAll()
  }

  /// Records a test issue unless the events since the last clear are exactly `expected`;
  /// then clears them.
  ///
  /// - Parameters:
  ///   - expected: The expected requests, oldest first.
  ///   - sourceLocation: Where a failure is reported.
  public func assertEvents(
    _ expected: [Event], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      events == expected, "navigation was \(events), not \(expected)",
      sourceLocation: sourceLocation)
    events.removeAll()
  }
}
