/// A session's account of the page's numbered gestures (``ClientEnvelope``): which it has
/// handled, which have their effects kept, and which the page has been told of.
///
/// The page keeps each gesture until it is acknowledged and sends it again on its next socket,
/// to this server or another. So a gesture is acknowledged only once what it started that must
/// outlive the server is done — every view on the stack settled — and a number already handled
/// is never handled twice.
@MainActor
final class GestureLedger {
  /// The newest gesture handled.
  private(set) var handled = 0
  /// The newest gesture whose effects are kept.
  private(set) var settled = 0
  /// The newest gesture the page was told of.
  private var told = 0
  /// Waits for the views to settle, then moves ``settled`` on.
  private var waiting: Task<Void, Never>?

  /// Whether every gesture handled has its effects kept.
  var isSettled: Bool { settled == handled }

  /// Takes gesture `number` for handling: `false` when it was handled already (the page sent
  /// it again after a reconnect), and only its acknowledgement is owed.
  func take(_ number: Int) -> Bool {
    guard number > handled else { return false }
    handled = number
    return true
  }

  /// Moves ``settled`` to the newest gesture handled once `views` are all settled: at once if
  /// they are, else after each one's `settled()`, calling `onSettled` each time it moves.
  ///
  /// - Parameters:
  ///   - views: The views whose writes the gestures started (read anew on each pass).
  ///   - onSettled: Sends what the page is owed, the acknowledgement among it.
  func acknowledgeWhenSettled(
    _ views: @escaping @MainActor () -> [any WebView], onSettled: @escaping @MainActor () -> Void
  ) {
    guard waiting == nil else { return }  // the waiting task takes the newer number too
    if views().allSatisfy(\.isSettled) {
      settled = handled
      return
    }
    waiting = Task { [weak self] in
      while let self {
        let target = self.handled
        for view in views() { await view.settled() }
        if Task.isCancelled { return }
        self.settled = max(self.settled, target)
        let done = self.handled == target
        if done { self.waiting = nil }
        onSettled()
        if done { return }
      }
    }
  }

  /// The acknowledgement the page is owed, if one is: the newest settled gesture, once.
  func acknowledgementDue() -> Int? {
    guard settled > told else { return nil }
    told = settled
    return settled
  }

  /// Forgets what the page was told: a page that reconnects is told again.
  func pageReconnected() {
    told = 0
  }

  /// Stops waiting for views to settle: the session closes.
  func cancel() {
    waiting?.cancel()
    waiting = nil
  }
}
