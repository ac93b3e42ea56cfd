/// Where each browser's (or terminal's) list is kept, by the list's id.
public protocol TodoStore: Sendable {
  /// The list `id`; empty if there is none yet.
  ///
  /// - Parameter id: The list's id.
  /// - Returns: Its items, in order.
  /// - Throws: ``TodoStoreError`` when the store cannot be read.
  func load(list id: String) async throws(TodoStoreError) -> [Todo]

  /// Replaces the list `id` with `todos`.
  ///
  /// - Parameters:
  ///   - todos: The items, in order.
  ///   - id: The list's id.
  /// - Throws: ``TodoStoreError`` when the store cannot be written.
  func save(_ todos: [Todo], list id: String) async throws(TodoStoreError)
}

/// Why a store failed.
public enum TodoStoreError: Error, Equatable, Sendable {
  /// The store could not be reached or read; the text says why.
  case unavailable(String)

  /// A sentence for the person.
  public var userMessage: String {
    switch self {
    case .unavailable: "Your list could not be saved. Changes are kept on this page for now."
    }
  }
}

/// Lists kept in this process's memory: a reload keeps the list, a restart does not.
public actor InMemoryTodoStore: TodoStore {
  private var lists: [String: [Todo]] = [:]

  /// Creates an empty store.
  public init() {}

  /// The list `id`; empty if there is none yet.
  public func load(list id: String) -> [Todo] {
    lists[id] ?? []
  }

  /// Replaces the list `id`.
  public func save(_ todos: [Todo], list id: String) {
    lists[id] = todos
  }
}
