import Foundation
import GRDB
import Testing
import Todos
import TodosStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What each durable store does with a bad file, a bad server or a lost connection: a clear
/// error that names the file or server, and nothing lost or clobbered.
@Suite struct SQLiteStoreTests {
  @Test func aReopenedFileKeepsEveryList() async throws {
    let path = TestFiles.fresh("kept.sqlite")
    do {
      let store = try SQLiteTodoStore(path: path)
      _ = try await store.apply(.add(Todo(id: "a", title: "Milk")), to: "one")
      _ = try await store.apply(.add(Todo(id: "b", title: "Bread", completed: true)), to: "two")
    }
    let reopened = try SQLiteTodoStore(path: path)
    #expect(try await reopened.load(list: "one").todos.map(\.title) == ["Milk"])
    #expect(
      try await reopened.load(list: "two").todos == [Todo(id: "b", title: "Bread", completed: true)]
    )
  }

  /// Watches `list` of `store`; returns once its first snapshot (the list as it is, empty) has
  /// come, so that what follows is a change the store was told of, not one its first read
  /// found. The task's value is the first titles shown after that.
  private func watch(_ list: String, of store: SQLiteTodoStore) async throws
    -> Task<[String]?, Never>
  {
    let updates = store.changes(of: list)
    let (started, ready) = AsyncStream<Void>.makeStream()
    let task = Task {
      for await update in updates {
        ready.yield()
        if !update.todos.isEmpty { return update.todos.map(\.title) as [String]? }
      }
      return nil
    }
    let first = try await withDeadline(.seconds(10)) {
      for await _ in started { return true }
      return false
    }
    #expect(first, "the list as it is came first")
    return task
  }

  @Test func aChangeWrittenThroughAnotherConnectionReachesSubscribers() async throws {
    let path = TestFiles.fresh("shared.sqlite")
    let shown = try SQLiteTodoStore(path: path)
    let other = try SQLiteTodoStore(path: path)
    let seen = try await watch("one", of: shown)
    _ = try await other.apply(.add(Todo(id: "a", title: "From the other store")), to: "one")
    #expect(try await withDeadline(.seconds(10)) { await seen.value } == ["From the other store"])
  }

  /// Another process: `sqlite3`, writing as the schema says (the items and the version, in one
  /// transaction). CI installs it; missing, the test fails.
  @Test func aChangeWrittenByAnotherProcessReachesSubscribers() async throws {
    let tool = try #require(
      ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      }, "sqlite3 is not installed")
    let path = TestFiles.fresh("process.sqlite")
    let store = try SQLiteTodoStore(path: path)
    let seen = try await watch("one", of: store)
    let sql = """
      BEGIN;
      INSERT INTO todos (list_id, id, title, completed, position) VALUES ('one', 'x', 'From sqlite3', 0, 1);
      INSERT INTO todo_lists (id, version) VALUES ('one', 1)
        ON CONFLICT (id) DO UPDATE SET version = version + 1;
      COMMIT;
      """
    #expect(run(tool, path, sql), "sqlite3 wrote the list")
    #expect(try await withDeadline(.seconds(10)) { await seen.value } == ["From sqlite3"])
  }

  @Test func theFileIsInWALMode() async throws {
    let path = TestFiles.fresh("wal.sqlite")
    _ = try SQLiteTodoStore(path: path)
    let queue = try DatabaseQueue(path: path)
    let mode = try await queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    #expect(mode == "wal")
  }

  @Test func aCorruptFileIsRefusedByName() throws {
    let path = TestFiles.fresh("corrupt.sqlite")
    try Data(repeating: 0x5A, count: 8192).write(to: URL(filePath: path))
    let error = #expect(throws: TodoDatabaseError.self) { try SQLiteTodoStore(path: path) }
    #expect(error?.description.contains(path) == true)
    #expect(error?.description.contains("corrupt or not a database") == true)
    #expect(try Data(contentsOf: URL(filePath: path)) == Data(repeating: 0x5A, count: 8192))
  }

  @Test func aFileFromANewerVersionIsRefusedAndLeftAsItIs() async throws {
    let path = TestFiles.fresh("newer.sqlite")
    do {
      let store = try SQLiteTodoStore(path: path)
      _ = try await store.apply(.add(Todo(id: "a", title: "Milk")), to: "one")
    }
    // What a later version would have done: one more migration.
    let queue = try DatabaseQueue(path: path)
    try await queue.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v2: from the future')")
    }
    let error = #expect(throws: TodoDatabaseError.self) { try SQLiteTodoStore(path: path) }
    #expect(error?.description.contains("newer version") == true)
    #expect(error?.description.contains(path) == true)
    let rows = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM todos")
    }
    #expect(rows == 1, "nothing was clobbered")
  }

  @Test func aReadOnlyFileIsRefusedByNameAndKeepsItsLists() async throws {
    let path = TestFiles.fresh("read-only.sqlite")
    do {
      let store = try SQLiteTodoStore(path: path)
      _ = try await store.apply(.add(Todo(id: "a", title: "Milk")), to: "one")
    }
    // Root may write any file its mode forbids: an immutable file is read-only even to it.
    let locked = getuid() == 0 ? run("/usr/bin/chattr", "+i", path) : chmod(path, 0o444) == 0
    try #require(locked, "could not make \(path) read-only")
    defer { _ = getuid() == 0 ? run("/usr/bin/chattr", "-i", path) : chmod(path, 0o644) == 0 }
    let error = #expect(throws: TodoDatabaseError.self) { try SQLiteTodoStore(path: path) }
    #expect(error?.description.contains(path) == true, "\(String(describing: error))")
    #expect(error?.description.contains("read-only") == true, "\(String(describing: error))")
    let queue = try DatabaseQueue(path: path, configuration: readOnly)
    let titles = try await queue.read { db in
      try String.fetchAll(db, sql: "SELECT title FROM todos")
    }
    #expect(titles == ["Milk"])
  }

  @Test func aFolderThatIsNotThereIsNamed() {
    let path = "/nonexistent-\(UUID().uuidString)/todos.sqlite"
    let error = #expect(throws: TodoDatabaseError.self) { try SQLiteTodoStore(path: path) }
    #expect(error?.description.contains(path) == true)
  }
}

