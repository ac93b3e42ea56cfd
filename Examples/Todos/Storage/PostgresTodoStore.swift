import Foundation
import Logging
import PostgresNIO
import Synchronization
import Todos

/// TodoMVC's lists in PostgreSQL, through postgres-nio: the cluster's store, shared by every
/// node.
///
/// Every change is one transaction that locks its list's row, applies the change, raises the
/// list's version and sends `NOTIFY todos, '<list id>'`, so notices arrive only for committed
/// changes. Each node keeps one `LISTEN` connection and fans each notice out to the screens
/// showing that list on the node (``TodoListFeed``: one read per notice, however many screens).
/// When that connection is lost, it is opened again, and every list shown on the node is read
/// anew, since notices sent meanwhile are gone.
///
/// The schema is created on first use and versioned in `todo_schema`; a database whose schema
/// is newer than this code is refused, never altered.
public final class PostgresTodoStore: TodoStore {
  /// The schema version this code writes.
  static let schemaVersion = 1
  /// The channel notices travel on.
  static let channel = "todos"
  /// How long one read or write waits for the database: the pool keeps a request waiting while
  /// it cannot connect, so without this a screen would wait, silent, for as long as an outage
  /// lasts instead of saying so (and retrying).
  static let operationTimeout = Duration.seconds(3)

  /// The server and database, without the password, for messages.
  public let address: String
  private let client: PostgresClient
  private let configuration: PostgresClient.Configuration
  private let feed: TodoListFeed
  private let logger: Logger
  private let tasks = Mutex<[Task<Void, Never>]>([])
  private let listening = Mutex(false)

  /// Whether this node's `LISTEN` connection is open (notices from other nodes arrive).
  public var isListening: Bool { listening.withLock { $0 } }

  private init(
    address: String, configuration: PostgresClient.Configuration, logger: Logger
  ) {
    self.address = address
    self.configuration = configuration
    self.logger = logger
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    self.client = client
    feed = TodoListFeed { [address] id async throws(TodoStoreError) -> TodoList in
      try await Self.read(id, client: client, address: address)
    }
  }

  /// Connects to the database `url` (`postgres://user:password@host:port/database`), creates
  /// or checks its schema, and starts listening for changes.
  ///
  /// - Parameters:
  ///   - url: The database's URL.
  ///   - timeout: How long to wait for the server before giving up.
  ///   - logger: Where the connection pool logs.
  /// - Returns: The store, ready.
  /// - Throws: ``TodoDatabaseError`` naming the server: the URL is not one, the server is not
  ///   reachable in time, refused the login, or holds a schema from a newer version.
  public static func connect(
    url: String, timeout: Duration = .seconds(5),
    logger: Logger = quietLogger
  ) async throws(TodoDatabaseError) -> PostgresTodoStore {
    let (configuration, address) = try parse(url)
    // One connection first, so that a refused connection or login is said as it is (the pool
    // would retry it quietly until the timeout).
    do {
      let connection = try await PostgresConnection.connect(
        configuration: connectionConfiguration(configuration), id: 0, logger: logger)
      try await connection.close()
    } catch {
      throw TodoDatabaseError("\(address): cannot connect: \(describe(error))")
    }
    let store = PostgresTodoStore(address: address, configuration: configuration, logger: logger)
    store.start(Task { await store.client.run() })
    do {
      try await withTimeout(timeout, address: address) {
        try await store.migrate()
        try await store.startListening()
      }
    } catch {
      store.shutdown()
      throw error
    }
    return store
  }

  /// Stops the connection pool and the listener.
  public func shutdown() {
    let running = tasks.withLock { tasks in
      defer { tasks = [] }
      return tasks
    }
    for task in running { task.cancel() }
  }

  /// The list `id`.
  public func load(list id: String) async throws(TodoStoreError) -> TodoList {
    try await Self.read(id, client: client, address: address)
  }

