import Tether

/// One view per screen on a ``ScreenStack``, for a view layer: made when the screen is
/// first shown (and then the screen's ``Screen/appearance`` starts, once), kept while the
/// screen is on the stack, and dropped when it leaves — which cancels its appearance if that
/// still runs, so a popped screen's first load stops. The terminal and the web layer both
/// render through one.
///
/// A layer that wants to show data rather than a spinner (a web page's first answer) waits for
/// the screens' appearances with ``appearancesFinished(timeout:)``.
@MainActor
public final class ScreenViewCache<View> {
  private var views: [ObjectIdentifier: View] = [:]
  private var appearances: [ObjectIdentifier: Appearance] = [:]
  private var token: ObservationToken?
  private var sheetToken: ObservationToken?
  private var sheet: (id: ObjectIdentifier, view: View, appearance: Appearance?)?
  private var order: [ObjectIdentifier] = []
  private let top: () -> ObjectIdentifier?

  /// Starts following `stack`.
  ///
  /// - Parameters:
  ///   - stack: The stack whose screens get views.
  ///   - make: The view for a screen: a switch over the app's destinations.
  public init<Destination>(
    stack: ScreenStack<Destination>, make: @escaping @MainActor (Screen<Destination>) -> View
  ) {
    top = { [weak stack] in stack?.topScreen.map { ObjectIdentifier($0) } }
    token = stack.$screens.observe { [weak self] screens in
      self?.sync(screens, make: make)
    }
    sheetToken = stack.$sheet.observe { [weak self] sheet in
      self?.syncSheet(sheet, make: make)
    }
  }

  /// The view of the sheet shown over the top screen (`ScreenStack.sheet`), if any.
  public var sheetView: View? { sheet?.view }

  /// The view of the screen on top, if any.
  public var topView: View? {
    top().flatMap { views[$0] }
  }

  /// Every screen's view, bottom to top.
  public var orderedViews: [View] { order.compactMap { views[$0] } }

  /// How many views are kept (one per screen on the stack).
  public var count: Int { views.count }

  /// Waits until the appearance of every screen shown has finished (their first loads have
  /// landed), or until `timeout`, whichever is first. Screens that appear meanwhile are waited
  /// for too.
  ///
  /// - Parameter timeout: The longest wait; `.zero` only asks whether they have finished.
  /// - Returns: Whether every appearance finished in time.
  @discardableResult
  public func appearancesFinished(timeout: Duration = .seconds(1)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while let running = (appearances.values + [sheet?.appearance].compactMap { $0 })
      .first(where: { !$0.isFinished })
    {
      guard ContinuousClock.now < deadline, await running.wait(until: deadline) else {
        return false
      }
    }
    return true
  }

  /// Stops following the stack and drops every view; appearances still running are cancelled.
  public func removeAll() {
    token = nil
    sheetToken = nil
    sheet?.appearance?.cancel()
    sheet = nil
    views = [:]
    order = []
    for appearance in appearances.values { appearance.cancel() }
    appearances = [:]
  }

  private func syncSheet<Destination>(
    _ screen: Screen<Destination>?, make: (Screen<Destination>) -> View
  ) {
    guard let screen else {
      sheet?.appearance?.cancel()
      sheet = nil
      return
    }
    guard sheet?.id != ObjectIdentifier(screen) else { return }
    sheet?.appearance?.cancel()
    sheet = (ObjectIdentifier(screen), make(screen), Self.startAppearance(of: screen))
  }

  private func sync<Destination>(
    _ screens: [Screen<Destination>], make: (Screen<Destination>) -> View
  ) {
    order = screens.map { ObjectIdentifier($0) }
    let shown = Set(order)
    views = views.filter { shown.contains($0.key) }
    // A screen that left the stack stops its appearance: its first load is cancelled.
    for (id, appearance) in appearances where !shown.contains(id) { appearance.cancel() }
    appearances = appearances.filter { shown.contains($0.key) }
    for screen in screens where views[ObjectIdentifier(screen)] == nil {
      views[ObjectIdentifier(screen)] = make(screen)
      appearances[ObjectIdentifier(screen)] = Self.startAppearance(of: screen)
    }
  }

  /// Starts `screen`'s appearance input, if it has one.
  private static func startAppearance<Destination>(of screen: Screen<Destination>) -> Appearance? {
    guard let input = screen.appearance else { return nil }
    let appearance = Appearance()
    appearance.task = Task {
      await input()
      appearance.finish()
    }
    return appearance
  }
}

/// One screen's appearance input while it runs, and who waits for it.
@MainActor
private final class Appearance {
  private(set) var isFinished = false
  /// The appearance input's task, cancelled when the screen leaves the stack.
  var task: Task<Void, Never>?
  private var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
  private var nextWaiter = 0

  func finish() {
    isFinished = true
    task = nil  // a finished task's object is not kept for the screen's whole life
    let waiting = waiters
    waiters = [:]
    for waiter in waiting.values { waiter.resume(returning: true) }
  }

  /// Cancels the appearance input; whoever waits for it is answered at once.
  func cancel() {
    task?.cancel()
    task = nil
    finish()
  }

  /// Whether the appearance finished before `deadline`.
  func wait(until deadline: ContinuousClock.Instant) async -> Bool {
    guard !isFinished else { return true }
    let id = nextWaiter
    nextWaiter += 1
    let timer = Task { [weak self] in
      try? await Task.sleep(until: deadline)
      self?.timeOut(id)
    }
    let finished = await withCheckedContinuation { waiters[id] = $0 }
    timer.cancel()
    return finished
  }

  private func timeOut(_ id: Int) {
    waiters.removeValue(forKey: id)?.resume(returning: false)
  }
}
