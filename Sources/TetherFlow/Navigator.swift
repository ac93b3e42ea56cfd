import Tether

/// What flows ask of navigation: push, pop and present, for one app's `Destination` type.
///
/// ``ScreenStack`` is the implementation every view layer renders; `RecordingNavigator`
/// (TetherTesting) records the requests on top of one, so tests can assert navigation without
/// any UI.
@MainActor
public protocol Navigator<Destination>: AnyObject {
  /// The app's destination type.
  associatedtype Destination

  /// Replaces the whole stack with `screen`.
  func setRoot(_ screen: Screen<Destination>)
  /// Shows `screen` on top of the current one.
  func push(_ screen: Screen<Destination>)
  /// Removes the top screen (never the root).
  func pop()
  /// Shows `alert` over the current screen, replacing any alert shown; `onResponse` hears
  /// which button the user pressed (the alert is dismissed first). An alert dismissed any other
  /// way (replaced, ``dismissAlert()``, a new root) gets no response. An alert a web session
  /// restored on another server has no `onResponse`: its buttons reach the flows through
  /// ``alertResponses``, with the actions they carry.
  func present(
    _ alert: ScreenAlert, onResponse: @escaping @MainActor (ScreenAlert.Button) -> Void)
  /// Dismisses the presented alert, if any.
  func dismissAlert()
  /// Every button pressed on an alert this navigator showed, after the alert is dismissed and
  /// its `onResponse` has run — including an alert restored on another server, which has no
  /// `onResponse`. A flow observes it for the buttons whose action it knows
  /// (``ScreenAlert/Button/action(as:)``), so the meaning of a button survives a resume.
  var alertResponses: Signal<ScreenAlert.Button> { get }
}

extension Navigator {
  /// Shows `alert`, with no interest in which button is pressed: an informational alert.
  public func present(_ alert: ScreenAlert) {
    present(alert) { _ in }
  }
}