  /// Applies `change` in one transaction; a change that changes something raises the version
  /// and notifies every node.
  public func apply(_ change: TodoChange, to id: String) async throws(TodoStoreError) -> Int {
    try change.validate()
    let (client, logger) = (client, logger)
    do {
      return try await Self.answered { try await Self.write(change, to: id, client, logger) }
    } catch let error as PostgresTransactionError where error.closureError is ListFull {
      // The transaction rolled back: the list is as it was.
      throw .refused(TodoChange.listFullMessage)
    } catch {
      throw .unavailable("\(address): \(Self.describe(error))")
    }
  }

  private static func write(
    _ change: TodoChange, to id: String, _ client: PostgresClient, _ logger: Logger
  ) async throws -> Int {
    try await client.withTransaction(logger: logger) { connection in
      try await connection.query(
        "INSERT INTO todo_lists (id, version) VALUES (\(id), 0) ON CONFLICT (id) DO NOTHING",
        logger: logger)
      var version = 0
      for try await value in try await connection.query(
        "SELECT version FROM todo_lists WHERE id = \(id) FOR UPDATE", logger: logger
      ).decode(Int.self) {
        version = value
      }
      let next = version + 1
      let rows: PostgresRowSequence
      switch change {
      case .add(let todo):
        var count = 0
        for try await value in try await connection.query(
          "SELECT COUNT(*) FILTER (WHERE id <> \(todo.id))::BIGINT FROM todos WHERE list_id = \(id)",
          logger: logger
        ).decode(Int.self) {
          count = value
        }
        guard count < TodoChange.maximumItems else { throw ListFull() }
        rows = try await connection.query(
          """
          INSERT INTO todos (list_id, id, title, completed, position)
          VALUES (\(id), \(todo.id), \(todo.title), \(todo.completed), \(next))
          ON CONFLICT (list_id, id) DO NOTHING RETURNING id
          """, logger: logger)
      case .setTitle(let todoID, let title):
        rows = try await connection.query(
          """
          UPDATE todos SET title = \(title)
          WHERE list_id = \(id) AND id = \(todoID) AND title <> \(title) RETURNING id
          """, logger: logger)
      case .setCompleted(let ids, let completed):
        rows = try await connection.query(
          """
          UPDATE todos SET completed = \(completed)
          WHERE list_id = \(id) AND completed <> \(completed) AND id = ANY(\(ids)) RETURNING id
          """, logger: logger)
      case .delete(let ids):
        rows = try await connection.query(
          "DELETE FROM todos WHERE list_id = \(id) AND id = ANY(\(ids)) RETURNING id",
          logger: logger)
      }
      var changed = 0
      for try await _ in rows { changed += 1 }
      guard changed > 0 else { return version }
      try await connection.query(
        "UPDATE todo_lists SET version = \(next) WHERE id = \(id)", logger: logger)
      try await connection.query(
        "SELECT pg_notify(\(Self.channel), \(id))", logger: logger)
      return next
    }
  }

  /// `work`'s result, or ``OperationTimedOut`` once ``operationTimeout`` passed (the work is
  /// cancelled: a pool request waiting for a connection gives up).
  private static func answered<T: Sendable>(
    _ work: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let running = Task { try await work() }
    let timer = Task {
      try await Task.sleep(for: operationTimeout)
      running.cancel()
    }
    defer { timer.cancel() }
    do {
      return try await running.value
    } catch  where running.isCancelled && !Task.isCancelled {
      throw OperationTimedOut()
    }
  }

  /// No answer within ``operationTimeout``.
  struct OperationTimedOut: Error, CustomStringConvertible {
    var description: String {
      "the database did not answer within \(PostgresTodoStore.operationTimeout)"
    }
  }

  /// The list `id` after each change, made on any node.
  public func changes(of id: String) -> AsyncStream<TodoList> {
    feed.subscribe(to: id)
  }

  // MARK: - Connecting

  private func start(_ task: Task<Void, Never>) {
    tasks.withLock { $0.append(task) }
  }

