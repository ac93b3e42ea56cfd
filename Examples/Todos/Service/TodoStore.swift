import Synchronization

/// Where each browser's (or terminal's) list is kept, by the list's id, and how a screen
/// learns that its list changed — whoever changed it: another tab, another node.
///
/// Three stores keep this contract and pass one test suite: ``InMemoryTodoStore`` (tests),
/// SQLite through GRDB (the showcase's default) and PostgreSQL (the cluster), the last two in
/// the `TodosStorage` target.
public protocol TodoStore: Sendable {
  /// The list `id`, empty (version 0) if it was never written.
  ///
  /// - Parameter id: The list's id.
  /// - Returns: Its items, in order, and its version.
  /// - Throws: ``TodoStoreError`` when the store cannot be read.
  func load(list id: String) async throws(TodoStoreError) -> TodoList

  /// Applies `change` to the list `id`. Applying the same change again changes nothing.
  ///
  /// - Parameters:
  ///   - change: The change.
  ///   - id: The list's id.
  /// - Returns: The list's version once the change is in it (unchanged if it changed nothing).
  /// - Throws: ``TodoStoreError`` when the store cannot be written; nothing was changed.
  func apply(_ change: TodoChange, to id: String) async throws(TodoStoreError) -> Int

  /// The list `id` after each change from now on, in order: when changes come faster than a
  /// subscriber takes them, it gets the newest snapshot (a version may be skipped; none goes
  /// backwards). The stream ends when the subscriber stops iterating.
  ///
  /// - Parameter id: The list's id.
  /// - Returns: The snapshots.
  func changes(of id: String) -> AsyncStream<TodoList>
}

/// Why a store failed.
public enum TodoStoreError: Error, Equatable, Sendable {
  /// The store could not be reached, read or written; the text says why.
  case unavailable(String)
  /// The store refuses the change for good (trying again changes nothing); the text says why,
  /// to the person.
  case refused(String)

  /// A sentence for the person.
  public var userMessage: String {
    switch self {
    case .unavailable:
      "Your list could not be saved. Changes are kept on this page and saved when it is back."
    case .refused(let reason): reason
    }
  }
}

/// Fans one store's change notices out to the screens showing each list: a notice for a list
/// nobody shows costs nothing; otherwise the list is read once and each subscriber gets the
/// snapshot, and notices that arrive while it is read are merged into one more read. A
/// subscriber gets each version at most once, in order: a read that finds nothing newer than it
/// already has (two notices answered by one read, a recovery re-read) is not delivered again.
///
/// ``InMemoryTodoStore`` feeds one after its own writes, the PostgreSQL store from its `LISTEN`
/// connection. (The SQLite store needs none: GRDB's observation is its fan-out.)
public final class TodoListFeed: Sendable {
  private struct Subscriber {
    let continuation: AsyncStream<TodoList>.Continuation
    var delivered: Int?
  }

  private struct State {
    var subscribers: [String: [Int: Subscriber]] = [:]
    var nextSubscriber = 0
    var reading: Set<String> = []
    var readAgain: Set<String> = []
  }

  private let read: @Sendable (String) async throws(TodoStoreError) -> TodoList
  private let state = Mutex(State())

  /// Creates a feed that reads a list with `read`.
  ///
  /// - Parameter read: Reads one list (the store's `load`).
  public init(read: @escaping @Sendable (String) async throws(TodoStoreError) -> TodoList) {
    self.read = read
  }

  /// The list `id` after each later notice; see ``TodoStore/changes(of:)``.
  ///
  /// - Parameter id: The list's id.
  /// - Returns: The snapshots.
  public func subscribe(to id: String) -> AsyncStream<TodoList> {
    let (stream, continuation) = AsyncStream<TodoList>.makeStream(
      bufferingPolicy: .bufferingNewest(1))
    let key = state.withLock { state in
      let key = state.nextSubscriber
      state.nextSubscriber += 1
      state.subscribers[id, default: [:]][key] = Subscriber(
        continuation: continuation, delivered: nil)
      return key
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { state in
        state.subscribers[id]?[key] = nil
        if state.subscribers[id]?.isEmpty == true { state.subscribers[id] = nil }
      }
    }
    return stream
  }

  /// How many subscriptions are open, over every list.
  public var subscriberCount: Int {
    state.withLock { $0.subscribers.values.reduce(0) { $0 + $1.count } }
  }

  /// The ids of the lists someone is showing.
  public var watchedLists: [String] {
    state.withLock { Array($0.subscribers.keys) }
  }

  /// The list `id` changed: its subscribers get it as it is now.
  ///
  /// - Parameter id: The list's id.
  public func listChanged(_ id: String) {
    let start = state.withLock { state -> Bool in
      guard state.subscribers[id] != nil else { return false }
      guard !state.reading.contains(id) else {
        state.readAgain.insert(id)
        return false
      }
      state.reading.insert(id)
      return true
    }
    guard start else { return }
    Task { await self.deliver(id) }
  }

  /// Notices may have been missed (a lost connection): every watched list is read again.
  public func everyListChanged() {
    for id in watchedLists { listChanged(id) }
  }

  private func deliver(_ id: String) async {
    while true {
      let list: TodoList?
      do throws(TodoStoreError) {
        list = try await read(id)
      } catch {
        // Unreadable now: the next notice (or the store's recovery) reads it again.
        list = nil
      }
      let more = state.withLock { state -> Bool in
        if let list, let subscribers = state.subscribers[id] {
          for (key, subscriber) in subscribers
          where subscriber.delivered.map({ list.version > $0 }) ?? true {
            subscriber.continuation.yield(list)
            state.subscribers[id]?[key]?.delivered = list.version
          }
        }
        if state.readAgain.remove(id) != nil, state.subscribers[id] != nil { return true }
        state.reading.remove(id)
        return false
      }
      guard more else { return }
    }
  }
}

/// Lists kept in this process's memory: a reload keeps the list, a restart does not.
public actor InMemoryTodoStore: TodoStore {
  private var lists: [String: TodoList] = [:]
  private nonisolated let feed: TodoListFeed

  /// Creates an empty store.
  public init() {
    let lists = ListBox()
    feed = TodoListFeed { id in await lists.store?.load(list: id) ?? TodoList() }
    lists.store = self
  }

  /// The list `id`; empty if there is none yet.
  public func load(list id: String) -> TodoList {
    lists[id] ?? TodoList()
  }

  /// Applies `change` to the list `id`.
  ///
  /// - Throws: ``TodoStoreError/refused(_:)`` for a change no store keeps.
  public func apply(_ change: TodoChange, to id: String) throws(TodoStoreError) -> Int {
    try change.validate()
    var list = lists[id] ?? TodoList()
    if case .add(let todo) = change, list.todos.count >= TodoChange.maximumItems,
      !list.todos.contains(where: { $0.id == todo.id })
    {
      throw .refused(TodoChange.listFullMessage)
    }
    let changed = change.applied(to: list.todos)
    guard changed != list.todos else { return list.version }
    list.todos = changed
    list.version += 1
    lists[id] = list
    feed.listChanged(id)
    return list.version
  }

  /// The list `id` after each change.
  public nonisolated func changes(of id: String) -> AsyncStream<TodoList> {
    feed.subscribe(to: id)
  }

  /// The store as the feed reads it, without a cycle: the store owns the feed.
  private final class ListBox: @unchecked Sendable {
    // Set once in the store's initializer, before the feed can read.
    weak var store: InMemoryTodoStore?
  }
}
