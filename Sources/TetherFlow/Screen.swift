/// One screen a flow asks a navigator to show: a view model and a title, nothing from a view
/// layer. The view layer maps the view model's type to a view.
///
/// The navigation stack is the single owner of what is shown: a screen keeps its view model,
/// and the first screen of a flow keeps the flow (``owner``), so popping a flow's first screen
/// releases the flow and everything it built.
@MainActor
public final class Screen {
  /// The view model the view binds to.
  public let viewModel: AnyObject
  /// The title a view layer shows in its header.
  public let title: String
  /// An object that lives exactly as long as this screen is shown, typically the flow that
  /// started it.
  public let owner: AnyObject?

  /// Creates a screen.
  ///
  /// - Parameters:
  ///   - viewModel: The view model to show.
  ///   - title: The header title.
  ///   - owner: Kept alive while the screen is on a navigation stack.
  public init(viewModel: AnyObject, title: String, owner: AnyObject? = nil) {
    self.viewModel = viewModel
    self.title = title
    self.owner = owner
  }

  /// The view model as `ViewModel`, or `nil` if it is another type.
  ///
  /// - Parameter type: The expected type.
  /// - Returns: The view model.
  public func viewModel<ViewModel: AnyObject>(as type: ViewModel.Type) -> ViewModel? {
    viewModel as? ViewModel
  }
}

/// A modal alert: a title, a message and one dismiss button.
public struct Alert: Equatable, Sendable {
  /// The alert's title.
  public var title: String
  /// The message.
  public var message: String
  /// The dismiss button's label.
  public var dismissTitle: String

  /// Creates an alert.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The message.
  ///   - dismissTitle: The dismiss button's label.
  public init(title: String, message: String, dismissTitle: String = "OK") {
    self.title = title
    self.message = message
    self.dismissTitle = dismissTitle
  }
}

/// What flows ask of a view layer: the whole of navigation, abstracted.
///
/// A terminal navigator draws screens in a terminal; a UIKit one would wrap a
/// `UINavigationController`; ``RecordingNavigator`` (TetherTesting) records the calls so tests
/// can assert navigation without any UI.
@MainActor
public protocol Navigator: AnyObject {
  /// Replaces the whole stack with `screen`.
  func setRoot(_ screen: Screen)
  /// Shows `screen` on top of the current one.
  func push(_ screen: Screen)
  /// Removes the top screen (never the root).
  func pop()
  /// Shows `alert` over the current screen.
  func present(_ alert: Alert)
  /// Dismisses the presented alert, if any.
  func dismissAlert()
}