  /// Creates the schema, or checks the one there, under a lock so that nodes starting together
  /// do it once.
  private func migrate() async throws {
    let address = self.address
    let refusal: String? = try await client.withTransaction(logger: logger) { connection in
      // Any number; the same on every node.
      try await connection.query("SELECT pg_advisory_xact_lock(7262011)", logger: logger)
      try await connection.query(
        "CREATE TABLE IF NOT EXISTS todo_schema (version INT NOT NULL)", logger: logger)
      var found = 0
      for try await value in try await connection.query(
        "SELECT COALESCE(MAX(version), 0) FROM todo_schema", logger: logger
      ).decode(Int.self) {
        found = value
      }
      if found > Self.schemaVersion {
        return "\(address): the list database has schema version \(found), newer than this "
          + "app's \(Self.schemaVersion); it was not changed"
      }
      if found < 1 {
        try await connection.query(
          """
          CREATE TABLE todo_lists (id TEXT PRIMARY KEY, version BIGINT NOT NULL)
          """, logger: logger)
        try await connection.query(
          """
          CREATE TABLE todos (
            list_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL,
            completed BOOLEAN NOT NULL, position BIGINT NOT NULL, PRIMARY KEY (list_id, id))
          """, logger: logger)
        try await connection.query(
          "CREATE INDEX todos_in_order ON todos (list_id, position)", logger: logger)
        try await connection.query("INSERT INTO todo_schema VALUES (1)", logger: logger)
      }
      return nil
    }
    if let refusal { throw TodoDatabaseError(refusal) }
  }

  /// Opens the `LISTEN` connection and returns once it listens; the connection is then kept
  /// open (opened again after a loss, with every watched list read anew) until shutdown.
  private func startListening() async throws {
    let connection = try await PostgresConnection.connect(
      configuration: connectionConfiguration, id: 0, logger: logger)
    let ready = FirstListen()
    try await withCheckedThrowingContinuation { continuation in
      ready.waiting.withLock { $0 = continuation }
      start(
        Task {
          var current: PostgresConnection? = connection
          while !Task.isCancelled {
            var open: PostgresConnection?
            do {
              if let current {
                open = current
              } else {
                open = try await PostgresConnection.connect(
                  configuration: connectionConfiguration, id: 0, logger: logger)
              }
              current = nil
              guard let open else { break }
              try await withTaskCancellationHandler {
                try await open.listen(on: Self.channel) { notices in
                  listening.withLock { $0 = true }
                  ready.take()?.resume()
                  // Notices sent while no connection listened are lost: read every list
                  // someone is shown again.
                  feed.everyListChanged()
                  for try await notice in notices { feed.listChanged(notice.payload) }
                }
              } onCancel: {
                open.close().whenComplete { _ in }
              }
            } catch {
              if let first = ready.take() {
                try? await open?.close()
                first.resume(throwing: error)
                return
              }
            }
            // Closed (already, or now), so the pool's bookkeeping never sees it dropped open.
            try? await open?.close()
            listening.withLock { $0 = false }
            try? await Task.sleep(for: .milliseconds(500))
          }
        })
    }
  }

  /// The caller of ``startListening()``, until the first `LISTEN` succeeds or fails.
  private final class FirstListen: Sendable {
    let waiting = Mutex<CheckedContinuation<Void, any Error>?>(nil)

    func take() -> CheckedContinuation<Void, any Error>? {
      waiting.withLock { waiting in
        defer { waiting = nil }
        return waiting
      }
    }
  }

  /// Warnings and errors only: the pool reports each failed connection attempt at `info`.
  public static let quietLogger: Logger = {
    var logger = Logger(label: "todos.postgres")
    logger.logLevel = .warning
    return logger
  }()

  private var connectionConfiguration: PostgresConnection.Configuration {
    Self.connectionConfiguration(configuration)
  }

