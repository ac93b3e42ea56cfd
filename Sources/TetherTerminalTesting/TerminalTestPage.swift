import Tether
import TetherFlow
import TetherTerminal

/// A terminal app mounted in process, driven by keys as a person drives it and read as the
/// terminal would show it, at a size the test picks — no TTY and no tmux.
///
/// Every step goes through the app's own `TerminalNavigator`: keys by the layer's rules (the
/// alert, then the focused control, the screen's shortcuts, focus, navigation), frames by its
/// layout. ``press(_:)-(String)`` reaches a control by its label the way a person does, with
/// Tab, and fails if Tab never gets there.
///
/// ```swift
/// let stack = ScreenStack<AppDestination>()
/// let page = TerminalTestPage(stack: stack, width: 60, height: 16) { screen in
///   switch screen.destination {
///   case .board(let board): BoardScreen(board)
///   }
/// }
/// AppFlow().startFlow(on: stack)
/// try page.press("New card")
/// page.type("Write the docs")
/// page.press(.enter)
/// #expect(page.text.contains("Write the docs"))
/// ```
@MainActor
public final class TerminalTestPage {
  /// Why a step of a terminal test could not be taken.
  public enum Failure: Error, CustomStringConvertible, Equatable {
    /// Tab went round every control without reaching one with this label.
    case unreachable(String, labels: [String])
    /// A condition did not hold in time.
    case timedOut(String)

    /// What went wrong.
    public var description: String {
      switch self {
      case .unreachable(let label, let labels):
        "no control called “\(label)” is reachable with Tab; the screen's controls: \(labels)"
      case .timedOut(let what): "timed out waiting for \(what)"
      }
    }
  }

  /// The app's navigator: the page presses its keys and draws its frames.
  public let navigator: TerminalNavigator
  /// The terminal's columns.
  public private(set) var width: Int
  /// The terminal's rows.
  public private(set) var height: Int
  /// The app's spinners' clock: advance it to draw the next frame of a spinner.
  public let tick = MutableProperty(0)
  /// How the app asked to end, once it has (`q`, Ctrl-C).
  public private(set) var exit: TerminalExit?

  /// Mounts an app that renders `stack` with `navigator`, in a terminal of `width × height`.
  ///
  /// - Parameters:
  ///   - navigator: The app's navigator.
  ///   - width: Columns.
  ///   - height: Rows.
  public init(navigator: TerminalNavigator, width: Int = 80, height: Int = 24) {
    self.navigator = navigator
    self.width = max(1, width)
    self.height = max(1, height)
    navigator.onQuit = { [weak self] exit in self?.exit = exit }
  }

  /// Mounts an app whose screens are markup: `screens` makes each destination's screen.
  ///
  /// - Parameters:
  ///   - stack: The app's navigation state; start its flow on it.
  ///   - width: Columns.
  ///   - height: Rows.
  ///   - screens: The screen for each destination.
  public convenience init<Destination>(
    stack: ScreenStack<Destination>, width: Int = 80, height: Int = 24,
    screens: @escaping @MainActor (Screen<Destination>) -> any TerminalScreen
  ) {
    self.init(
      navigator: TerminalNavigator(stack: stack, screens: screens), width: width, height: height)
  }

  /// A frame at the page's size.
  public func render() -> Canvas {
    navigator.render(width: width, height: height)
  }

  /// The screen as text, one line per row, trailing spaces removed.
  public var text: String { render().text }

  /// Whether the screen shows `fragment` anywhere on one row.
  public func shows(_ fragment: String) -> Bool { text.contains(fragment) }

  /// The rows that contain `fragment`.
  public func lines(containing fragment: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
      $0.contains(fragment)
    }
  }

  /// Resizes the terminal, as a window does (SIGWINCH): the next frame is laid out again.
  public func resize(width: Int, height: Int) {
    self.width = max(1, width)
    self.height = max(1, height)
  }

  /// Presses keys, each after the frame before it was drawn (as a terminal shows every key's
  /// result before the next arrives).
  public func press(_ keys: Key...) {
    for key in keys {
      _ = render()
      navigator.handle(key)
    }
  }

  /// Types `text`, one character key at a time.
  public func type(_ text: String) {
    for character in text { press(.character(character)) }
  }

  /// Pastes `text` as a terminal's bracketed paste delivers it: one key, line breaks kept.
  public func paste(_ text: String) {
    press(.paste(text))
  }

  /// What a person calls the control the keyboard is on: the alert's button while an alert is
  /// up, else the focused control of the sheet or the top screen.
  public var focusedLabel: String? {
    _ = render()
    if let (alert, focus) = navigator.alert {
      return alert.buttons.indices.contains(focus) ? alert.buttons[focus].title : nil
    }
    return (navigator.focusedView as? any TerminalFocusReporting)?.focusedLabel
  }

  /// The labels of the controls keys can reach, in Tab order: the alert's buttons while one is
  /// up.
  public var controlLabels: [String] {
    _ = render()
    if let (alert, _) = navigator.alert { return alert.buttons.map(\.title) }
    return (navigator.focusedView as? any TerminalFocusReporting)?.controlLabels ?? []
  }

  /// Moves the keyboard to the control called `label` with Tab, as a person does.
  ///
  /// - Throws: ``Failure/unreachable(_:labels:)`` when Tab goes round without reaching it.
  public func focus(_ label: String) throws {
    let labels = controlLabels
    for _ in 0...labels.count {
      if focusedLabel == label { return }
      press(.tab)
    }
    throw Failure.unreachable(label, labels: labels)
  }

  /// Reaches the control called `label` with Tab and presses Enter on it.
  ///
  /// - Throws: ``Failure/unreachable(_:labels:)`` when Tab goes round without reaching it.
  public func press(_ label: String) throws {
    try focus(label)
    press(.enter)
  }

  /// Waits (up to `timeout`) until `condition` holds: for what a view model finishes after a
  /// key (a load, a store's answer). Each check draws a frame first.
  public func waitUntil(
    _ what: String, timeout: Duration = .seconds(5), _ condition: () throws -> Bool
  ) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
      _ = render()
      if try condition() { return }
      try await clock.sleep(for: .milliseconds(5))
    }
    _ = render()
    if try condition() { return }
    throw Failure.timedOut(what)
  }

  /// Waits (up to `timeout`) until the screen shows `fragment`.
  public func waitFor(_ fragment: String, timeout: Duration = .seconds(5)) async throws {
    try await waitUntil("“\(fragment)” on screen", timeout: timeout) { shows(fragment) }
  }
}
