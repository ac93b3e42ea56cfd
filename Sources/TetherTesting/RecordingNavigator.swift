import Testing
import TetherFlow

/// A ``Navigator`` that records what flows ask of it, for asserting navigation without UI:
///
/// ```swift
/// let navigator = RecordingNavigator()
/// MainFlowController(services: .bundled()).startFlow(on: navigator)
/// homeViewModel.userSelected(row: 0)
/// navigator.assertEvents([.setRoot("Tether showcase"), .push("Popular")])
/// ```
///
/// It keeps a real stack, so popping releases screens (and the flows they own) exactly as a
/// view layer would: leak-track them to prove it.
@MainActor
public final class RecordingNavigator: Navigator {
  /// One navigation request.
  public enum Event: Equatable, Sendable, CustomStringConvertible {
    /// `setRoot` with the screen's title.
    case setRoot(String)
    /// `push` with the screen's title.
    case push(String)
    /// `pop`.
    case pop
    /// `present` with the alert.
    case present(Alert)
    /// `dismissAlert`.
    case dismissAlert

    /// A short description for failure messages.
    public var description: String {
      switch self {
      case .setRoot(let title): "setRoot(\(title))"
      case .push(let title): "push(\(title))"
      case .pop: "pop"
      case .present(let alert): "present(\(alert.title): \(alert.message))"
      case .dismissAlert: "dismissAlert"
      }
    }
  }

  /// Every request, oldest first.
  public private(set) var events: [Event] = []
  /// The screens shown, root first.
  public private(set) var stack: [Screen] = []
  /// The alert shown, if any.
  public private(set) var alert: Alert?

  /// Creates an empty navigator.
  public init() {}

  /// The screen on top, if any.
  public var topScreen: Screen? { stack.last }

  /// Records the request and makes `screen` the only one.
  public func setRoot(_ screen: Screen) {
    events.append(.setRoot(screen.title))
    stack = [screen]
  }

  /// Records the request and puts `screen` on top.
  public func push(_ screen: Screen) {
    events.append(.push(screen.title))
    stack.append(screen)
  }

  /// Records the request and removes the top screen unless it is the root.
  public func pop() {
    events.append(.pop)
    if stack.count > 1 { stack.removeLast() }
  }

  /// Records the request and shows `alert`.
  public func present(_ alert: Alert) {
    events.append(.present(alert))
    self.alert = alert
  }

  /// Records the request and removes the alert.
  public func dismissAlert() {
    events.append(.dismissAlert)
    alert = nil
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
