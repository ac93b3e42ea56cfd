#if WebServer
  import Hummingbird
  import HummingbirdCore
  import Foundation
  import Logging
  import NIOCore
  import NIOHTTP1
  import NIOHTTPTypes
  import Synchronization
  import TetherWeb

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// Closes a connection, answered `408`, unless its first request head is parsed within the
  /// timeout: ``RequestHeadCheck`` removes it then, and it costs nothing more. A blank line is
  /// not enough: a head that does not parse is answered `400` by that check, and one that never
  /// ends a valid head is cut here.
  final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    private var done = false
    private var received = false

    init(timeout: TimeAmount) {
      self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
      if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
      arm(context)
      context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      received = true
      context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
      done = true
      timer?.cancel()
      timer = nil
    }

    /// The server is shutting down. A connection that has sent nothing (a browser opens one
    /// ahead of a request it may never make) has nothing to finish: it is closed now. Until
    /// its first request's head, no HTTP handler is there to close it, and the shutdown would
    /// wait for the header deadline.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
      if event is ChannelShouldQuiesceEvent, !done, !received {
        done = true
        timer?.cancel()
        timer = nil
        context.close(promise: nil)
        return
      }
      context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
      timer?.cancel()
      timer = nil
      context.fireChannelInactive()
    }

    private func arm(_ context: ChannelHandlerContext) {
      guard timer == nil, !done else { return }
      timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
        guard !done else { return }
        done = true
        let answer =
          "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        context.writeAndFlush(
          wrapOutboundOut(context.channel.allocator.buffer(string: answer)), promise: nil)
        context.close(promise: nil)
      }
    }
  }

  /// Checks a connection's first request head before anything acts on it, then leaves the
  /// pipeline (with the ``RequestHeadDeadline``: the head arrived in time):
  /// - a head that does not parse (a bad request line, a NUL in a field, both `Content-Length`
  ///   and `Transfer-Encoding`) is answered `400` and the connection closed;
  /// - an HTTP/1.1 head without `Host`, or any head with two, is answered `400` (HTTP/1.0
  ///   may omit it: a load balancer's health check does);
  /// - a WebSocket upgrade without exactly one well-formed `Sec-WebSocket-Key` is answered `400`,
  ///   and one of another version `426` naming version 13, instead of being dropped unanswered.
  /// Any other `Upgrade` (`h2c`, `TLS/1.0`) is not spoken here, and the request is served as
  /// plain HTTP/1.1 (RFC 9110 §7.8 lets a server ignore it).
  final class RequestHeadCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private var answered = false
    private var passed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard !answered else {
        // Until it leaves, what follows a passed head (its body) passes too; what follows a
        // refused one is dropped.
        if passed { context.fireChannelRead(data) }
        return
      }
      guard case .head(let head) = unwrapInboundIn(data) else {
        context.fireChannelRead(data)
        return
      }
      if let (status, extra) = Self.refusal(of: head) {
        answer(context, status: status, headers: extra)
        return
      }
      var data = data
      if !head.headers[canonicalForm: "upgrade"].isEmpty,
        !head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" })
      {
        // A protocol this server does not speak: the request is served as plain HTTP/1.1, as
        // if it had not asked (the upgrade handler would otherwise drop the head).
        var plain = head
        plain.headers.remove(name: "upgrade")
        data = wrapInboundOut(.head(plain))
      }
      // A valid head, in time: the deadline and this check are done (once the head is on its
      // way: a removed handler's context passes nothing on).
      answered = true
      passed = true
      context.fireChannelRead(data)
      let operations = context.pipeline.syncOperations
      if let deadline = try? operations.handler(type: RequestHeadDeadline.self) {
        operations.removeHandler(deadline, promise: nil)
      }
      operations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      if error is HTTPParserError, !answered {
        answer(context, status: .badRequest, headers: [])
        return
      }
      context.fireErrorCaught(error)
    }

    /// Why `head` is refused before it is routed, if it is: the status and any headers the
    /// answer carries.
    static func refusal(of head: HTTPRequestHead) -> (HTTPResponseStatus, [(String, String)])? {
      // HTTP/1.1 requires exactly one host (RFC 9112 §3.2); HTTP/1.0 may omit it (a load
      // balancer's health check does), but not repeat it.
      let hosts = head.headers["host"]
      let needsHost = head.version.major > 1 || head.version.minor >= 1
      guard hosts.count <= 1, !needsHost || hosts.first.map({ !$0.isEmpty }) == true else {
        return (.badRequest, [])
      }
      let upgrades = head.headers[canonicalForm: "upgrade"]
      guard upgrades.contains(where: { $0.lowercased() == "websocket" }) else { return nil }
      let keys = head.headers["sec-websocket-key"]
      let versions = head.headers[canonicalForm: "sec-websocket-version"]
      guard versions.count == 1, versions.first == "13" else {
        return (.upgradeRequired, [("Sec-WebSocket-Version", "13")])
      }
      // The key is 16 bytes in base64: 24 characters, the last two `==`.
      guard keys.count == 1, let key = keys.first, key.utf8.count == 24, key.hasSuffix("==")
      else { return (.badRequest, []) }
      return nil
    }

    private func answer(
      _ context: ChannelHandlerContext, status: HTTPResponseStatus,
      headers extra: [(String, String)]
    ) {
      answered = true
      var headers = HTTPHeaders([("Connection", "close"), ("Content-Length", "0")])
      for (name, value) in extra { headers.add(name: name, value: value) }
      context.write(
        wrapOutboundOut(
          .head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
        promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
        context.close(promise: nil)
      }
    }
  }

  /// Answers `503` with `Retry-After` at once, reads and drops what the client sends, and
  /// closes: a connection beyond the limits.
  final class RefusedConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private var answered = false

    func handlerAdded(context: ChannelHandlerContext) {
      if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
      refuse(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(_ context: ChannelHandlerContext) {
      guard !answered else { return }
      answered = true
      let body = "This server is busy; try again in a few seconds."
      let answer =
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\n"
        + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        + body
      context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer)))
        .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
  }
#endif
