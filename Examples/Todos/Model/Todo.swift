import TetherFlow

/// One item of a TodoMVC list.
public struct Todo: Identifiable, Equatable, Hashable, Codable, Sendable {
  /// Unique in its list, and chosen by whoever adds the item (a UUID, or the id of the gesture
  /// that added it), so a retried add is the same add.
  public var id: String
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
  public init(id: String, title: String, completed: Bool = false) {
    self.id = id
    self.title = title
    self.completed = completed
  }
}

/// A list as a store holds it: its items in order, and its version.
public struct TodoList: Equatable, Sendable {
  /// The items, in the order they were added.
  public var todos: [Todo]
  /// Grows by at least one with every change that changed the list; 0 for a list never
  /// written. A newer snapshot of the list always has a greater version.
  public var version: Int

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - todos: The items, in order.
  ///   - version: The list's version.
  public init(todos: [Todo] = [], version: Int = 0) {
    self.todos = todos
    self.version = version
  }
}

/// One change to a list, stated so that applying it twice is applying it once: a retried
/// gesture (its node died before answering) changes nothing the first one changed.
public enum TodoChange: Equatable, Hashable, Codable, Sendable {
  /// Appends an item, unless an item with its id is there already.
  case add(Todo)
  /// Sets an item's title.
  case setTitle(id: String, title: String)
  /// Sets whether the items are done (one item's toggle, or toggle all with every id).
  case setCompleted(ids: [String], completed: Bool)
  /// Removes the items (one item's delete, or clear completed with the completed ids).
  case delete(ids: [String])

  /// The longest title a store keeps, in characters; a longer one is cut.
  public static let maximumTitleLength = 1_000
  /// The most items a list holds: an add beyond is refused by every store
  /// (``TodoStoreError/refused(_:)``, ``listFullMessage``), so one browser's list costs the
  /// server a bounded amount to keep, send and draw.
  public static let maximumItems = 1_000
  /// Why an add to a full list is refused, for the person.
  public static let listFullMessage = "A list holds at most 1,000 items."

  /// Refuses a change no store keeps, whichever store it is: a title with a control
  /// character (TetherFlow's one-line rule; SQLite would cut it at a NUL, PostgreSQL refuse
  /// it), or an empty one. Every store calls it before it writes.
  ///
  /// - Throws: ``TodoStoreError/refused(_:)`` saying why, for the person.
  public func validate() throws(TodoStoreError) {
    let titles: [String] =
      switch self {
      case .add(let todo): [todo.title]
      case .setTitle(_, let title): [title]
      case .setCompleted, .delete: []
      }
    for title in titles {
      if let refusal = TextInputRule.oneLine.refusal(of: title, naming: "A title") {
        throw .refused(refusal)
      }
      if title.isEmpty { throw .refused("A title cannot be empty.") }
    }
  }

  /// `todos` with the change applied: what every store does, written once.
  ///
  /// - Parameter todos: The items, in order.
  /// - Returns: The items after the change; `todos` itself when it changes nothing.
  public func applied(to todos: [Todo]) -> [Todo] {
    switch self {
    case .add(let todo):
      guard !todos.contains(where: { $0.id == todo.id }) else { return todos }
      return todos + [todo]
    case .setTitle(let id, let title):
      return todos.map { $0.id == id ? Todo(id: id, title: title, completed: $0.completed) : $0 }
    case .setCompleted(let ids, let completed):
      let chosen = Set(ids)
      return todos.map {
        chosen.contains($0.id) ? Todo(id: $0.id, title: $0.title, completed: completed) : $0
      }
    case .delete(let ids):
      let chosen = Set(ids)
      return todos.filter { !chosen.contains($0.id) }
    }
  }
}
