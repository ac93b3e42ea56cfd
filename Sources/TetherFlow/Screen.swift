import Tether

/// One screen a flow asks a navigator to show: a typed destination (the view model, wrapped in
/// the app's own destination enum), a title and a path component, nothing from a view layer.
///
/// A view layer switches over `Destination` to pick a view, so every screen has a view at
/// compile time: there is no run-time fallback for an unknown view model.
///
/// The navigation stack is the single owner of what is shown: a screen keeps its destination
/// (and with it the view model), and the first screen of a flow keeps the flow (``owner``), so
/// popping a flow's first screen releases the flow and everything it built.
@MainActor
public final class Screen<Destination> {
  /// What to show: the app's destination value, holding the view model.
  public let destination: Destination
  /// The title a view layer shows in its header, from the view model.
  public let title: String
  /// The screen's part of the stack's path, such as `["gallery"]` or `["photo", "230200335"]`;
  /// empty for a root screen.
  public let pathComponents: [String]
  /// An object that lives exactly as long as this screen is shown, typically the flow that
  /// started it.
  public let owner: AnyObject?
  /// Path components that follow the screen's own state, after ``pathComponents`` — a list's
  /// filter, `["active"]` in `/todos/active` — or `nil` for a screen whose path never changes.
  /// It goes both ways: the flow binds it to the view model, the stack's ``ScreenStack/path``
  /// follows it (a web page's address with it), and a browser's Back or Forward to a path that
  /// differs only there sets it (``ScreenStack/show(_:)``).
  public let pathTail: MutableProperty<[String]>?
  /// The view-model input to send when the screen is first shown (its `viewDidLoad`), if any.
  /// A view layer runs it once through ``ScreenViewCache``, and can wait for it to finish.
  public let appearance: (@MainActor () async -> Void)?

  /// Creates a screen.
  ///
  /// - Parameters:
  ///   - destination: What to show.
  ///   - title: The header title.
  ///   - path: The screen's path components (none for a root).
  ///   - owner: Kept alive while the screen is on a navigation stack.
  ///   - pathTail: Path components that follow the screen's state; see ``pathTail``.
  ///   - onAppear: The view-model input to send when the screen is first shown, such as
  ///     `{ await list.viewDidLoad() }`.
  public init(
    _ destination: Destination, title: String, path: [String] = [], owner: AnyObject? = nil,
    pathTail: MutableProperty<[String]>? = nil, onAppear: (@MainActor () async -> Void)? = nil
  ) {
    self.destination = destination
    self.title = title
    self.pathComponents = path
    self.owner = owner
    self.pathTail = pathTail
    self.appearance = onAppear
  }

  /// ``pathComponents`` and the current ``pathTail``.
  var fullPathComponents: [String] { pathComponents + (pathTail?.value ?? []) }
}
