import Tether

/// What every view layer needs of a ``ScreenStack``, written once: the stack without its
/// `Destination` type, one view per screen (``ScreenViewCache``), the rule that routes a key, and
/// a ``ScreenStackSnapshot`` of what is shown, taken and restored.
///
/// A view layer — the terminal's `TerminalNavigator`, the web's `WebSession`, a UIKit navigation
/// controller — holds one and adds only what is its own: drawing, and translating its gestures
/// into ``ScreenKey``s and view-model inputs.
///
/// ```swift
/// let presenter = ScreenPresenter(stack: stack) { screen in makeView(for: screen) }
/// switch presenter.route(key.screenKey, isBack: key == .escape, toTopView: { $0.handle(key) }) {
/// case .alert, .sheet, .view, .back: break
/// case .unhandled: quitIfAsked(key)
/// }
/// ```
@MainActor
public final class ScreenPresenter<View> {
  /// Where a key went.
  public enum KeyRoute: Equatable, Sendable {
    /// An alert was shown, and it took the key (it takes every key while it is up).
    case alert
    /// A sheet was shown, and it took the key: its view handled it, or the key closed it
    /// (a back key, or ``ScreenKey/cancel``, that the sheet's view left alone).
    case sheet
    /// The top screen's view handled it.
    case view
    /// It was a back key nobody else took: the top screen was popped.
    case back
    /// Nobody took it: the layer's own keys (quit, say) come next.
    case unhandled
  }

  private let stack: any ErasedStack
  private let views: ScreenViewCache<View>

  /// Starts presenting `stack`.
  ///
  /// - Parameters:
  ///   - stack: The navigation state.
  ///   - makeView: The view for a screen, made when it is first shown: a switch over the app's
  ///     destinations.
  public init<Destination>(
    stack: ScreenStack<Destination>, makeView: @escaping @MainActor (Screen<Destination>) -> View
  ) {
    self.stack = StackEraser(stack: stack)
    views = ScreenViewCache(stack: stack, make: makeView)
  }

  /// The screens' titles, root first.
  public var titles: [String] { stack.titles }
  /// The title of the screen on top, if any: what a page's header and its window title show.
  /// (Cheaper than `titles.last`, which builds every title on each render.)
  public var topTitle: String? { stack.topTitle }
  /// How many screens the stack holds: Back is shown above one.
  public var depth: Int { stack.depth }
  /// The alert shown, if any.
  public var alert: ScreenAlert? { stack.alert }
  /// The position of the alert's button the keyboard is on (`ScreenStack.alertFocus`).
  public var alertFocus: Int? { stack.alertFocus }
  /// The stack's path.
  public var path: ScreenPath { stack.path }
  /// The view of the screen on top, if any.
  public var topView: View? { views.topView }
  /// The title of the sheet shown over the top screen, if any.
  public var sheetTitle: String? { stack.sheetTitle }
  /// The view of the sheet shown over the top screen, if any.
  public var sheetView: View? { stack.sheetTitle == nil ? nil : views.sheetView }
  /// Dismisses the sheet shown, if any, as its Close button does.
  public func dismissSheet() { stack.dismissSheet() }
  /// Every screen's view, bottom to top.
  public var orderedViews: [View] { views.orderedViews }

  /// Routes a key by the rule every view layer follows: an alert shown takes every key (Enter
  /// presses its default button, Escape its cancel button); then a sheet shown takes every key
  /// (its view first; a back key or ``ScreenKey/cancel`` it leaves alone closes it); otherwise
  /// the top screen's view gets it; otherwise a back key pops.
  ///
  /// - Parameters:
  ///   - key: The key as a ``ScreenKey``, if it is one.
  ///   - isBack: Whether the layer's key means "back" (Escape, Backspace or ← in a terminal).
  ///   - toTopView: Offers the key to the top view, in the layer's own terms; returns whether
  ///     the view handled it.
  /// - Returns: Where the key went.
  @discardableResult
  public func route(
    _ key: ScreenKey?, isBack: Bool = false, toTopView: (View) -> Bool
  ) -> KeyRoute {
    if stack.alert != nil {
      if let key { stack.handleAlertKey(key) }
      return .alert
    }
    if stack.sheetTitle != nil {
      if let view = views.sheetView, toTopView(view) { return .sheet }
      if isBack || key == .cancel { stack.dismissSheet() }
      return .sheet
    }
    if let view = views.topView, toTopView(view) { return .view }
    if isBack, stack.titles.count > 1 {
      stack.pop()
      return .back
    }
    return .unhandled
  }

  /// What is shown, as data: the path, each view's ``ScreenRestorable/restorationKey``, the
  /// alert and `focus`.
  ///
  /// - Parameter focus: The focused element's id, for a layer that has one.
  /// - Returns: The snapshot.
  public func snapshot(focus: String? = nil) -> ScreenStackSnapshot {
    ScreenStackSnapshot(
      path: stack.path.description,
      selections: views.orderedViews.map { ($0 as? any ScreenRestorable)?.restorationKey },
      alert: stack.alert, focus: focus)
  }