  static func connectionConfiguration(_ configuration: PostgresClient.Configuration)
    -> PostgresConnection.Configuration
  {
    var connection = PostgresConnection.Configuration(
      host: configuration.host ?? "127.0.0.1", port: configuration.port ?? 5432,
      username: configuration.username, password: configuration.password,
      database: configuration.database, tls: .disable)
    connection.options.connectTimeout = .seconds(3)
    return connection
  }

  /// The client's configuration and a password-free address from a `postgres://` URL.
  static func parse(_ url: String) throws(TodoDatabaseError)
    -> (PostgresClient.Configuration, String)
  {
    guard let components = URLComponents(string: url),
      components.scheme == "postgres" || components.scheme == "postgresql",
      let host = components.host, !host.isEmpty
    else {
      throw TodoDatabaseError(
        "not a PostgreSQL URL: expected postgres://user:password@host:port/database")
    }
    let port = components.port ?? 5432
    let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : ""
    let user = components.user ?? "postgres"
    var configuration = PostgresClient.Configuration(
      host: host, port: port, username: user, password: components.password,
      database: database.isEmpty ? nil : database, tls: .disable)
    configuration.options.connectTimeout = .seconds(3)
    configuration.options.maximumConnections = 8
    let address = "postgres://\(user)@\(host):\(port)/\(database)"
    return (configuration, address)
  }

  private static func withTimeout(
    _ timeout: Duration, address: String, _ work: @escaping @Sendable () async throws -> Void
  ) async throws(TodoDatabaseError) {
    do {
      try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
          try await work()
          return true
        }
        group.addTask {
          try await Task.sleep(for: timeout)
          return false
        }
        let finished = try await group.next() ?? false
        group.cancelAll()
        if !finished {
          throw TodoDatabaseError(
            "\(address): the database did not answer within \(timeout) (is it running?)")
        }
      }
    } catch let error as TodoDatabaseError {
      throw error
    } catch {
      throw TodoDatabaseError("\(address): cannot use the database: \(describe(error))")
    }
  }

  private static func read(_ id: String, client: PostgresClient, address: String)
    async throws(TodoStoreError) -> TodoList
  {
    do {
      return try await answered { try await query(id, client: client) }
    } catch {
      throw .unavailable("\(address): \(describe(error))")
    }
  }

  private static func query(_ id: String, client: PostgresClient) async throws -> TodoList {
    // One statement reads one snapshot, so the version always belongs to the items beside it
    // (two statements could pair a version with the next change's items).
    var version = 0
    var todos: [Todo] = []
    for try await (listVersion, todoID, title, completed) in try await client.query(
      """
      SELECT l.version, t.id, t.title, t.completed
      FROM todo_lists l LEFT JOIN todos t ON t.list_id = l.id
      WHERE l.id = \(id) ORDER BY t.position, t.id
      """
    ).decode((Int, String?, String?, Bool?).self) {
      version = listVersion
      if let todoID, let title, let completed {
        todos.append(Todo(id: todoID, title: title, completed: completed))
      }
    }
    return TodoList(todos: todos, version: version)
  }

  /// A line for an error from postgres-nio: its code and the server's message (postgres-nio's
  /// own description hides both).
  static func describe(_ error: any Error) -> String {
    if let error = error as? PSQLError, error.code == .connectionError,
      let underlying = error.underlying
    {
      // The channel's own text nests several errors in one line: the reason is enough.
      let text = "\(underlying)"
      let reasons = [
        "Connection refused", "Connection timed out", "No route to host",
        "Network is unreachable", "Name or service not known", "nodename nor servname",
      ]
      return reasons.first { text.contains($0) }?.lowercased() ?? text
    }
    if let error = error as? PSQLError {
      if let message = error.serverInfo?[.message] { return "\(error.code): \(message)" }
      if let underlying = error.underlying { return "\(error.code): \(underlying)" }
      return "\(error.code)"
    }
    return "\(error)"
  }
}
