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

  /// What a page's socket needs to know of the server: the sessions, who may connect, how fast
  /// a page may send, and how often an idle socket is pinged.
  struct SessionSocketSettings: Sendable {
    /// The path the socket is opened at.
    static let path = "/ws"

    let registry: WebSessionRegistry
    let allowedHosts: WebHostAllowlist
    let trustedProxies: Set<String>
    let messageRate: WebMessageRate?
    /// How long a socket may be silent before it is pinged; a socket that has not answered
    /// (or sent anything) by the next ping is closed.
    let pingInterval: TimeAmount
    let logger: Logger

    /// Whether `head` opens a page's socket that may connect: the socket's path, a host this
    /// server answers to, and an `Origin` of that host (a page elsewhere cannot drive a
    /// session, nor one whose name was pointed at this machine).
    func accepts(_ head: HTTPRequestHead) -> Bool {
      let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
      let host = head.headers.first(name: "host")
      return path == Self.path
        && TetherWebServer.isSameOrigin(origin: head.headers.first(name: "origin"), host: host)
        && allowedHosts.allows(host)
    }

    /// The session, browser and address the socket's request names.
    func request(_ head: HTTPRequestHead, peer: String?) -> SessionSocketRequest {
      let query = URI(head.uri).queryParameters
      let cookie = head.headers["cookie"]
      let secure = TetherWebServer.isSecure(
        peer: peer, forwardedProto: head.headers["x-forwarded-proto"],
        trustedProxies: trustedProxies)
      return SessionSocketRequest(
        id: query["session"].map(String.init) ?? "",
        resync: query["resync"] != nil,
        client: registry.clientCookies.client(
          inCookieHeader: cookie.isEmpty ? nil : cookie.joined(separator: "; "), secure: secure)
          ?? WebClient(),
        address: WebConnectionLimits.clientAddress(
          peer: peer, forwardedFor: head.headers["x-forwarded-for"],
          trustedProxies: trustedProxies))
    }
  }

  /// The session a socket asks for, and who asks.
  struct SessionSocketRequest: Sendable {
    let id: String
    /// Whether the page may be older than the session's last render.
    let resync: Bool
    /// The browser, as the upgrade request's cookie names it.
    let client: WebClient
    /// The browser's address (a trusted proxy's `X-Forwarded-For`, else the peer's).
    let address: String?
  }

  /// The server's connections: HTTP/1.1 answered by Hummingbird's responder (pages, assets,
  /// `/health`, the app's routes), and a page's socket, upgraded and then served on the event
  /// loop by a ``SessionSocketHandler``. A socket holds no task: its connection's task ends at
  /// the upgrade.
  struct TetherServerChannel: ServerChildChannel, HTTPChannelHandler {
    enum Negotiated: Sendable {
      case socket
      case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
      /// A request to upgrade that was refused: answered 403 and closed, never routed.
      case refusedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
      let negotiated: EventLoopFuture<Negotiated>
      let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let http1: HTTP1Channel.Configuration
    let sockets: SessionSocketSettings

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
      channel.eventLoop.makeCompletedFuture {
        let sockets = self.sockets
        let http1 = self.http1
        let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
        let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
          maxFrameSize: TetherWebServer.maximumMessageSize,
          shouldUpgrade: { channel, head in
            attempted.value = true
            return channel.eventLoop.makeSucceededFuture(
              sockets.accepts(head) ? HTTPHeaders() : nil)
          },
          upgradePipelineHandler: { channel, head in
            channel.eventLoop.makeCompletedFuture {
              let request = sockets.request(head, peer: channel.remoteAddress?.ipAddress)
              try channel.pipeline.syncOperations.addHandlers(
                // A message may come in fragments: together no larger than one frame may be.
                NIOWebSocketFrameAggregator(
                  minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 64,
                  maxAccumulatedFrameSize: TetherWebServer.maximumMessageSize),
                SessionSocketHandler(request: request, settings: sockets))
              return .socket
            }
          })
        let negotiation = NIOTypedHTTPServerUpgradeConfiguration<Negotiated>(
          upgraders: [upgrader],
          notUpgradingCompletionHandler: { channel in
            channel.eventLoop.makeCompletedFuture {
              let operations = channel.pipeline.syncOperations
              try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
              try operations.addHandlers(http1.additionalChannelHandlers())
              try operations.addHandler(
                HTTPConnectionStateHandler(
                  idleTimeout: http1.idleTimeout.map { .nanoseconds($0.nanoseconds) },
                  logger: logger))
              let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                wrappingChannelSynchronously: channel,
                configuration: .init(isOutboundHalfClosureEnabled: true))
              return attempted.value ? .refusedUpgrade(http) : .http(http)
            }
          })
        var configuration = NIOUpgradableHTTPServerPipelineConfiguration(
          upgradeConfiguration: negotiation)
        // As Hummingbird's own HTTP/1.1 channel: it pipelines, answers errors and validates
        // response headers itself.
        configuration.enablePipelining = false
        configuration.enableErrorHandling = false
        configuration.enableResponseHeaderValidation = false
        configuration.decoderConfiguration.maxHeaderFieldSize = http1.httpDecoder.maxHeaderFieldSize
        configuration.decoderConfiguration.maxHeaderListSize = http1.httpDecoder.maxHeaderListSize
        configuration.decoderConfiguration.maxHeaderFieldCount =
          http1.httpDecoder.maxHeaderFieldCount
        let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
          configuration: configuration)
        return Value(negotiated: negotiated, channel: channel)
      }
    }

    func handle(value: Value, logger: Logger) async {
      do {
        switch try await value.negotiated.get() {
        case .socket:
          // The socket's handler serves it on the event loop from here.
          return
        case .http(let http):
          await handleHTTP(asyncChannel: http, logger: logger)
        case .refusedUpgrade(let http):
          // Another origin, another host, another path: this server upgrades only its pages'
          // sockets, and the app's own routes are HTTP.
          var fields = TetherWebServer.securityHeaders
          fields[.connection] = "close"
          fields[.contentLength] = "0"
          let head = HTTPResponse(status: .forbidden, headerFields: fields)
          try await http.executeThenClose { _, outbound in
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
          }
        }
      } catch {
        logger.debug("connection ended before its first request: \(error)")
      }
    }
  }

  /// One page's socket, on its channel's event loop: checks the page's hello, attaches the
  /// socket to its session, hands what the page sends to the session's inbox and writes what
  /// the session sends, in order and numbered.
  ///
  /// Its only hops are the ones the work needs: one to the main actor for the hello's checks,
  /// one per burst of inbound messages (the inbox's handler task, which ends when the inbox is
  /// empty) and one per burst of outbound ones back to the event loop. An idle socket holds
  /// this handler, its queues and one timer (the ping), no task.
  ///
  /// Backpressure both ways: the socket is read no further ahead of its session than the
  /// inbox allows (reads wait while it is full, or while the page sends far past its rate);
  /// the session's messages wait while the connection cannot take more (SwiftNIO's
  /// writability), and a page that falls ``SendQueue/limit`` messages behind is closed with
  /// ``TetherWebServer/fellBehindCloseCode``.
  final class SessionSocketHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long a close may wait behind what the page has not read before the connection is
    /// cut.
    static let closeTimeout: TimeAmount = .seconds(15)
    /// How long a page has to answer a close that reached it.
    static let answerTimeout: TimeAmount = .seconds(3)
    /// How long a socket may take to send its hello.
    static let helloTimeout: TimeAmount = .seconds(5)

    private struct Attachment {
      let connection: Int
      let queue: SendQueue
      let inbox: WebInbox
      let refusals: RefusalLog
    }

    private enum Phase {
      /// The page has not said hello yet.
      case waitingForHello
      /// Its hello is being checked on the main actor.
      case checking
      case attached(Attachment)
      /// The connection is gone (a close on its way is ``closeSent``).
      case ended
    }

    private let request: SessionSocketRequest
    private let settings: SessionSocketSettings
    private var phase = Phase.waitingForHello
    private var context: ChannelHandlerContext?
    /// The hello's deadline, then the ping's, then the close's.
    private var timer: Scheduled<Void>?
    private var refresher: Scheduled<Void>?
    /// Whether the page sent anything in the current ping interval, and whether it was pinged
    /// in the one before.
    private var heardSincePing = true
    private var pinged = false
    private var closeSent = false
    /// Messages read while the hello is checked or while reading waits for the inbox: one
    /// read's worth at most (reading stops, but a read already made is decoded whole).
    private var held: [String] = []
    private var readsPaused = false
    private var readPending = false
    /// Whether a task waits for room in the inbox (reads resume when it has some).
    private var waitingForRoom = false
    /// Messages taken from the send queue that wait for the connection to take more.
    private var unwritten: ArraySlice<String> = []

    init(request: SessionSocketRequest, settings: SessionSocketSettings) {
      self.request = request
      self.settings = settings
    }

    // MARK: - Channel events

    func handlerAdded(context: ChannelHandlerContext) {
      self.context = context
      arm(Self.helloTimeout) { handler in
        handler.settings.logger.notice("session socket refused: it sent no hello in time")
        handler.close(code: 4403, reason: "no proof of the session")
      }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      let frame = unwrapInboundIn(data)
      heardSincePing = true
      switch frame.opcode {
      case .text:
        var payload = frame.unmaskedData
        received(payload.readString(length: payload.readableBytes) ?? "")
      case .binary:
        switch phase {
        case .waitingForHello:
          settings.logger.notice("session socket refused: its first message was no hello")
          close(code: 4403, reason: "no proof of the session")
        case .attached(let attachment):
          attachment.refusals.refused("a binary message")
        case .checking, .ended:
          break
        }
      case .ping:
        guard !closeSent else { return }
        context.writeAndFlush(
          wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)),
          promise: nil)
      case .connectionClose:
        // The page closes: answer with its code (if it gave one and this side has not
        // closed yet), then end the connection.
        guard !closeSent else {
          context.close(promise: nil)
          return
        }
        closeSent = true
        var code = frame.unmaskedData
        let echo = code.readSlice(length: min(2, code.readableBytes)) ?? ByteBuffer()
        context.writeAndFlush(
          wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: echo))
        ).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
      default:
        break
      }
    }

    func read(context: ChannelHandlerContext) {
      if readsPaused {
        readPending = true
      } else {
        context.read()
      }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
      if context.channel.isWritable, case .attached(let attachment) = phase, !unwritten.isEmpty {
        write(from: attachment.queue)
      }
      context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
      if case ChannelEvent.inputClosed? = event as? ChannelEvent {
        // The page's side ended without a close (the server keeps half-closed connections
        // open for HTTP): nothing more can come, so the socket ends.
        context.close(promise: nil)
        return
      }
      if event is ChannelShouldQuiesceEvent {
        // The server is stopping: the page reconnects (to another node, or once this one is
        // back) and its session is rebuilt from its token.
        close(
          code: 1001, reason: "the server is stopping", flushWait: .seconds(2),
          answerWait: .seconds(1))
        return
      }
      context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      // A fragmented message past the size limit (the frame decoder's own errors are answered
      // by NIO's protocol error handler before they reach here).
      if error is NIOWebSocketFrameAggregator.Error {
        close(code: 1009, reason: "message too large")
        return
      }
      settings.logger.notice(
        "session socket ended: \(WebLogText.escaped("\(error)", limit: 200))")
      context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
      end()
      context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
      end()
      self.context = nil
    }

    // MARK: - Reading

    private func received(_ text: String) {
      if closeSent { return }
      switch phase {
      case .waitingForHello:
        timer?.cancel()
        timer = nil
        phase = .checking
        pauseReads()
        checkHello(text)
      case .checking:
        held.append(text)
      case .attached(let attachment):
        if readsPaused {
          held.append(text)
        } else {
          admit(text, to: attachment)
        }
      case .ended:
        break
      }
    }

    private func admit(_ text: String, to attachment: Attachment) {
      switch attachment.inbox.admit(text) {
      case .startHandler:
        SocketSession.handle(
          attachment.inbox, registry: settings.registry, id: request.id,
          connection: attachment.connection, refusals: attachment.refusals)
      case .queued:
        break
      case .refused(let error):
        attachment.refusals.refused(error?.description ?? "the socket is closing")
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
      if pause > .zero {
        pauseReads()
        arm(TimeAmount(pause), replacingTimer: false) {
          $0.resumeReads()
        }
      }
    }

    private func pauseReads() {
      readsPaused = true
    }

    /// Admits what was held back, then reads on (unless that fills the inbox again).
    private func resumeReads() {
      guard case .attached(let attachment) = phase, !waitingForRoom else { return }
      readsPaused = false
      while !readsPaused, !held.isEmpty {
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
                $0.close(
                  code: TetherWebServer.fellBehindCloseCode,
                  reason: "fell behind: reconnect for a full redraw")
              }
            }
          },
          close: {
            // One socket per session: a newer one of the same page (its secret) took over.
            handler.execute {
              $0.close(code: replaced, reason: "replaced by a newer socket")
            }
          })
        channel.eventLoop.execute {
          handler.value.checked(outcome, queue: queue)
        }
      }
    }

    private func checked(_ outcome: SocketSession.Attachment, queue: SendQueue) {
      switch outcome {
      case .refused(let code, let reason):
        close(code: code, reason: reason)
      case .attached(let connection):
        guard case .checking = phase, !closeSent else {
          // The socket ended while its hello was checked: the session waits for the next.
          queue.close()
          let registry = settings.registry
          let id = request.id
          Task { @MainActor in registry.detach(id, connection: connection) }
          return
        }
        let attachment = Attachment(
          connection: connection, queue: queue,
          inbox: WebInbox(rate: settings.messageRate),
          refusals: RefusalLog(logger: settings.logger))
        phase = .attached(attachment)
        armPing()
        armRefresh()
        resumeReads()
      }
    }

    // MARK: - Writing

    /// Writes what the session sent, in order, until nothing waits or the connection cannot
    /// take more (``channelWritabilityChanged(context:)`` goes on from there).
    private func write(from queue: SendQueue) {
      guard let context, !closeSent else {
        queue.close()
        return
      }
      var wrote = false
      defer { if wrote { context.flush() } }
      while true {
        if unwritten.isEmpty {
          guard let batch = queue.next() else { return }
          unwritten = batch[...]
        }
        while let message = unwritten.first {
          guard context.channel.isWritable else { return }
          unwritten.removeFirst()
          context.write(
            wrapOutboundOut(
              WebSocketFrame(
                fin: true, opcode: .text,
                data: context.channel.allocator.buffer(string: message))),
            promise: nil)
          wrote = true
          guard queue.written() else {
            unwritten = []
            return
          }
        }
      }
    }

    // MARK: - Timers and closing

    /// Runs `body` on the event loop after `delay`, as the socket's one timer unless
    /// `replacingTimer` is false.
    private func arm(
      _ delay: TimeAmount, replacingTimer: Bool = true,
      _ body: @escaping (SessionSocketHandler) -> Void
    ) {
      guard let context else { return }
      if case .ended = phase { return }
      let scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
        body(self)
      }
      if replacingTimer {
        timer?.cancel()
        timer = scheduled
      }
    }

    /// Pings the page after `pingInterval` of silence; a page that says nothing for another
    /// interval after the ping (not even its pong) is gone, and its socket is closed.
    private func armPing() {
      arm(settings.pingInterval) { handler in
        guard !handler.closeSent, let context = handler.context else { return }
        if handler.heardSincePing {
          handler.heardSincePing = false
          handler.pinged = false
        } else if handler.pinged {
          context.close(promise: nil)
          return
        } else {
          handler.pinged = true
          context.writeAndFlush(
            handler.wrapOutboundOut(
              WebSocketFrame(
                fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))),
            promise: nil)
        }
        handler.armPing()
      }
    }

    /// A page that stays on one screen is sent a fresh resume token in time: its newest one
    /// must still be accepted wherever it reconnects.
    private func armRefresh() {
      guard let lifetime = settings.registry.resumeSigner?.maximumAge,
        case .attached(let attachment) = phase, let context
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

    /// Sends a close with `code`, then ends the connection when the page answers it (its close,
    /// or its end), or `answerWait` after the close is on the wire, or `flushWait` after it was
    /// sent if a page that stopped reading never lets it through.
    ///
    /// Not at once once it is written: a page whose own messages are still unread when the
    /// connection ends is sent a reset, and a browser then reports 1006 instead of the code.
    private func close(
      code: UInt16, reason: String,
      flushWait: TimeAmount = SessionSocketHandler.closeTimeout,
      answerWait: TimeAmount = SessionSocketHandler.answerTimeout
    ) {
      guard let context, !closeSent else { return }
      closeSent = true
      if case .attached(let attachment) = phase { attachment.queue.close() }
      unwritten = []
      var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
      data.writeInteger(code)
      data.writeString(reason)
      arm(flushWait) { handler in handler.context?.close(promise: nil) }
      context.writeAndFlush(
        wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
      ).assumeIsolated().whenComplete { [self] _ in
        arm(answerWait) { handler in handler.context?.close(promise: nil) }
      }
      // Read on, whatever paused reading: the page's close, or its end, ends the connection.
      held = []
      readsPaused = false
      readPending = false
      context.read()
    }

    /// The connection is gone: what the page sent before is still its own (handled, then
    /// counted), and only then is the session detached.
    private func end() {
      timer?.cancel()
      timer = nil
      refresher?.cancel()
      refresher = nil
      let ended = phase
      phase = .ended
      held = []
      unwritten = []
      guard case .attached(let attachment) = ended else { return }
      attachment.queue.close()
      let registry = settings.registry
      let id = request.id
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
