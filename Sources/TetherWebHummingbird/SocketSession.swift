#if WebServer
  import Hummingbird
  import HummingbirdCore
  import HummingbirdWebSocket
  import Logging
  import NIOCore
  import ServiceLifecycle
  import Synchronization
  import TetherFlow
  import TetherWeb

  extension SendQueue {
    /// The writer of a socket served by Hummingbird's WebSocket route: writes what waits, in
    /// order, until nothing does. A failed write closes the queue (the socket's inbound loop
    /// sees the socket end).
    func write(to outbound: WebSocketOutboundWriter) async {
      while let batch = next() {
        for message in batch {
          do {
            try await outbound.write(.text(message))
          } catch {
            close()
            return
          }
          guard written(bytes: message.utf8.count) else { return }
        }
      }
    }
  }

  /// One page's socket: resumes or finds its session, attaches, routes messages both ways,
  /// detaches.
  struct SocketSession: Sendable {
    let registry: WebSessionRegistry
    let id: String
    let resync: Bool
    /// The browser, as the upgrade request's cookie names it.
    let client: WebClient
    /// The browser's address (a trusted proxy's `X-Forwarded-For`, else the peer's).
    let address: String?
    /// How fast the page may send, if limited (``WebConnectionLimits/messageRate``).
    let messageRate: WebMessageRate?
    /// The rules of the socket (`SocketCore.Limits`): its hello's deadline, its message size,
    /// what frames that are not messages may cost.
    let socketLimits: SocketCore.Limits
    let logger: Logger

    /// Serves one page's socket through Hummingbird's WebSocket route: its data frames go
    /// through the page socket's ``SocketCore`` (the rules the event-loop handler keeps too:
    /// fragments, UTF-8, size, the budget, the hello), and what it says is done here.
    /// Hummingbird's WebSocket handler answers pings and closes itself, so the core's pongs
    /// and pings are its.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
      var core = SocketCore(limits: socketLimits, at: .now)
      // A socket that says nothing, or nothing in time, gets nothing.
      let silence = Task {
        try await Task.sleep(for: socketLimits.helloTimeout)
        try await outbound.close(
          .unknown(SocketCore.CloseCode.noProof), reason: "no proof of the session")
      }
      defer { silence.cancel() }
      var frames = inbound.makeAsyncIterator()
      var open: OpenSocket?
      let refusals = RefusalLog(logger: logger)
      do {
        reading: while let frame = try await frames.next() {
          let opcode: UInt8 =
            switch frame.opcode {
            case .text: SocketCore.Opcode.text
            case .binary: SocketCore.Opcode.binary
            case .continuation: SocketCore.Opcode.continuation
            }
          var actions = core.received(
            SocketCore.Frame(
              fin: frame.fin, opcode: opcode, payload: Array(frame.data.readableBytesView)),
            at: .now)
          while !actions.isEmpty {
            let action = actions.removeFirst()
            switch action {
            case .checkHello(let text):
              silence.cancel()
              switch await attach(hello: text, outbound: outbound) {
              case .refused(let code, let reason):
                actions += core.close(code: code, reason: reason, at: .now)
              case .attached(let connection, let queue):
                open = OpenSocket(
                  connection: connection, queue: queue, inbox: WebInbox(rate: messageRate),
                  refresher: refresher(connection),
                  uploads: await registry.session(id)?.uploadReceiver)
                actions += core.helloChecked(at: .now)
              }
            case .deliver(let text):
              guard let open else { continue }
              switch open.inbox.admit(text) {
              case .startHandler:
                Self.handle(
                  open.inbox, registry: registry, id: id, connection: open.connection,
                  address: address, refusals: refusals)
              case .queued:
                break
              case .refused(let error):
                refusals.refused(error?.description ?? "the socket is closing")
                actions += core.refused(bytes: text.utf8.count, at: .now)
                continue
              }
              if open.inbox.isFull { await open.inbox.waitForRoom() }
              // A socket far past its rate is read no faster than it.
              let pause = open.inbox.pauseBeforeReading()
              if pause > .zero { try await Task.sleep(for: pause) }
            case .deliverChunk(let chunk):
              // Written here, on this socket's task: the socket is read no faster than its
              // chunks are stored.
              switch open?.uploads?.write(chunk) ?? .refused("no session") {
              case .written, .dropped: break
              case .refused(let reason):
                refusals.refused("upload: \(reason)")
                actions += core.refused(bytes: chunk.count, at: .now)
              }
            case .writeClose(let code, let reason):
              try? await outbound.close(code.map { .unknown($0) } ?? .normalClosure, reason: reason)
            case .stopSending:
              open?.queue.close()
              if core.closedHere { open?.inbox.close() }
            case .stopReading, .closeConnection:
              break reading
            case .writePong, .writePing:
              break
            }
          }
        }
      } catch {
        logger.notice("session socket ended: \(WebLogText.escaped("\(error)", limit: 200))")
      }
      guard let open else { return }
      // What the page sent before its socket ended is still its own: its numbered gestures are
      // handled, then counted, and only then is the session detached.
      open.inbox.socketEnded()
      await open.inbox.drained()
      refusals.finish()
      open.refresher?.cancel()
      open.queue.close()
      await registry.detach(id, connection: open.connection)
    }

    /// A socket attached to its session.
    private struct OpenSocket {
      let connection: Int
      let queue: SendQueue
      let inbox: WebInbox
      let refresher: Task<Void, Never>?
      /// Where the session's upload chunks go.
      let uploads: WebUploadReceiver?
    }

    /// A page that stays on one screen is sent a fresh token in time: its newest one must
    /// still be accepted wherever it reconnects.
    private func refresher(_ connection: Int) -> Task<Void, Never>? {
      guard let lifetime = registry.resumeSigner?.maximumAge else { return nil }
      return Task { [registry, id] in
        while (try? await Task.sleep(for: lifetime / 3)) != nil {
          await registry.refreshResumeToken(id, connection: connection)
        }
      }
    }

    /// What the hello of a socket on Hummingbird's route got.
    private enum RouteAttachment {
      case attached(Int, SendQueue)
      case refused(code: UInt16, reason: String)
    }

    /// Checks the page's hello and attaches the socket to its session. Messages wait in a
    /// `SendQueue` for the socket's writer, a task that lives while there is something to
    /// write (an idle socket keeps none); a page that falls behind is closed with 4408 and
    /// reconnects for a full redraw.
    private func attach(hello text: String, outbound: WebSocketOutboundWriter) async
      -> RouteAttachment
    {
      let queue = SendQueue()
      let outcome = await Self.attach(
        hello: text, id: id, resync: resync, client: client, address: address,
        registry: registry, logger: logger,
        send: { text in
          switch queue.admit(text) {
          case .startWriter:
            Task { await queue.write(to: outbound) }
          case .queued, .closed:
            break
          case .overflowed:
            Task {
              try? await outbound.close(
                .unknown(TetherWebServer.fellBehindCloseCode),
                reason: "fell behind: reconnect for a full redraw")
            }
          }
        },
        close: {
          // One socket per session: a newer one of the same page (its secret) took over.
          Task {
            try? await outbound.close(
              .unknown(WebSessionRegistry.replacedCloseCode), reason: "replaced by a newer socket")
          }
        })
      switch outcome {
      case .attached(let connection): return .attached(connection, queue)
      case .refused(let code, let reason): return .refused(code: code, reason: reason)
      }
    }

    /// What a page's hello got: its socket attached to its session as a connection, or
    /// refused with a close code and its reason.
    enum Attachment: Sendable {
      case attached(Int)
      case refused(code: UInt16, reason: String)
    }

    /// Checks a page's hello and attaches its socket to its session: the check both of the
    /// server's socket paths make (Hummingbird's WebSocket route and the server's own socket on
    /// the event loop).
    ///
    /// A page's first message proves the socket is its session's: the session's secret, which
    /// no URL carries, and with a resume key the page's newest token (the session may live on
    /// another server, on one that died, or be here but behind the page).
    ///
    /// - Parameters:
    ///   - text: The socket's first message.
    ///   - id: The session the socket's request names.
    ///   - resync: Whether the page may be older than the session's last render.
    ///   - client: The browser, as the request's cookie names it.
    ///   - address: The browser's address.
    ///   - registry: The sessions.
    ///   - logger: Where refusals are logged.
    ///   - send: Sends one message to the page.
    ///   - close: Closes the socket when a newer one replaces it.
    /// - Returns: The connection, or why the socket was refused.
    @MainActor
    static func attach(
      hello text: String, id: String, resync: Bool, client: WebClient, address: String?,
      registry: WebSessionRegistry, logger: Logger, send: @escaping (String) -> Void,
      close: @escaping @Sendable () -> Void
    ) async -> Attachment {
      // A hello may rebuild the session and render its page in full: a turn of its address's.
      let turns = SessionTurns.shared
      let turn = await turns.turn(for: address, waitingForShare: false)
      defer { turns.end(turn) }
      var resync = resync
      guard case .hello(let secret, let token, let shown)? = try? ClientMessage(decoding: text)
      else {
        logger.notice("session socket refused: its first message was no hello")
        return .refused(code: 4403, reason: "no proof of the session")
      }
      if let token, registry.readsResumeTokens {
        switch await registry.resume(id, token: token, client: client, address: address) {
        case .held: break
        case .rebuilt: resync = true  // the page shows what another server last sent
        case .superseded:
          // The page is behind the session (or replays an old token): it is redrawn with
          // what the session shows, once its secret is checked below.
          logger.notice("session resume: a token older than the session; not rolled back")
          resync = true
        case .refused(let refusal):
          logger.notice("session resume refused: \(refusal)")
          return .refused(
            code: TetherWebServer.closeCode(for: refusal), reason: refusal.description)
        }
      }
      guard registry.contains(id) else { return .refused(code: 4404, reason: "no such session") }
      guard registry.claims(id, secret: secret, client: client) else {
        logger.notice("session socket refused: not the session's secret")
        return .refused(code: 4403, reason: "not this session's page")
      }
      guard
        let connection = registry.attach(
          id, resync: resync, shown: shown, send: send, close: close)
      else { return .refused(code: 4404, reason: "no such session") }
      return .attached(connection)
    }

    /// Hands the inbox's messages to the session, each no earlier than its rate allows and
    /// when its turn on the main actor comes (``SessionTurns``: its address's share, one
    /// message on the floor), until none is left; a message admitted later starts another such
    /// task. Every other session's work (a page load, a click) waits for one message at most.
    /// Once the socket has ended, only its numbered gestures are still handled
    /// (``WebInbox/keeps(_:)``), and only while its address has some of its share left.
    static func handle(
      _ inbox: WebInbox, registry: WebSessionRegistry, id: String, connection: Int,
      address: String?, refusals: RefusalLog
    ) {
      Task { @MainActor in
        let turns = SessionTurns.shared
        var handledOne = false
        while let batch = inbox.next() {
          for entry in batch where inbox.keeps(entry) {
            // A person's last gestures before the tab closed are handled; a flood's leftovers,
            // once its address has spent its share, are no one's.
            if inbox.socketHasEnded, turns.wait(for: address) > .zero { continue }
            // Other sessions' work goes between two messages of this one. Only between: a
            // yield hops to the global executor and back (two threads woken), which a lone
            // click, the common case at a person's pace, does not need.
            if handledOne { await Task.yield() }
            handledOne = true
            if entry.notBefore > .now { try? await Task.sleep(until: entry.notBefore) }
            let turn = await turns.turn(for: address)
            if let error = await registry.receive(id, connection: connection, entry.envelope) {
              refusals.refused(error.description)
            }
            turns.end(turn)
          }
        }
      }
    }
  }
#endif
