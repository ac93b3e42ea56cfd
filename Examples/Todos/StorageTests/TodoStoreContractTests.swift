import Foundation
import Synchronization
import Testing
import Todos
import TodosStorage

/// The three stores, each made fresh (a new file, or new list ids on the shared server).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case memory
  case sqlite
  case postgres

  var testDescription: String { rawValue }

  func make() async throws -> any TodoStore {
    switch self {
    case .memory: return InMemoryTodoStore()
    case .sqlite: return try SQLiteTodoStore(path: TestFiles.fresh("todos.sqlite"))
    case .postgres: return try await PostgresTodoStore.connect(url: TestPostgres.shared.url())
    }
  }
}

/// The contract every ``TodoStore`` keeps: the same tests, run against each store.
@Suite struct TodoStoreContractTests {
  /// A list id no other test uses (the PostgreSQL server is shared by the suite).
  private func newList() -> String { "list-\(UUID().uuidString)" }

  /// Finding 7 of the second attack run: a NUL in a title was cut silently by SQLite and
  /// refused by PostgreSQL, whose refusal was retried forever. Every store now refuses every
  /// control character in a title the same way, for good, and keeps the list as it was.
  @Test(arguments: StoreKind.allCases)
  func everyStoreRefusesAControlCharacterInATitleForGood(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    let list = newList()
    let version = try await store.apply(.add(Todo(id: "a", title: "Milk")), to: list)
    for title in ["Mi\u{0}lk", "\u{1B}[2J", "a\u{7F}", "tab\there", "\u{85}next"] {
      for change in [TodoChange.add(Todo(id: "b", title: title)), .setTitle(id: "a", title: title)]
      {
        await #expect(
          throws: TodoStoreError.refused(
            "A title cannot hold control characters (U+\(String(format: "%04X", title.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }?.value ?? 0)))."
          )
        ) {
          try await store.apply(change, to: list)
        }
      }
    }
    let loaded = try await store.load(list: list)
    #expect(loaded.todos == [Todo(id: "a", title: "Milk")] && loaded.version == version)
  }

  /// Finding 6 of the second attack run: a list had no size limit, so one browser's list
  /// could cost the server without bound. Every store holds a list to
  /// `TodoChange.maximumItems` and refuses an add beyond, the same way.
  @Test(arguments: StoreKind.allCases)
  func everyStoreRefusesAnAddToAFullList(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    let list = newList()
    for index in 0..<TodoChange.maximumItems {
      _ = try await store.apply(.add(Todo(id: "\(index)", title: "t\(index)")), to: list)
    }
    await #expect(throws: TodoStoreError.refused(TodoChange.listFullMessage)) {
      try await store.apply(.add(Todo(id: "one more", title: "x")), to: list)
    }
    // The same add again (a retried gesture) is no new item, and other changes go on.
    let version = try await store.apply(.add(Todo(id: "0", title: "t0")), to: list)
    _ = try await store.apply(.delete(ids: ["1"]), to: list)
    let grown = try await store.apply(.add(Todo(id: "one more", title: "x")), to: list)
    #expect(grown > version)
    #expect(try await store.load(list: list).todos.count == TodoChange.maximumItems)
  }

  @Test(arguments: StoreKind.allCases)
  func aListNeverWrittenIsEmptyAtVersionZero(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    #expect(try await store.load(list: newList()) == TodoList())
  }

  @Test(arguments: StoreKind.allCases)
  func addsKeepTheirOrderAndEachChangeRaisesTheVersion(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    let list = newList()
    var versions: [Int] = []
    for title in ["One", "Two", "Three"] {
      versions.append(
        try await store.apply(.add(Todo(id: "id-\(title)", title: title)), to: list))
    }
    #expect(versions == versions.sorted() && Set(versions).count == 3 && versions[0] > 0)
    let loaded = try await store.load(list: list)
    #expect(loaded.todos.map(\.title) == ["One", "Two", "Three"])
    #expect(loaded.version == versions.last)
  }

  @Test(arguments: StoreKind.allCases)
  func everyChangeAppliedTwiceIsAppliedOnce(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    let list = newList()
    let changes: [TodoChange] = [
      .add(Todo(id: "a", title: "Milk")),
      .add(Todo(id: "b", title: "Bread")),
      .setTitle(id: "a", title: "Oat milk"),
      .setCompleted(ids: ["a", "b"], completed: true),
      .delete(ids: ["b"]),
    ]
    for change in changes {
      let first = try await store.apply(change, to: list)
      let after = try await store.load(list: list)
      let again = try await store.apply(change, to: list)
      #expect(again == first, "\(change) again changes no version")
      #expect(try await store.load(list: list) == after, "\(change) again changes nothing")
    }
    #expect(
      try await store.load(list: list).todos == [Todo(id: "a", title: "Oat milk", completed: true)])
  }

  @Test(arguments: StoreKind.allCases)
  func changesToUnknownItemsChangeNothing(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    let list = newList()
    let version = try await store.apply(.add(Todo(id: "a", title: "Milk")), to: list)
    #expect(try await store.apply(.setTitle(id: "zz", title: "x"), to: list) == version)
    #expect(try await store.apply(.setCompleted(ids: [], completed: true), to: list) == version)
    #expect(try await store.apply(.delete(ids: ["zz"]), to: list) == version)
  }

  @Test(arguments: StoreKind.allCases)
  func listsAreSeparateEvenWithTheSameItemIDs(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    let (mine, theirs) = (newList(), newList())
    _ = try await store.apply(.add(Todo(id: "same", title: "Mine")), to: mine)
    _ = try await store.apply(.add(Todo(id: "same", title: "Theirs")), to: theirs)
    _ = try await store.apply(.delete(ids: ["same"]), to: theirs)
    #expect(try await store.load(list: mine).todos.map(\.title) == ["Mine"])
    #expect(try await store.load(list: theirs).todos.isEmpty)
  }

  @Test(arguments: StoreKind.allCases)
  func textOfAnyKindComesBackAsWritten(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    let list = "list'; DROP TABLE todos; -- \(UUID().uuidString)"
    let titles = [
      "Robert'); DROP TABLE todos;--", "emoji 👩‍👩‍👧 and 漢字", "quotes \" ' `", "back\\slash",
      "spaces   inside", "\u{202E}right to left\u{202C}", String(repeating: "long ", count: 200),
    ]
    for (index, title) in titles.enumerated() {
      _ = try await store.apply(.add(Todo(id: "id \(index) ' \"", title: title)), to: list)
    }
    #expect(try await store.load(list: list).todos.map(\.title) == titles)
  }

  @Test(arguments: StoreKind.allCases)
  func concurrentWritersLoseNothing(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    let list = newList()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<8 {
        group.addTask {
          for item in 0..<10 {
            _ = try await store.apply(.add(Todo(id: "\(writer)-\(item)", title: "x")), to: list)
          }
        }
      }
      try await group.waitForAll()
    }
    let loaded = try await store.load(list: list)
    #expect(loaded.todos.count == 80 && Set(loaded.todos.map(\.id)).count == 80)
    #expect(loaded.version >= 80)
  }

  @Test(arguments: StoreKind.allCases)
  func aSubscriberGetsEachChangeInOrderAndOnlyItsList(_ kind: StoreKind) async throws {
    let store = try await kind.make()
    let (list, other) = (newList(), newList())
    let updates = store.changes(of: list)
    let seen = Task {
      var versions: [TodoList] = []
      for await update in updates {
        versions.append(update)
        if update.todos.count == 3 { break }
      }
      return versions
    }
    for index in 0..<3 {
      _ = try await store.apply(.add(Todo(id: "\(index)", title: "t\(index)")), to: other)
      _ = try await store.apply(.add(Todo(id: "\(index)", title: "t\(index)")), to: list)
    }
    let received = try await withDeadline(.seconds(10)) { await seen.value }
    let versions = received.map(\.version)
    #expect(versions == versions.sorted() && Set(versions).count == versions.count)
    #expect(received.last?.todos.map(\.title) == ["t0", "t1", "t2"])
  }
}

