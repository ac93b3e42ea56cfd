import Tether
import TetherFlow

/// Renders a `ScreenStack` in a terminal: the top screen's view under a title bar, and
/// the stack's alert over it. It holds no navigation state of its own: it keeps one view per
/// screen on the stack, made by the view factory when the screen first appears and dropped
/// when the screen leaves.
///
/// Keys go by TetherFlow's rule (`ScreenPresenter.route`): to the alert first (Tab and the
/// arrows move between its buttons, Enter presses the one marked, which starts on the default
/// button, Esc the cancel button), then to the top screen's view, then to navigation:
/// Esc, Backspace or ← goes back, `q` or Ctrl-C quits. A sheet (`ScreenStack.sheet`) is drawn
/// in a box over the top screen and takes every key; Esc closes it. ``snapshot()`` and ``restore(_:)`` take
/// and give back what is shown — the path, each list's selection, the alert — as data.
@MainActor
public final class TerminalNavigator {
  /// Called when the user asks to quit: ``TerminalExit/quit`` for `q`,
  /// ``TerminalExit/interrupted`` for Ctrl-C.
  public var onQuit: (TerminalExit) -> Void = { _ in }
  /// Called with a key that neither the top view nor navigation used (never while an alert is
  /// up): the place for an app's global shortcuts.
  public var onUnhandledKey: (Key) -> Void = { _ in }

  private let presenter: ScreenPresenter<any TerminalView>

  /// Creates a navigator that renders `stack`.
  ///
  /// - Parameters:
  ///   - stack: The navigation state to render.
  ///   - makeView: Builds the view for a screen; a switch over the app's destinations.
  public init<Destination>(
    stack: ScreenStack<Destination>,
    makeView: @escaping @MainActor (Screen<Destination>) -> any TerminalView
  ) {
    // One view per screen shown; a screen's view appears once, when it is first shown.
    presenter = ScreenPresenter(stack: stack, makeView: makeView)
  }

  /// Creates a navigator that renders `stack`, each screen written as markup
  /// (``TerminalScreen``) and shown through a ``TerminalScreenView``.
  ///
  /// - Parameters:
  ///   - stack: The navigation state to render.
  ///   - screens: Builds the screen for a destination; a switch over the app's destinations.
  public convenience init<Destination>(
    stack: ScreenStack<Destination>,
    screens: @escaping @MainActor (Screen<Destination>) -> any TerminalScreen
  ) {
    self.init(stack: stack) { screen in Self.view(showing: screens(screen)) }
  }

  private static func view(showing screen: some TerminalScreen) -> any TerminalView {
    TerminalScreenView(screen)
  }

  /// The view keys go to after the alert: the sheet's, else the top screen's.
  public var focusedView: (any TerminalView)? { presenter.sheetView ?? presenter.topView }

  /// The alert shown, if any, and the position of the button the keyboard is on.
  public var alert: (alert: ScreenAlert, focus: Int)? {
    presenter.alert.map { ($0, presenter.alertFocus ?? $0.initialFocus) }
  }

  /// The title of the screen on top, if any.
  public var topTitle: String? { presenter.topTitle }

  /// What is shown, as data: the path, each screen's view state (a list's selected row) and
  /// the alert. Give it to ``restore(_:)`` on a stack rebuilt from its path.
  public func snapshot() -> ScreenStackSnapshot {
    presenter.snapshot()
  }

  /// Restores each screen's view state and the alert of `snapshot` on a stack already rebuilt
  /// from its path (by the app's flow, as a deep link).
  ///
  /// - Parameter snapshot: What was shown.
  public func restore(_ snapshot: ScreenStackSnapshot) {
    presenter.restore(snapshot)
  }

  /// Routes one key: alert, then the top view, then navigation.
  ///
  /// - Parameter key: The key the user pressed.
  public func handle(_ key: Key) {
    let isBack = key == .escape || key == .backspace || key == .left
    let route = presenter.route(key.screenKey, isBack: isBack) { $0.handle(key) }
    switch (route, key) {
    case (_, .control("c")): onQuit(.interrupted)  // even over an alert
    case (.alert, _), (.sheet, _), (.view, _), (.back, _): break
    case (.unhandled, .character("q")): onQuit(.quit)
    case (.unhandled, _) where isBack: break  // back on the root: nothing to pop
    case (.unhandled, _): onUnhandledKey(key)
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
    let titles = presenter.titles  // tracked: a push or pop redraws
    let alert = presenter.alert
    var canvas = Canvas(width: width, height: height)
    guard let view = presenter.topView, let title = titles.last,
      canvas.width > 0, canvas.height > 0
    else { return canvas }
    let hint = titles.count > 1 ? "Esc back · q quit" : "q quit"
    Header(title: title, hint: hint).draw(
      in: &canvas, frame: Rect(x: 0, y: 0, width: canvas.width, height: min(2, canvas.height)))
    if canvas.height > 2 {
      view.draw(
        in: &canvas, frame: Rect(x: 1, y: 2, width: canvas.width - 2, height: canvas.height - 2))
    }
    if let sheetTitle = presenter.sheetTitle, let sheet = presenter.sheetView {
      SheetBox(title: sheetTitle, content: sheet).draw(
        in: &canvas, frame: Rect(x: 0, y: 0, width: canvas.width, height: canvas.height))
    }
    if let alert {
      AlertBox(alert, focus: presenter.alertFocus).draw(
        in: &canvas, frame: Rect(x: 0, y: 0, width: canvas.width, height: canvas.height))
    }
    return canvas
  }
}

/// A sheet: its screen's view in a bordered box over the screen under it, with its title on
/// the border and the key that closes it on the bottom edge.
@MainActor
struct SheetBox {
  let title: String
  let content: any TerminalView

  /// Draws the box in the middle of `frame`: up to 72 columns wide and 2 rows short of the
  /// frame, so the screen under it shows around it.
  func draw(in canvas: inout Canvas, frame: Rect) {
    let width = min(frame.width, max(30, min(72, frame.width - 8)))
    let height = min(frame.height, max(6, frame.height - 4))
    guard width >= 8, height >= 4 else { return }
    let x = frame.x + (frame.width - width) / 2
    let y = frame.y + (frame.height - height) / 2
    canvas.drawBox(
      Rect(x: x, y: y, width: width, height: height), title: title,
      titleStyle: CellStyle(bold: true, foreground: .cyan), rounded: true)
    let hint = " Esc close "
    canvas.draw(
      hint, x: x + max(2, width - 2 - DisplayWidth.of(hint)), y: y + height - 1,
      maxWidth: width - 4, style: CellStyle(dim: true))
    content.draw(
      in: &canvas, frame: Rect(x: x + 2, y: y + 1, width: width - 4, height: height - 2))
  }
}
