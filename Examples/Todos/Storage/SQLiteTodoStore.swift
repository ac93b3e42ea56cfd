import Foundation
import GRDB
import Synchronization
import Todos

/// TodoMVC's lists in one SQLite file, through GRDB: the showcase's embedded default.
///
/// The file is opened as a WAL database pool (readers never wait for the writer), its schema
/// is created and migrated by GRDB's `DatabaseMigrator`, and a file written by a newer version
/// of the app is refused, never migrated down or clobbered. Every change is one transaction
/// that also raises the list's version, and the version is what ``changes(of:)`` watches, with
/// GRDB's `ValueObservation`: a change written by this store, by another store on the same file,
/// or by another process (a second `showcase`, `sqlite3`) reaches every screen showing that list.
/// A writer of its own raises the version in the transaction that changes the items, as
/// ``apply(_:to:)`` does.
public final class SQLiteTodoStore: TodoStore {
  /// The database file.
  public let path: String
  private let pool: DatabasePool
  /// How often commits by other connections are looked for while a list is watched.
  private let otherWritersInterval: Duration
  private let watching = Mutex(Watching())

  private struct Watching {
    var observations = 0
    var otherWriters: Task<Void, Never>?
  }

  /// The schema's migrations, oldest first. A file whose applied migrations include one not
  /// listed here was written by a newer version.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: lists and todos") { db in
      try db.execute(
        sql: """
          CREATE TABLE todo_lists (id TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL);
          CREATE TABLE todos (
            list_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL,
            completed BOOLEAN NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (list_id, id));
          CREATE INDEX todos_in_order ON todos (list_id, position);
          """)
    }
    return migrator
  }

  /// Opens (or creates) the database at `path`, and migrates its schema.
  ///
  /// - Parameters:
  ///   - path: The file; its folder must exist.
  ///   - otherWritersInterval: How often, while a list is watched, the store looks for commits
  ///     made by other connections to the file (SQLite tells a connection of its own writes
  ///     only): the most a change from another process waits to be shown.
  /// - Throws: ``TodoDatabaseError`` naming the file: it cannot be opened or written (read-only,
  ///   a folder that is not there), it is not a database (corrupt), or it was written by a
  ///   newer version of the app.
  public init(path: String, otherWritersInterval: Duration = .milliseconds(250))
    throws(TodoDatabaseError)
  {
    self.path = path
    self.otherWritersInterval = otherWritersInterval
    var configuration = Configuration()
    configuration.label = "todos"
    // A writer waits this long for another connection's lock before the write fails.
    configuration.busyMode = .timeout(5)
    let pool: DatabasePool
    do {
      pool = try DatabasePool(path: path, configuration: configuration)
      let migrator = Self.migrator
      if try pool.read({ db in try migrator.hasBeenSuperseded(db) }) {
        throw TodoDatabaseError(
          "\(path): this list database was written by a newer version of the app; it was not "
            + "opened, and nothing in it was changed")
      }
      try migrator.migrate(pool)
      // The file may exist and still be unwritable (permissions, a read-only disk): say so
      // now, not at the first change.
      try pool.write { db in
        try db.execute(
          sql: "CREATE TEMP TABLE IF NOT EXISTS write_check (x); DROP TABLE write_check")
        try db.execute(sql: "UPDATE todo_lists SET version = version WHERE 0")
      }
    } catch let error as TodoDatabaseError {
      throw error
    } catch let error as DatabaseError {
      throw TodoDatabaseError(Self.describe(error, path: path))
    } catch {
      throw TodoDatabaseError("\(path): cannot open the list database: \(error)")
    }
    self.pool = pool
  }

  deinit {
    watching.withLock { $0.otherWriters?.cancel() }
  }

  /// The list `id`.
  public func load(list id: String) async throws(TodoStoreError) -> TodoList {
    try await Self.read(id, from: pool, path: path)
  }

  /// Applies `change` in one transaction that raises the list's version if it changed
  /// anything.
  public func apply(_ change: TodoChange, to id: String) async throws(TodoStoreError) -> Int {
    try change.validate()
    let changed: (version: Int, changed: Bool)
    do {
      changed = try await pool.write { db in
        let version =
          try Int.fetchOne(
            db, sql: "SELECT version FROM todo_lists WHERE id = ?", arguments: [id]) ?? 0
        let next = version + 1
        switch change {
        case .add(let todo):
          let count =
            try Int.fetchOne(
              db, sql: "SELECT COUNT(*) FROM todos WHERE list_id = ?", arguments: [id]) ?? 0
          let present =
            try Int.fetchOne(
              db, sql: "SELECT COUNT(*) FROM todos WHERE list_id = ? AND id = ?",
              arguments: [id, todo.id]) ?? 0
          guard count < TodoChange.maximumItems || present > 0 else { throw ListFull() }
          try db.execute(
            sql: """
              INSERT INTO todos (list_id, id, title, completed, position) VALUES (?, ?, ?, ?, ?)
              ON CONFLICT (list_id, id) DO NOTHING
              """,
            arguments: [id, todo.id, todo.title, todo.completed, next])
        case .setTitle(let todoID, let title):
          try db.execute(
            sql: "UPDATE todos SET title = ? WHERE list_id = ? AND id = ? AND title <> ?",
            arguments: [title, id, todoID, title])
        case .setCompleted(let ids, let completed):
          guard !ids.isEmpty else { return (version, false) }
          try db.execute(
            sql: """
              UPDATE todos SET completed = ? WHERE list_id = ? AND completed <> ?
              AND id IN (\(databaseQuestionMarks(count: ids.count)))
              """,
            arguments: StatementArguments(
              [completed, id, completed] as [any DatabaseValueConvertible])
              + StatementArguments(ids))
        case .delete(let ids):
          guard !ids.isEmpty else { return (version, false) }
          try db.execute(
            sql: """
              DELETE FROM todos WHERE list_id = ?
              AND id IN (\(databaseQuestionMarks(count: ids.count)))
              """,
            arguments: StatementArguments([id]) + StatementArguments(ids))
        }
        guard db.changesCount > 0 else { return (version, false) }
        try db.execute(
          sql: """
            INSERT INTO todo_lists (id, version) VALUES (?, ?)
            ON CONFLICT (id) DO UPDATE SET version = excluded.version
            """,
          arguments: [id, next])
        return (next, true)
      }
    } catch is ListFull {
      throw .refused(TodoChange.listFullMessage)
    } catch let error as DatabaseError {
      throw .unavailable(Self.describe(error, path: path))
    } catch {
      throw .unavailable("\(path): \(error)")
    }
    return changed.version
  }

  /// The list `id` now, then after each change of its version, by any writer of the file.
  ///
  /// GRDB's observation re-reads the list's version (one primary-key lookup) after each commit
  /// to `todo_lists`, and the list itself only when its version moved: a change to one list
  /// costs the screens showing the others next to nothing.
  public func changes(of id: String) -> AsyncStream<TodoList> {
    let (stream, continuation) = AsyncStream<TodoList>.makeStream(
      bufferingPolicy: .bufferingNewest(1))
    let versions = ValueObservation.tracking { db in
      try Int.fetchOne(db, sql: "SELECT version FROM todo_lists WHERE id = ?", arguments: [id])
        ?? 0
    }.removeDuplicates()
    let (pool, path) = (pool, path)
    startWatching()
    let task = Task.detached {
      // The list is read after its version is seen, so a read may already show the commit the
      // next version stands for: each version is delivered once, and never an older one.
      var delivered: Int?
      while !Task.isCancelled {
        do {
          for try await _ in versions.values(in: pool, bufferingPolicy: .bufferingNewest(1)) {
            let list = try await Self.read(id, from: pool, path: path)
            if let delivered, list.version <= delivered { continue }
            delivered = list.version
            continuation.yield(list)
          }
        } catch {
          // Unreadable now (a damaged file, a disk gone): the observation ended; start it
          // again shortly, and it reads the list as it is then.
          try? await Task.sleep(for: .seconds(1))
        }
      }
    }
    continuation.onTermination = { [weak self] _ in
      task.cancel()
      self?.stopWatching()
    }
    return stream
  }

  /// One more list watched: while any is, commits made by other connections are looked for.
  private func startWatching() {
    let (pool, interval) = (pool, otherWritersInterval)
    watching.withLock { watching in
      watching.observations += 1
      guard watching.otherWriters == nil else { return }
      watching.otherWriters = Task.detached { await Self.watchOtherWriters(pool, every: interval) }
    }
  }

  private func stopWatching() {
    watching.withLock { watching in
      watching.observations -= 1
      guard watching.observations == 0 else { return }
      watching.otherWriters?.cancel()
      watching.otherWriters = nil
    }
  }

  /// Tells this pool's observations of commits made by other connections. SQLite reports
  /// to a connection the writes made through it only, and GRDB's observation is built on
  /// those reports; `PRAGMA data_version` on the pool's writer changes when any other
  /// connection commits.
  private static func watchOtherWriters(_ pool: DatabasePool, every interval: Duration) async {
    var seen: Int?
    while !Task.isCancelled {
      let now = try? await pool.writeWithoutTransaction { db in
        try Int.fetchOne(db, sql: "PRAGMA data_version")
      }
      if let now, let before = seen, now != before {
        // In a transaction: its commit is what GRDB's observations act on.
        try? await pool.write { db in try db.notifyChanges(in: Table("todo_lists")) }
      }
      if let now { seen = now }
      try? await Task.sleep(for: interval)
    }
  }

  private static func read(_ id: String, from pool: DatabasePool, path: String)
    async throws(TodoStoreError) -> TodoList
  {
    do {
      return try await pool.read { db in
        let version =
          try Int.fetchOne(
            db, sql: "SELECT version FROM todo_lists WHERE id = ?", arguments: [id]) ?? 0
        let todos = try Row.fetchAll(
          db,
          sql: "SELECT id, title, completed FROM todos WHERE list_id = ? ORDER BY position, id",
          arguments: [id]
        ).map { row in Todo(id: row["id"], title: row["title"], completed: row["completed"]) }
        return TodoList(todos: todos, version: version)
      }
    } catch let error as DatabaseError {
      throw .unavailable(describe(error, path: path))
    } catch {
      throw .unavailable("\(path): \(error)")
    }
  }

  /// One line for a database error, naming the file and saying what it means.
  static func describe(_ error: DatabaseError, path: String) -> String {
    switch error.resultCode {
    case .SQLITE_NOTADB, .SQLITE_CORRUPT:
      "\(path): the list database is corrupt or not a database (\(error.message ?? "no detail"))"
    case .SQLITE_READONLY, .SQLITE_PERM:
      "\(path): the list database is read-only (\(error.message ?? "no detail"))"
    case .SQLITE_CANTOPEN:
      "\(path): cannot open the list database (\(error.message ?? "no detail"))"
    default:
      "\(path): \(error.message ?? "\(error.resultCode)")"
    }
  }
}

/// An add to a list that holds ``TodoChange/maximumItems`` already: the write's transaction
/// ends without a change.
struct ListFull: Error {}
