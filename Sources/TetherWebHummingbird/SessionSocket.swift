#if WebServer
  import HTTPTypes
  import Hummingbird
  import HummingbirdCore
  import Logging
  import NIOCore
  import NIOHTTP1
  import NIOHTTPTypes
  import NIOHTTPTypesHTTP1
  import NIOWebSocket
  import TetherWeb

  /// One page's socket, on its channel's event loop: checks the page's hello, attaches the
  /// socket to its session, hands what the page sends to the session's inbox and writes what
  /// the session   /// One page's socket, on its channel's event loop: a driver of its ``SocketCore``, which
  /// holds every rule (framing, UTF-8, the budget, the hello's and the ping's deadlines, the
  /// close handshake). The handler reads frames into the core and carries out what it says:
  /// the hello checked on the main actor, messages into the session's inbox, pongs, pings and
  /// closes written, the connection ended. One timer per socket, armed for the core's next
  /// deadline and moved only when that changes.
  ///
  /// Its only hops are the ones the work needs: one to the main actor for the hello's checks,
  /// one per burst of inbound messages (the inbox's handler task, which ends when the inbox is
  /// empty) and one per burst of outbound ones back to the event loop. An idle socket holds
  /// this handler, its core and queues and one timer, no task.
  ///
  /// Backpressure both ways: the socket is read no further ahead of its session than the
  /// inbox allows (reads wait while it is full, or while the page sends far past its rate);
  /// the session's messages wait while the connection cannot take more (SwiftNIO's
  /// writability), and a page that falls behind — `SendQueue`'s count or bytes — is closed with
  /// ``TetherWebServer/fellBehindCloseCode``.
  final class SessionSocketHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private struct Attachment {
      let connection: Int
      let queue: SendQueue
      let inbox: WebInbox
      let refusals: RefusalLog
      /// Where the session's upload chunks go.
      let uploads: WebUploadReceiver?
    }

    private let request: SessionSocketRequest
    private let settings: SessionSocketSettings
    private var core: SocketCore
    private var attachment: Attachment?
    private var context: ChannelHandlerContext?
    /// The core's next deadline, and the timer armed for it.
    private var timer: Scheduled<Void>?
    private var timerDeadline: ContinuousClock.Instant?
    /// The pause of a socket far past its message rate.
    private var resumeTimer: Scheduled<Void>?
    private var refresher: Scheduled<Void>?
    /// Messages read while the hello is checked or while reading waits for the inbox: one
    /// read's worth at most (reading stops, but a read already made is decoded whole).
    private var held: [String] = []
    private var readsPaused = false
    private var readPending = false
    /// Whether a task waits for room in the inbox (reads resume when it has some).
    private var waitingForRoom = false
    /// Messages taken from the send queue that wait for the connection to take more.
    private var unwritten: ArraySlice<String> = []
    private var ended = false

    init(request: SessionSocketRequest, settings: SessionSocketSettings) {
      self.request = request
      self.settings = settings
      core = SocketCore(limits: settings.socketLimits, at: .now)
    }

    // MARK: - Channel events

    func handlerAdded(context: ChannelHandlerContext) {
      self.context = context
      rearm()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      let frame = unwrapInboundIn(data)
      let reserved: UInt8 = (frame.rsv1 ? 4 : 0) | (frame.rsv2 ? 2 : 0) | (frame.rsv3 ? 1 : 0)
      let payload = frame.unmaskedData
      perform(
        core.received(
          SocketCore.Frame(
            fin: frame.fin, reservedBits: reserved, opcode: UInt8(webSocketOpcode: frame.opcode),
            masked: frame.maskKey != nil, payload: Array(payload.readableBytesView)),
          at: .now))
    }

    func read(context: ChannelHandlerContext) {
      if readsPaused {
        readPending = true
      } else {
        context.read()
      }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
      let writable = context.channel.isWritable
      perform(core.writabilityChanged(writable))
      if writable, let attachment, !unwritten.isEmpty {
        write(from: attachment.queue)
      }
      context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
      if case ChannelEvent.inputClosed? = event as? ChannelEvent {
        // The page's side ended without a close (the server keeps half-closed connections
        // open for HTTP): nothing more can come, so the socket ends.
        perform(core.peerEnded())
        return
      }
      if event is ChannelShouldQuiesceEvent {
        // The server is stopping: the page reconnects (to another node, or once this one is
        // back) and its session is rebuilt from its token.
        perform(
          core.close(
            code: SocketCore.CloseCode.goingAway, reason: "the server is stopping", at: .now,
            flushTimeout: .seconds(2), answerTimeout: .seconds(1)))
        return
      }
      context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      // The frame decoder's own errors (a frame over the size limit, a control frame over 125
      // bytes or in fragments) are answered by NIO's protocol error handler before here.
      settings.logger.notice(
        "session socket ended: \(WebLogText.escaped("\(error)", limit: 200))")
      perform(core.peerEnded())
    }

    func channelInactive(context: ChannelHandlerContext) {
      end()
      context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
      end()
      self.context = nil
    }

    // MARK: - The core's actions

    private func perform(_ actions: [SocketCore.Action]) {
      for action in actions {
        switch action {
        case .checkHello(let text):
          pauseReads()
          checkHello(text)
        case .deliver(let text):
          if let attachment, !readsPaused {
            admit(text, to: attachment)
          } else {
            held.append(text)
          }
        case .deliverChunk(let chunk):
          // Written where it is read, in order: the socket is read no faster than its chunks
          // are stored (a chunk is at most 16 KiB, a write to the page cache).
          switch attachment?.uploads?.write(chunk) ?? .refused("no session") {
          case .written, .dropped: break
          case .refused(let reason):
            attachment?.refusals.refused("upload: \(reason)")
            perform(core.refused(bytes: chunk.count, at: .now))
          }
        case .writePong(let payload):
          writeControl(.pong, payload)
        case .writePing:
          writeControl(.ping, [])
        case .writeClose(let code, let reason):
          writeClose(code: code, reason: reason)
        case .stopSending:
          attachment?.queue.close()
          if core.closedHere { attachment?.inbox.close() }
          unwritten = []
          held = []
          // Read on, whatever paused reading: the page's close, or its end, ends the
          // connection.
          readsPaused = false
          if readPending, let context {
            readPending = false
            context.read()
          }
        case .stopReading:
          held = []
          readsPaused = true
        case .closeConnection:
          context?.close(promise: nil)
        }
      }
      rearm()
    }

    private func writeControl(_ opcode: WebSocketOpcode, _ payload: [UInt8]) {
      guard let context else { return }
      var data = context.channel.allocator.buffer(capacity: payload.count)
      data.writeBytes(payload)
      context.writeAndFlush(
        wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
    }

    private func writeClose(code: UInt16?, reason: String) {
      guard let context else { return }
      var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
      if let code {
        data.writeInteger(code)
        data.writeString(reason)
      }
      context.writeAndFlush(
        wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
      ).assumeIsolated().whenComplete { [self] result in
        if case .failure = result {
          perform(core.peerEnded())
        } else {
          perform(core.closeWritten(at: .now))
        }
      }
    }

    /// Arms the one timer for the core's next deadline, if that moved.
    private func rearm() {
      guard let context, !ended else { return }
      let deadline = core.nextDeadline
      guard deadline != timerDeadline else { return }
      timer?.cancel()
      timer = nil
      timerDeadline = deadline
      guard let deadline else { return }
      let delay = max(.zero, deadline - .now)
      timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { [self] in
        timer = nil
        timerDeadline = nil
        perform(core.deadlineReached(at: .now))
      }
    }

    // MARK: - Reading

    private func admit(_ text: String, to attachment: Attachment) {
      switch attachment.inbox.admit(text) {
      case .startHandler:
        SocketSession.handle(
          attachment.inbox, registry: settings.registry, id: request.id,
          connection: attachment.connection, address: request.address,
          refusals: attachment.refusals)
      case .queued:
        break
      case .refused(let error):
        attachment.refusals.refused(error?.description ?? "the socket is closing")
        // Text that is not a message is waste: it costs the socket's budget.
        perform(core.refused(bytes: text.utf8.count, at: .now))
        return
      }
      if attachment.inbox.isFull {
        // Reading waits for the session: a task only while the inbox is full (one at a time:
        // the inbox has room for one waiter).
        pauseReads()
        guard !waitingForRoom, let context else { return }
        waitingForRoom = true
        let inbox = attachment.inbox
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        Task {
          await inbox.waitForRoom()
          handler.execute { handler in
            handler.waitingForRoom = false
            handler.resumeReads()
          }
        }
        return
      }
      // A socket far past its rate is read no faster than it: its flood stays in its own
      // connection instead of costing the server a read and a decode per message.
      let pause = attachment.inbox.pauseBeforeReading()
      if pause > .zero, let context {
        pauseReads()
        resumeTimer?.cancel()
        resumeTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(pause)) {
          [self] in
          resumeTimer = nil
          resumeReads()
        }
      }
    }

    private func pauseReads() {
      readsPaused = true
    }

    /// Admits what was held back, then reads on (unless that fills the inbox again).
    private func resumeReads() {
      guard let attachment, core.phase == .open, !waitingForRoom else { return }
      readsPaused = false
      while !readsPaused, !held.isEmpty, core.phase == .open {
        admit(held.removeFirst(), to: attachment)
      }
      if !readsPaused, readPending, let context {
        readPending = false
        context.read()
      }
    }

    // MARK: - The hello

    /// Checks the page's hello on the main actor and attaches the socket to its session.
    private func checkHello(_ text: String) {
      guard let context else { return }
      let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
      let channel = context.channel
      let queue = SendQueue()
      let request = request
      let settings = settings
      Task { @MainActor in
        let replaced = WebSessionRegistry.replacedCloseCode
        let outcome = await SocketSession.attach(
          hello: text, id: request.id, resync: request.resync, client: request.client,
          address: request.address, registry: settings.registry, logger: settings.logger,
          send: { text in
            switch queue.admit(text) {
            case .startWriter:
              handler.execute { $0.write(from: queue) }
            case .queued, .closed:
              break
            case .overflowed:
              handler.execute {
                $0.closeFromServer(
                  code: TetherWebServer.fellBehindCloseCode,
                  reason: "fell behind: reconnect for a full redraw")
              }
            }
          },
          close: {
            // One socket per session: a newer one of the same page (its secret) took over.
            handler.execute {
              $0.closeFromServer(code: replaced, reason: "replaced by a newer socket")
            }
          })
        let uploads = settings.registry.session(request.id)?.uploadReceiver
        channel.eventLoop.execute {
          handler.value.checked(outcome, queue: queue, uploads: uploads)
        }
      }
    }

    private func closeFromServer(code: UInt16, reason: String) {
      perform(core.close(code: code, reason: reason, at: .now))
    }

    private func checked(
      _ outcome: SocketSession.Attachment, queue: SendQueue, uploads: WebUploadReceiver?
    ) {
      switch outcome {
      case .refused(let code, let reason):
        closeFromServer(code: code, reason: reason)
      case .attached(let connection):
        guard core.phase == .checking, !ended else {
          // The socket ended while its hello was checked: the session waits for the next.
          queue.close()
          let registry = settings.registry
          let id = request.id
          Task { @MainActor in registry.detach(id, connection: connection) }
          return
        }
        attachment = Attachment(
          connection: connection, queue: queue,
          inbox: WebInbox(rate: settings.messageRate),
          refusals: RefusalLog(logger: settings.logger), uploads: uploads)
        perform(core.helloChecked(at: .now))
        armRefresh()
        resumeReads()
      }
    }

    // MARK: - Writing

    /// Writes what the session sent, in order, until nothing waits or the connection cannot
    /// take more (``channelWritabilityChanged(context:)`` goes on from there).
    private func write(from queue: SendQueue) {
      // The session sends its first render while the hello is still being checked.
      guard let context, core.phase == .open || core.phase == .checking else {
        queue.close()
        return
      }
      var wrote = false
      defer { if wrote { context.flush() } }
      while true {
        if unwritten.isEmpty {
          guard let batch = queue.next() else {
            // An empty slice still holds its batch, and the messages in it: an idle socket
            // would keep its last messages (the whole first render) for as long as it is open.
            unwritten = []
            return
          }
          unwritten = batch[...]
        }
        while let message = unwritten.first {
          guard context.channel.isWritable else { return }
          unwritten.removeFirst()
          let buffer = context.channel.allocator.buffer(string: message)
          context.write(
            wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: buffer)),
            promise: nil)
          wrote = true
          guard queue.written(bytes: buffer.readableBytes) else {
            unwritten = []
            return
          }
        }
      }
    }

    // MARK: - Timers and the end

    /// A page that stays on one screen is sent a fresh resume token in time: its newest one
    /// must still be accepted wherever it reconnects.
    private func armRefresh() {
      guard let lifetime = settings.registry.resumeSigner?.maximumAge, let attachment,
        let context, !ended
      else { return }
      let registry = settings.registry
      let id = request.id
      let connection = attachment.connection
      refresher = context.eventLoop.assumeIsolated().scheduleTask(
        in: TimeAmount(lifetime / 3)
      ) { [self] in
        Task { @MainActor in registry.refreshResumeToken(id, connection: connection) }
        armRefresh()
      }
    }

    /// The connection is gone: what the page sent before is still its own (handled, then
    /// counted), and only then is the session detached.
    private func end() {
      guard !ended else { return }
      ended = true
      _ = core.peerEnded()
      timer?.cancel()
      timer = nil
      resumeTimer?.cancel()
      resumeTimer = nil
      refresher?.cancel()
      refresher = nil
      held = []
      unwritten = []
      guard let attachment else { return }
      self.attachment = nil
      attachment.queue.close()
      let registry = settings.registry
      let id = request.id
      attachment.inbox.socketEnded()
      Task { @MainActor in
        await attachment.inbox.drained()
        attachment.refusals.finish()
        registry.detach(id, connection: attachment.connection)
      }
    }
  }

  extension NIOLoopBound where Value == SessionSocketHandler {
    /// Runs `body` with the handler on its event loop.
    fileprivate func execute(_ body: @escaping @Sendable (SessionSocketHandler) -> Void) {
      let bound = self
      eventLoop.execute { body(bound.value) }
    }
  }
#endif
