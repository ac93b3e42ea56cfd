/// What a navigation stack shows, as data: its path, each screen's view state, the alert over it
/// and the focused element. A view layer takes one to rebuild the same screen elsewhere — a web
/// session resumed on another server signs one into its token — and gives it back to
/// ``ScreenPresenter/restore(_:)`` once the stack is rebuilt from ``path``.
public struct ScreenStackSnapshot: Codable, Equatable, Hashable, Sendable {
  /// The stack's path, such as `/gallery/photo/230200400`.
  public var path: String
  /// Each screen's ``ScreenRestorable/restorationKey``, bottom to top (`nil` for none).
  public var selections: [String?]
  /// The alert on screen, if any, with its buttons' actions.
  public var alert: ScreenAlert?
  /// The focused element's id, for a layer that has one; `nil` where focus follows from the
  /// rest (a selected row, an alert's default button).
  public var focus: String?

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - path: The stack's path.
  ///   - selections: Each screen's restoration key, bottom to top.
  ///   - alert: The alert on screen.
  ///   - focus: The focused element's id.
  public init(
    path: String, selections: [String?] = [], alert: ScreenAlert? = nil, focus: String? = nil
  ) {
    self.path = path
    self.selections = selections
    self.alert = alert
    self.focus = focus
  }
}