/// Waits for `work` at most `limit`; a test that would hang fails instead.
func withDeadline<T: Sendable>(
  _ limit: Duration, _ work: @escaping @Sendable () async -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { await work() }
    group.addTask {
      try await Task.sleep(for: limit)
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let value = first else {
      throw DeadlineExceeded()
    }
    return value
  }
}

struct DeadlineExceeded: Error {}

/// Fresh files in a folder of this test run.
enum TestFiles {
  static let folder: String = {
    let path = NSTemporaryDirectory() + "tether-store-tests-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  static func fresh(_ name: String) -> String {
    folder + "/\(UUID().uuidString)-\(name)"
  }
}

/// One throwaway PostgreSQL server for the whole test run, stopped when the process exits.
/// PostgreSQL missing is a failure, not a skip: CI installs it.
final class TestPostgres: Sendable {
  static let shared = TestPostgres()
  private let server = Mutex<Result<ThrowawayPostgres, TodoDatabaseError>?>(nil)

  func url() throws -> String {
    try server.withLock { server in
      if server == nil {
        server = Result { () throws(TodoDatabaseError) in try ThrowawayPostgres.start() }
        if case .success(let started) = server {
          TestPostgres.started.withLock { $0 = started }
          atexit { TestPostgres.started.withLock { $0?.stop() } }
        }
      }
      guard let server else { throw TodoDatabaseError("no server") }
      return try server.get().url
    }
  }

  static let started = Mutex<ThrowawayPostgres?>(nil)
}

extension TestPostgres {
  /// Runs one statement through `psql`-free means: a throwaway store's connection pool.
  static func execute(_ sql: String, url: String) async throws {
    try await PostgresTestClient.execute(sql, url: url)
  }

  /// Ends every backend that is listening for notices (each node's LISTEN connection).
  static func terminateListeners(url: String) async throws {
    try await PostgresTestClient.execute(
      """
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()
      """, url: url)
  }
}

/// The feed behind the in-memory and PostgreSQL stores.
@Suite struct TodoListFeedTests {
  /// Two notices answered by one read (or a recovery re-read of an unchanged list) read the same
  /// version twice; a subscriber gets it once and then the next version.
  @Test func aSubscriberGetsEachVersionOnce() async throws {
    // Reads 1 and 2 find version 1, every later read version 2.
    let reads = Mutex(0)
    let feed = TodoListFeed { _ async throws(TodoStoreError) -> TodoList in
      let read = reads.withLock { count in
        count += 1
        return count
      }
      let version = read <= 2 ? 1 : 2
      return TodoList(todos: [Todo(id: "\(version)", title: "v\(version)")], version: version)
    }
    let updates = feed.subscribe(to: "list")
    let seen = Task {
      var received: [Int] = []
      for await update in updates {
        received.append(update.version)
        if update.version == 2 { break }
      }
      return received
    }
    for notice in 1...3 {
      feed.listChanged("list")
      // The next notice comes once this one's read has begun, so each makes a read of its own.
      try await withDeadline(.seconds(10)) {
        while reads.withLock({ $0 }) < notice { await Task.yield() }
      }
    }
    let received = try await withDeadline(.seconds(10)) { await seen.value }
    #expect(received == [1, 2])
  }
}
