import Tether
import TetherFlow

/// The terminal ``Navigator``: a stack of screens drawn one at a time under a title bar, and a
/// modal alert over them.
///
/// Keys go to the alert first (Enter or Esc dismisses it), then to the top screen's view, then
/// to navigation: Esc, Backspace or ← goes back, `q` or Ctrl-C quits.
@MainActor
public final class TerminalNavigator: Navigator {
  /// Builds the view for a screen (from its view model's type).
  public typealias ViewFactory = @MainActor (Screen, TerminalNavigator) -> any TerminalView

  /// The alert shown, if any.
  public let alert = MutableProperty<Alert?>(nil)
  /// The titles of the screens on the stack, root first (for status and tests).
  public let titles = MutableProperty<[String]>([])
  /// Called when the user asks to quit.
  public var onQuit: () -> Void = {}

  private let makeView: ViewFactory
  private var stack: [(screen: Screen, view: any TerminalView)] = []

  /// Creates a navigator.
  ///
  /// - Parameter makeView: Builds each pushed screen's view.
  public init(makeView: @escaping ViewFactory) {
    self.makeView = makeView
  }

  /// The screen on top, if any.
  public var topScreen: Screen? { stack.last?.screen }

  /// Replaces the stack with `screen`.
  public func setRoot(_ screen: Screen) {
    stack = []
    show(screen)
  }

  /// Shows `screen` on top.
  public func push(_ screen: Screen) {
    show(screen)
  }

  /// Goes back one screen; the root stays.
  public func pop() {
    guard stack.count > 1 else { return }
    stack.removeLast()
    titles.value = stack.map(\.screen.title)
  }

  /// Shows `alert` over the screen.
  public func present(_ alert: Alert) {
    self.alert.value = alert
  }

  /// Removes the alert.
  public func dismissAlert() {
    if alert.value != nil { alert.value = nil }
  }

  /// Routes one key: alert, then the top view, then navigation.
  ///
  /// - Parameter key: The key the user pressed.
  public func handle(_ key: Key) {
    if alert.value != nil {
      if key == .enter || key == .escape { dismissAlert() }
      if key == .control("c") { onQuit() }
      return
    }
    if let view = stack.last?.view, view.handle(key) { return }
    switch key {
    case .escape, .backspace, .left: pop()
    case .character("q"), .control("c"): onQuit()
    default: break
    }
  }

  /// Draws the current state into a canvas of `width × height`. Reads only properties, so
  /// calling it inside `observe { }` redraws on every change that matters.
  ///
  /// - Parameters:
  ///   - width: Columns.
  ///   - height: Rows.
  /// - Returns: The frame.
  public func render(width: Int, height: Int) -> Canvas {
    let titles = self.titles.value  // tracked: a push or pop redraws
    var canvas = Canvas(width: width, height: height)
    guard let top = stack.last, canvas.width > 0, canvas.height > 0 else { return canvas }
    let hint = titles.count > 1 ? "Esc back · q quit" : "q quit"
    let header = Header(title: top.screen.title, hint: hint)
    header.draw(
      in: &canvas, frame: Rect(x: 0, y: 0, width: canvas.width, height: min(2, canvas.height)))
    if canvas.height > 2 {
      top.view.draw(
        in: &canvas, frame: Rect(x: 1, y: 2, width: canvas.width - 2, height: canvas.height - 2))
    }
    if let alert = alert.value {
      AlertBox(title: alert.title, message: alert.message, dismissTitle: alert.dismissTitle)
        .draw(in: &canvas, frame: Rect(x: 0, y: 0, width: canvas.width, height: canvas.height))
    }
    return canvas
  }

  private func show(_ screen: Screen) {
    let view = makeView(screen, self)
    stack.append((screen, view))
    titles.value = stack.map(\.screen.title)
    view.didAppear()
  }
}
