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
  /// Shows `screen` as a sheet: a modal screen over the top one, which takes every gesture
  /// until it is dismissed. `onDismiss` hears that it went, however it went: the flow
  /// dismissed it, the person closed it (Escape, its Close button, a browser's Back), or the
  /// stack changed under it (a push, a pop, a new root). A sheet shown replaces any sheet
  /// shown, whose `onDismiss` runs first. Flows usually call
  /// ``presentSheet(_:until:)`` instead, which waits for the sheet's result.
  func presentSheet(_ screen: Screen<Destination>, onDismiss: @escaping @MainActor () -> Void)
  /// Dismisses the sheet shown, if any.
  func dismissSheet()
}

extension Navigator {
  /// Shows `alert`, with no interest in which button is pressed: an informational alert.
  public func present(_ alert: ScreenAlert) {
    present(alert) { _ in }
  }

  /// The actions of the alert buttons pressed, as values of the flow's own action type:
  /// ``alertResponses`` read with ``ScreenAlert/Button/action(as:)``, leaving out a button with
  /// no action or with another type's. A flow switches over its actions, with no `nil` case,
  /// whichever server showed the alert:
  ///
  /// ```swift
  /// enum CoursesAction: Codable { case remove(id: Int), moveToTop(id: Int) }
  ///
  /// navigator.alertActions(CoursesAction.self).observe { action in
  ///   switch action {
  ///   case .remove(let id): list.removalConfirmed(id: id)
  ///   case .moveToTop(let id): list.moveToTopConfirmed(id: id)
  ///   }
  /// }
  /// .store(in: lifetime)
  /// ```
  ///
  /// - Parameter type: The flow's action type, which its buttons were made with
  ///   (``ScreenAlert/Button/init(_:role:action:)``).
  /// - Returns: Each pressed button's action.
  public func alertActions<Action: Decodable>(
    _ type: Action.Type = Action.self
  ) -> Signal<Action> {
    alertResponses.compactMap { $0.action(as: Action.self) }
  }

  /// Shows `screen` as a sheet and waits for its result: the first value `result` sends (the
  /// sheet's view model saying "done, with this"), after which the sheet is dismissed; `nil`
  /// if the sheet is dismissed first (closed by the person, replaced, or the stack changed).
  ///
  /// ```swift
  /// let picker = SalutationPickerViewModel(current: greeting.salutation)
  /// let sheet = Screen(ShowcaseDestination.salutations(picker), title: "Salutation")
  /// if let chosen = await navigator.presentSheet(sheet, until: picker.chosen) {
  ///   greeting.use(chosen)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - screen: The sheet's screen.
  ///   - result: The sheet's result; only its first value counts.
  /// - Returns: The result, or `nil` for a sheet dismissed without one.
  public func presentSheet<Result: Sendable>(
    _ screen: Screen<Destination>, until result: Signal<Result>
  ) async -> Result? {
    await withCheckedContinuation { continuation in
      presentSheet(screen, until: result) { continuation.resume(returning: $0) }
    }
  }

  /// Shows `screen` as a sheet at once and calls `onResult` once: with the first value
  /// `result` sends (then the sheet is dismissed), or with `nil` if the sheet goes first. The
  /// form for a flow that must show the sheet before it returns — restoring a path that ends
  /// at a sheet; otherwise ``presentSheet(_:until:)`` reads better.
  ///
  /// - Parameters:
  ///   - screen: The sheet's screen.
  ///   - result: The sheet's result; only its first value counts.
  ///   - onResult: Hears the result, or `nil`.
  public func presentSheet<Result>(
    _ screen: Screen<Destination>, until result: Signal<Result>,
    onResult: @escaping @MainActor (Result?) -> Void
  ) {
    let answer = SheetAnswer(onResult)
    // The result first, then the dismissal it causes: the second answer is ignored. The
    // navigator's dismissal keeps the answer alive; a navigator released with the sheet up
    // takes the observation with it.
    answer.token = result.observe { [weak self, weak answer] value in
      answer?.give(value)
      self?.dismissSheet()
    }
    presentSheet(screen) { answer.give(nil) }
  }
}

/// Gives a sheet's presenter its answer once: the first one.
@MainActor
private final class SheetAnswer<Result> {
  private var onResult: (@MainActor (Result?) -> Void)?
  var token: ObservationToken?

  init(_ onResult: @escaping @MainActor (Result?) -> Void) {
    self.onResult = onResult
  }

  func give(_ value: Result?) {
    token = nil
    let onResult = self.onResult
    self.onResult = nil
    onResult?(value)
  }
}
