#if PostgresPubSub
  import Logging
  import PostgresNIO
  import Synchronization
  import TetherPubSub

  /// Carries a `PubSub` node's payloads through a PostgreSQL database's
  /// notifications: each node sends with `pg_notify` and hears the others on one `LISTEN`
  /// connection, so every node of a cluster that shares the database shares its topics. Each
  /// node makes one from the shared database's configuration and gives it to its `PubSub`.
  ///
  /// A notification carries under 8,000 bytes, so ``maximumPayloadBytes`` is 7,900. The listening
  /// connection is opened again after a loss (every half second until it is back); payloads
  /// sent while it was lost are not heard by this node. Presence recovers from such a gap by
  /// itself (the next heartbeat names a version this node has not seen, and it asks for the
  /// state); messages sent during it are not replayed.
  public final class PostgresPubSubTransport: PubSubTransport {
    /// Under PostgreSQL's 8,000 bytes per notification.
    public let maximumPayloadBytes = 7_900

    private let configuration: PostgresConnection.Configuration
    private let channel: String
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
      var listener: Task<Void, Never>?
      var sender: PostgresConnection?
      var listening = false
    }

    /// Creates a transport, not yet connected.
    ///
    /// - Parameters:
    ///   - configuration: The database every node shares.
    ///   - channel: The notification channel; nodes that share one share their topics.
    ///   - logger: Where connection losses are logged.
    public init(
      configuration: PostgresConnection.Configuration, channel: String = "tether_pubsub",
      logger: Logger
    ) {
      self.configuration = configuration
      self.channel = channel
      self.logger = logger
    }

    deinit {
      // A connection must be closed before it goes; a transport let go without `disconnect()`
      // (its node never shut down) closes its own.
      let (listener, sender) = state.withLock { ($0.listener, $0.sender) }
      listener?.cancel()
      sender?.close().whenComplete { _ in }
    }

    /// Whether the listening connection is open now.
    public var isListening: Bool { state.withLock { $0.listening } }

    /// Opens the listening connection and returns once it listens (opened again after a loss).
    public func connect(_ receive: @escaping @Sendable (String) -> Void) async throws(PubSubError) {
      let first: PostgresConnection
      do {
        first = try await PostgresConnection.connect(
          configuration: configuration, id: 1, logger: logger)
      } catch {
        throw .transport(Self.describe(error))
      }
      let ready = AsyncStream<Result<Void, PubSubError>>.makeStream()
      let task = Task { [weak self, configuration, channel, logger] in
        var next: PostgresConnection? = first
        var reported = false
        while !Task.isCancelled {
          var open: PostgresConnection?
          do {
            if let next {
              open = next
            } else {
              open = try await PostgresConnection.connect(
                configuration: configuration, id: 1, logger: logger)
            }
            next = nil
            guard let open else { break }
            try await withTaskCancellationHandler {
              try await open.listen(on: channel) { notifications in
                self?.state.withLock { $0.listening = true }
                if !reported {
                  reported = true
                  ready.continuation.yield(.success(()))
                }
                for try await notification in notifications { receive(notification.payload) }
              }
            } onCancel: {
              open.close().whenComplete { _ in }
            }
          } catch {
            if !reported {
              reported = true
              ready.continuation.yield(.failure(.transport(Self.describe(error))))
              try? await open?.close()
              return
            }
            logger.warning("pubsub: listening connection lost: \(Self.describe(error))")
          }
          try? await open?.close()
          self?.state.withLock { $0.listening = false }
          try? await Task.sleep(for: .milliseconds(500))
        }
      }
      state.withLock { $0.listener = task }
      for await result in ready.stream {
        if case .failure(let error) = result { throw error }
        return
      }
      throw .transport("the listening connection closed before it listened")
    }

    /// Sends `payload` with `pg_notify` on the sending connection (opened again after a failure).
    public func send(_ payload: String) async throws(PubSubError) {
      guard payload.utf8.count <= maximumPayloadBytes else {
        throw .tooLarge(bytes: payload.utf8.count, limit: maximumPayloadBytes)
      }
      // One sending connection, opened again after a failure; the node sends one payload at
      // a time, so it is never used by two sends at once.
      do {
        let connection: PostgresConnection
        if let open = state.withLock({ $0.sender }), !open.isClosed {
          connection = open
        } else {
          connection = try await PostgresConnection.connect(
            configuration: configuration, id: 2, logger: logger)
          state.withLock { $0.sender = connection }
        }
        try await connection.query("SELECT pg_notify(\(channel), \(payload))", logger: logger)
      } catch {
        let broken = state.withLock { state in
          defer { state.sender = nil }
          return state.sender
        }
        try? await broken?.close()
        throw .transport(Self.describe(error))
      }
    }

    /// Closes both connections.
    public func disconnect() async {
      let (listener, sender) = state.withLock { state in
        defer {
          state.listener = nil
          state.sender = nil
        }
        return (state.listener, state.sender)
      }
      listener?.cancel()
      try? await sender?.close()
    }

    private static func describe(_ error: any Error) -> String {
      if let error = error as? PSQLError {
        return error.serverInfo?[.message] ?? "\(error.code)"
      }
      return String(describing: error)
    }
  }
#endif