  /// Restores the view state of `snapshot` on a stack already rebuilt from its path: each
  /// screen's view state, by position in the stack, and the alert (without an `onResponse`:
  /// its buttons reach the flows through ``Navigator/alertResponses``).
  ///
  /// - Parameter snapshot: What was shown.
  public func restore(_ snapshot: ScreenStackSnapshot) {
    for (view, key) in zip(views.orderedViews, snapshot.selections) {
      if let key, let view = view as? any ScreenRestorable { view.restore(key) }
    }
    if let alert = snapshot.alert { stack.present(alert) }
  }

  /// How many screens show `path` exactly, if the stack's path starts with it: a browser's Back
  /// to an earlier entry pops to that depth.
  ///
  /// - Parameter path: A path the stack showed.
  /// - Returns: The depth, or `nil`.
  public func depth(of path: ScreenPath) -> Int? { stack.depth(of: path) }

  /// Shows `path` if the stack already holds it; see ``ScreenStack/show(_:)``.
  ///
  /// - Parameter path: A path.
  /// - Returns: Whether the stack shows it now.
  @discardableResult
  public func show(_ path: ScreenPath) -> Bool { stack.show(path) }

  /// Pops the top screen (never the root).
  public func pop() { stack.pop() }
  /// Pops until `depth` screens are left.
  ///
  /// - Parameter depth: How many screens to keep.
  public func pop(toDepth depth: Int) { stack.pop(toDepth: depth) }
  /// Presses the alert's button at `position`, as a click on it does.
  ///
  /// - Parameter position: The button's position.
  public func respond(toButtonAt position: Int) { stack.respond(toButtonAt: position) }
  /// Presses the alert's button for `key`; see ``route(_:isBack:toTopView:)``.
  ///
  /// - Parameter key: The key.
  /// - Returns: Whether an alert was shown.
  @discardableResult
  public func handleAlertKey(_ key: ScreenKey) -> Bool { stack.handleAlertKey(key) }

  /// Waits until every shown screen's appearance has finished, or until `timeout`; see
  /// ``ScreenViewCache/appearancesFinished(timeout:)``.
  ///
  /// - Parameter timeout: The longest wait.
  /// - Returns: Whether every appearance finished in time.
  @discardableResult
  public func appearancesFinished(timeout: Duration = .seconds(1)) async -> Bool {
    await views.appearancesFinished(timeout: timeout)
  }

  /// Dismisses any sheet, drops every view (cancelling appearances still running) and lets go
  /// of the stack, so its flows and view models are released: a layer's session has ended.
  public func release() {
    // A flow waiting for the sheet's result hears `nil` and lets go of the stack.
    stack.dismissSheet()
    views.removeAll()
    stack.release()
  }
}

/// A `ScreenStack<Destination>` without its type parameter.
@MainActor
private protocol ErasedStack {
  var titles: [String] { get }
  var topTitle: String? { get }
  var depth: Int { get }
  var sheetTitle: String? { get }
  func dismissSheet()
  var alert: ScreenAlert? { get }
  var alertFocus: Int? { get }
  var path: ScreenPath { get }
  func depth(of path: ScreenPath) -> Int?
  @discardableResult func show(_ path: ScreenPath) -> Bool
  func pop()
  func pop(toDepth depth: Int)
  @discardableResult func handleAlertKey(_ key: ScreenKey) -> Bool
  func respond(toButtonAt position: Int)
  func present(_ alert: ScreenAlert)
  func release()
}

@MainActor
private final class StackEraser<Destination>: ErasedStack {
  private var stack: ScreenStack<Destination>?

  init(stack: ScreenStack<Destination>) {
    self.stack = stack
  }

  /// A closure, not `\.title`: a key path into a generic type is built at run time on every
  /// use (its generic arguments demangled), and every render of a page reads the titles.
  var titles: [String] { stack?.screens.map { $0.title } ?? [] }
  var topTitle: String? { stack?.screens.last?.title }
  var depth: Int { stack?.screens.count ?? 0 }
  var sheetTitle: String? { stack?.sheet?.title }
  func dismissSheet() { stack?.dismissSheet() }
  var alert: ScreenAlert? { stack?.alert }
  var alertFocus: Int? { stack?.alertFocus }
  var path: ScreenPath { stack?.path ?? ScreenPath() }

  func show(_ path: ScreenPath) -> Bool { stack?.show(path) ?? false }

  func depth(of path: ScreenPath) -> Int? {
    var components: [String] = []
    for (index, screen) in (stack?.screens ?? []).enumerated() {
      components += screen.pathComponents
      if components == path.components { return index + 1 }
      if components.count > path.components.count { return nil }
    }
    return nil
  }

  func pop() { stack?.pop() }
  func pop(toDepth depth: Int) { stack?.pop(toDepth: depth) }
  func handleAlertKey(_ key: ScreenKey) -> Bool { stack?.handleAlertKey(key) ?? false }
  func respond(toButtonAt position: Int) { stack?.respond(toButtonAt: position) }
  func present(_ alert: ScreenAlert) { stack?.present(alert) }
  func release() { stack = nil }
}
