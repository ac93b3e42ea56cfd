import Tether

/// One view per screen on a ``ScreenStack``, for a view layer: made when the screen is
/// first shown (then `appeared` is called once), kept while the screen is on the stack, and
/// dropped when it leaves. The terminal and the web layer both render through one.
@MainActor
public final class ScreenViewCache<View> {
  private var views: [ObjectIdentifier: View] = [:]
  private var token: ObservationToken?
  private var order: [ObjectIdentifier] = []
  private let top: () -> ObjectIdentifier?

  /// Starts following `stack`.
  ///
  /// - Parameters:
  ///   - stack: The stack whose screens get views.
  ///   - make: The view for a screen: a switch over the app's destinations.
  ///   - appeared: Called once with each new view, after it is made.
  public init<Destination>(
    stack: ScreenStack<Destination>,
    make: @escaping @MainActor (Screen<Destination>) -> View,
    appeared: @escaping @MainActor (View) -> Void
  ) {
    top = { [weak stack] in stack?.topScreen.map { ObjectIdentifier($0) } }
    token = stack.screens.observe { [weak self] screens in
      self?.sync(screens, make: make, appeared: appeared)
    }
  }

  /// The view of the screen on top, if any.
  public var topView: View? {
    top().flatMap { views[$0] }
  }

  /// Every screen's view, bottom to top.
  public var orderedViews: [View] { order.compactMap { views[$0] } }

  /// How many views are kept (one per screen on the stack).
  public var count: Int { views.count }

  /// Stops following the stack and drops every view.
  public func removeAll() {
    token = nil
    views = [:]
    order = []
  }

  private func sync<Destination>(
    _ screens: [Screen<Destination>], make: (Screen<Destination>) -> View,
    appeared: (View) -> Void
  ) {
    order = screens.map { ObjectIdentifier($0) }
    let shown = Set(order)
    views = views.filter { shown.contains($0.key) }
    for screen in screens where views[ObjectIdentifier(screen)] == nil {
      let view = make(screen)
      views[ObjectIdentifier(screen)] = view
      appeared(view)
    }
  }
}
