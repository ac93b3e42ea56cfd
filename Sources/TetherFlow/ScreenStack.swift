import Tether

/// The one observable navigation state: the screens shown, root first, and the alert over
/// them. Flows change it through ``Navigator``; every view layer only renders it.
///
/// ```swift
/// let stack = ScreenStack<ShowcaseDestination>()
/// AppFlow(services: services).startFlow(on: stack)  // FlowController.startFlow(on:)
/// observe { render(stack.screens.last, stack.alert) }.store(in: lifetime)
/// ```
///
/// The root is never popped. Setting a new root or popping releases the screens removed (and
/// the flows they own) at once.
@MainActor
public final class ScreenStack<Destination>: Navigator {
  private var alertResponse: (@MainActor (ScreenAlert.Button) -> Void)?
  // Made on first use: a stack nobody listens to for responses holds no pipe.
  private var hasResponsePipe = false
  private lazy var responsePipe:
    (output: Signal<ScreenAlert.Button>, input: Signal<ScreenAlert.Button>.Emitter) = {
      hasResponsePipe = true
      return Signal<ScreenAlert.Button>.pipe()
    }()
  /// Every button pressed on an alert of this stack, after the alert's `onResponse`.
  public var alertResponses: Signal<ScreenAlert.Button> { responsePipe.output }

  /// The screens shown, root first.
  @Output public private(set) var screens: [Screen<Destination>] = []
  /// The sheet shown over the top screen, if any (``Navigator/presentSheet(_:onDismiss:)``):
  /// while it is up, gestures go to it and not to the screens under it, and its path
  /// components end the stack's ``path``.
  @Output public private(set) var sheet: Screen<Destination>? = nil
  private var sheetDismissal: (@MainActor () -> Void)?
  private var sheetTailToken: ObservationToken?
  /// The alert shown over the top screen, if any.
  @Output public private(set) var alert: ScreenAlert? = nil

  /// The position of the alert's button the keyboard is on (``ScreenAlert/buttons``), `nil`
  /// with no alert: it starts on ``ScreenAlert/initialFocus``, Tab, Shift-Tab, → and ←
  /// (``ScreenKey/next``, ``ScreenKey/previous``) move it, and Enter (``ScreenKey/activate``) presses that button. Every button of an alert is
  /// so reachable from a keyboard, a destructive one included, while Enter alone never
  /// presses a destructive button the alert did not make its default.
  @Output public private(set) var alertFocus: Int? = nil
  /// The stack's path, such as `/gallery/photo/230200335`, built from the screens' path
  /// components and tails (``Screen/pathTail``); `/` for the root alone.
  @Output public private(set) var path = ScreenPath()
  private var screensToken: ObservationToken?
  private var tailTokens: [ObservationToken] = []

  /// Creates an empty stack; a flow sets its root.
  public init() {
    screensToken = $screens.observe { [weak self] screens in
      guard let self else { return }
      // A tail that changes changes the path; the tokens of screens gone go with them.
      tailTokens = screens.compactMap { screen in
        screen.pathTail?.observe { [weak self] _ in self?.updatePath() }
      }
      updatePath()
    }
  }

  // The stack's own bookkeeping reads its outputs `unobserved`: these reads are no view's,
  // and registered with Observation they would give each output a registrar no one watches.

  private func updatePath() {
    let (path, current) = unobserved {
      let sheet = self.sheet?.fullPathComponents ?? []
      return (ScreenPath(self.screens.flatMap(\.fullPathComponents) + sheet), self.path)
    }
    if path != current { self.path = path }
  }

  /// Shows `path` if the stack already holds it: pops to the screen it ends at, and gives what
  /// follows that screen's own components to its ``Screen/pathTail``. A browser's Back and
  /// Forward land here; a path the stack does not hold needs a flow to open it.
  ///
  /// - Parameter path: A path, such as `/todos/active`.
  /// - Returns: Whether the stack shows `path` now.
  @discardableResult
  public func show(_ path: ScreenPath) -> Bool {
    // An alert is modal: Back (or any other path) closes it first, as Escape does — its
    // cancel button answers — and the screens stay. An alert with no cancel button stays up.
    if self.alert != nil {
      handleAlertKey(.cancel)
      return true
    }
    // A path that is not the sheet's (Back from it) closes the sheet, then is shown as usual.
    if self.sheet != nil {
      guard path != self.path else { return true }
      dismissSheet()
    }
    let screens = self.screens
    var prefix: [String] = []
    for (index, screen) in screens.enumerated() {
      let base = prefix + screen.pathComponents
      guard path.components.starts(with: base) else { return false }
      let full = base + (screen.pathTail?.value ?? [])
      if path.components == full {
        pop(toDepth: index + 1)
        return true
      }
      // A deeper screen continues the path: go on to it.
      let next = index + 1 < screens.count ? screens[index + 1].pathComponents : []
      let continues = !next.isEmpty && path.components.starts(with: full + next)
      if let tail = screen.pathTail, !continues {
        pop(toDepth: index + 1)
        tail.value = Array(path.components.dropFirst(base.count))
        return true
      }
      prefix = full
    }
    return false
  }

  /// The screen on top, if any.
  public var topScreen: Screen<Destination>? { self.screens.last }

