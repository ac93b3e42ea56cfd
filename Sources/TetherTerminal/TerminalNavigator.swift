import Tether
import TetherFlow

/// Renders a `ScreenStack` in a terminal: the top screen's view under a title bar, and
/// the stack's alert over it. It holds no navigation state of its own: it keeps one view per
/// screen on the stack, made by the view factory when the screen first appears and dropped
/// when the screen leaves.
///
/// Keys go to the alert first (TetherFlow's rule, `ScreenStack.handleAlertKey(_:)`: Enter
/// presses the default button, Esc the cancel button), then to the top screen's view, then to
/// navigation: Esc, Backspace or ← goes back, `q` or Ctrl-C quits.
@MainActor
public final class TerminalNavigator {
  /// Called when the user asks to quit: ``TerminalExit/quit`` for `q`,
  /// ``TerminalExit/interrupted`` for Ctrl-C.
  public var onQuit: (TerminalExit) -> Void = { _ in }
  /// Called with a key that neither the top view nor navigation used (never while an alert is
  /// up): the place for an app's global shortcuts.
  public var onUnhandledKey: (Key) -> Void = { _ in }

  private let stack: any TerminalStack
  private let views: ScreenViewCache<any TerminalView>

  /// Creates a navigator that renders `stack`.
  ///
  /// - Parameters:
  ///   - stack: The navigation state to render.
  ///   - makeView: Builds the view for a screen; a switch over the app's destinations.
  public init<Destination>(
    stack: ScreenStack<Destination>,
    makeView: @escaping @MainActor (Screen<Destination>) -> any TerminalView
  ) {
    self.stack = StackAdapter(stack: stack)
    // One view per screen shown; a screen's view appears once, when it is first shown.
    views = ScreenViewCache(stack: stack, make: makeView)
  }

  /// The title of the screen on top, if any.
  public var topTitle: String? { stack.titles.last }

  /// Routes one key: alert, then the top view, then navigation.
  ///
  /// - Parameter key: The key the user pressed.
  public func handle(_ key: Key) {
    if stack.hasAlert {
      if key == .control("c") { onQuit(.interrupted) }
      if let screenKey = key.screenKey { stack.handleAlertKey(screenKey) }
      return
    }
    if let view = views.topView, view.handle(key) { return }
    switch key {
    case .escape, .backspace, .left: stack.pop()
    case .character("q"): onQuit(.quit)
    case .control("c"): onQuit(.interrupted)
    default: onUnhandledKey(key)
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
    let titles = stack.titles  // tracked: a push or pop redraws
    let alert = stack.alert
    var canvas = Canvas(width: width, height: height)
    guard let view = views.topView, let title = titles.last,
      canvas.width > 0, canvas.height > 0
    else { return canvas }
    let hint = titles.count > 1 ? "Esc back · q quit" : "q quit"
    Header(title: title, hint: hint).draw(
      in: &canvas, frame: Rect(x: 0, y: 0, width: canvas.width, height: min(2, canvas.height)))
    if canvas.height > 2 {
      view.draw(
        in: &canvas, frame: Rect(x: 1, y: 2, width: canvas.width - 2, height: canvas.height - 2))
    }
    if let alert {
      AlertBox(alert).draw(
        in: &canvas, frame: Rect(x: 0, y: 0, width: canvas.width, height: canvas.height))
    }
    return canvas
  }

}

/// The parts of a `ScreenStack<Destination>` the terminal needs, without its type
/// parameter.
@MainActor
private protocol TerminalStack {
  var titles: [String] { get }
  var alert: ScreenAlert? { get }
  var hasAlert: Bool { get }
  func pop()
  func handleAlertKey(_ key: ScreenKey)
}

@MainActor
private struct StackAdapter<Destination>: TerminalStack {
  let stack: ScreenStack<Destination>

  var titles: [String] { stack.screens.value.map(\.title) }
  var alert: ScreenAlert? { stack.alert.value }
  var hasAlert: Bool { stack.alert.value != nil }

  func pop() { stack.pop() }
  func handleAlertKey(_ key: ScreenKey) { stack.handleAlertKey(key) }
}