@Suite struct PostgresStoreTests {
  @Test func anUnreachableServerIsOneClearErrorInTime() async throws {
    let started = ContinuousClock.now
    let error = await #expect(throws: TodoDatabaseError.self) {
      // Nothing listens on port 1.
      _ = try await PostgresTodoStore.connect(
        url: "postgres://postgres@127.0.0.1:1/postgres", timeout: .seconds(2))
    }
    #expect(error?.description.contains("127.0.0.1:1") == true)
    #expect(ContinuousClock.now - started < .seconds(10))
  }

  @Test func aURLThatIsNotOneIsRefused() async {
    let error = await #expect(throws: TodoDatabaseError.self) {
      _ = try await PostgresTodoStore.connect(url: "mysql://somewhere/db")
    }
    #expect(error?.description.contains("not a PostgreSQL URL") == true)
  }

  @Test func aChangeOnOneNodeReachesAnotherNodesSubscribers() async throws {
    let url = try TestPostgres.shared.url()
    let node1 = try await PostgresTodoStore.connect(url: url)
    let node2 = try await PostgresTodoStore.connect(url: url)
    defer {
      node1.shutdown()
      node2.shutdown()
    }
    let list = "cross-\(UUID().uuidString)"
    let updates = node2.changes(of: list)
    let seen = Task {
      for await update in updates where update.todos.map(\.title) == ["From node 1"] {
        return true
      }
      return false
    }
    _ = try await node1.apply(.add(Todo(id: "a", title: "From node 1")), to: list)
    #expect(try await withDeadline(.seconds(10)) { await seen.value })
  }

  @Test func aLostListenConnectionComesBackAndMissesNothing() async throws {
    let url = try TestPostgres.shared.url()
    let node1 = try await PostgresTodoStore.connect(url: url)
    let node2 = try await PostgresTodoStore.connect(url: url)
    defer {
      node1.shutdown()
      node2.shutdown()
    }
    let list = "lost-\(UUID().uuidString)"
    let updates = node2.changes(of: list)
    let seen = Task {
      for await update in updates where update.todos.count == 2 { return true }
      return false
    }
    // Every LISTEN connection is cut (as a database restart or a network cut would), and a
    // change is made while node 2 is not listening.
    _ = try await node1.apply(
      .add(Todo(id: "cut", title: "x")), to: "cutter-\(UUID().uuidString)")
    try await TestPostgres.terminateListeners(url: url)
    _ = try await node1.apply(.add(Todo(id: "a", title: "One")), to: list)
    _ = try await node1.apply(.add(Todo(id: "b", title: "Two")), to: list)
    #expect(try await withDeadline(.seconds(15)) { await seen.value })
  }

  @Test func aSchemaFromANewerVersionIsRefusedAndLeftAsItIs() async throws {
    let url = try TestPostgres.shared.url()
    let database = "newer_\(UUID().uuidString.prefix(8).lowercased())"
    try await TestPostgres.execute("CREATE DATABASE \(database)", url: url)
    let other = String(url.dropLast("postgres".count)) + database
    let store = try await PostgresTodoStore.connect(url: other)
    store.shutdown()
    try await TestPostgres.execute("INSERT INTO todo_schema VALUES (2)", url: other)
    let error = await #expect(throws: TodoDatabaseError.self) {
      _ = try await PostgresTodoStore.connect(url: other)
    }
    #expect(error?.description.contains("newer") == true)
    #expect(error?.description.contains(database) == true)
  }
}

private var readOnly: Configuration {
  var configuration = Configuration()
  configuration.readonly = true
  return configuration
}

/// Runs a tool; whether it exited 0.
private func run(_ tool: String, _ arguments: String...) -> Bool {
  let process = Process()
  process.executableURL = URL(filePath: tool)
  process.arguments = arguments
  guard (try? process.run()) != nil else { return false }
  process.waitUntilExit()
  return process.terminationStatus == 0
}