  /// Replaces the whole stack with `screen` and dismisses any alert.
  public func setRoot(_ screen: Screen<Destination>) {
    dismissAlert()
    dismissSheet()
    self.screens = [screen]
  }

  /// Shows `screen` on top, dismissing any sheet (it belonged to the screen it covered).
  public func push(_ screen: Screen<Destination>) {
    dismissSheet()
    screens.append(screen)
  }

  /// Removes the top screen, and any sheet over it; the root stays.
  public func pop() {
    guard self.screens.count > 1 else { return }
    dismissSheet()
    // An alert asks about the screen it stands over: once that screen is gone, its buttons
    // have nothing to act on.
    dismissAlert()
    screens.removeLast()
  }

  /// Shows `screen` as a sheet over the top screen, dismissing any sheet shown first;
  /// `onDismiss` runs when it goes, however it goes.
  public func presentSheet(
    _ screen: Screen<Destination>, onDismiss: @escaping @MainActor () -> Void
  ) {
    dismissSheet()
    sheetDismissal = onDismiss
    sheetTailToken = screen.pathTail?.observe { [weak self] _ in self?.updatePath() }
    self.sheet = screen
    updatePath()
  }

  /// Removes the sheet, if any, then tells its presenter.
  public func dismissSheet() {
    guard unobserved({ self.sheet != nil }) else { return }
    let dismissal = sheetDismissal
    sheetDismissal = nil
    sheetTailToken = nil
    self.sheet = nil
    updatePath()
    dismissal?()
  }

  /// Pops until `depth` screens are left (at least the root); does nothing if there are fewer.
  ///
  /// A browser's Back to an earlier entry pops several screens at once this way.
  ///
  /// - Parameter depth: How many screens to keep.
  public func pop(toDepth depth: Int) {
    let keep = max(1, depth)
    guard self.screens.count > keep else { return }
    dismissSheet()
    dismissAlert()
    screens.removeLast(screens.count - keep)
  }

  /// Shows `alert`, replacing any alert shown; `onResponse` hears which button is pressed.
  public func present(
    _ alert: ScreenAlert, onResponse: @escaping @MainActor (ScreenAlert.Button) -> Void
  ) {
    alertResponse = onResponse
    self.alertFocus = alert.initialFocus
    self.alert = alert
  }

  /// Removes the alert, if any; its presenter hears nothing.
  public func dismissAlert() {
    alertResponse = nil
    let (hasAlert, hasFocus) = unobserved { (self.alert != nil, self.alertFocus != nil) }
    if hasAlert { self.alert = nil }
    if hasFocus { self.alertFocus = nil }
  }

  /// The user pressed `button` of the alert shown: the alert goes, then its presenter hears
  /// which button it was. A button the shown alert does not have changes nothing.
  ///
  /// - Parameter button: The button pressed.
  /// - Returns: Whether an alert with this button was shown.
  @discardableResult
  public func respond(to button: ScreenAlert.Button) -> Bool {
    guard let alert = self.alert, alert.buttons.contains(button) else { return false }
    let response = alertResponse
    alertResponse = nil
    self.alert = nil
    self.alertFocus = nil
    response?(button)
    if hasResponsePipe { responsePipe.input.send(button) }
    return true
  }

  /// The user pressed the button at `position` of the alert shown (a click on it).
  ///
  /// - Parameter position: The button's position in ``ScreenAlert/buttons``.
  /// - Returns: Whether there was such a button.
  @discardableResult
  public func respond(toButtonAt position: Int) -> Bool {
    guard let buttons = self.alert?.buttons, buttons.indices.contains(position) else {
      return false
    }
    return respond(to: buttons[position])
  }

  /// Routes a key to the alert shown, as every view layer does: while an alert is up it takes
  /// every key. ``ScreenKey/next`` moves ``alertFocus`` to the next button,
  /// ``ScreenKey/previous`` to the previous one (both wrap), as do ``ScreenKey/down`` and
  /// ``ScreenKey/up`` in a confirmation dialog (``ScreenAlert/Style/confirmationDialog``);
  /// ``ScreenKey/activate`` presses the button the focus is on (the default button until it
  /// moves) and ``ScreenKey/cancel`` the cancel button (``ScreenAlert/escapeButton``).
  ///
  /// - Parameter key: The key.
  /// - Returns: Whether an alert was shown (and so took the key).
  @discardableResult
  public func handleAlertKey(_ key: ScreenKey) -> Bool {
    guard let alert = self.alert else { return false }
    let count = alert.buttons.count
    let focus = min(max(0, self.alertFocus ?? alert.initialFocus), count - 1)
    switch key {
    // A confirmation dialog's actions stand one under another: ↓ and ↑ move between them too.
    case .next,
      .down where alert.style == .confirmationDialog:
      self.alertFocus = (focus + 1) % count
    case .previous,
      .up where alert.style == .confirmationDialog:
      self.alertFocus = (focus + count - 1) % count
    case .activate:
      // The keyboard is on the default button unless the person moved it: an alert whose
      // buttons are all destructive, with no default, waits for a move first.
      if self.alertFocus == alert.initialFocus, alert.defaultButton == nil,
        alert.escapeButton == nil
      {
        return true
      }
      respond(to: alert.buttons[focus])
    default:
      if let button = alert.button(for: key) { respond(to: button) }
    }
    return true
  }
}
