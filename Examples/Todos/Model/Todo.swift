/// One item of a TodoMVC list.
public struct Todo: Identifiable, Equatable, Hashable, Codable, Sendable {
  /// Unique in its list.
  public var id: Int
  /// What to do; never empty.
  public var title: String
  /// Whether it is done.
  public var completed: Bool

  /// Creates an item.
  ///
  /// - Parameters:
  ///   - id: Unique in its list.
  ///   - title: What to do.
  ///   - completed: Whether it is done.
  public init(id: Int, title: String, completed: Bool = false) {
    self.id = id
    self.title = title
    self.completed = completed
  }
}
