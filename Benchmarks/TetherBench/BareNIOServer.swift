import HeapStatistics
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

// The floor under W6 and W7: a WebSocket server in SwiftNIO alone, with no framework. NIOHTTP1
// and NIOWebSocket's upgrader on the event loop; each text message answered with 31 B, either
// on the event loop itself or after one hop to the main actor and back (what any server whose
// sessions live on the main actor pays at least). It also answers the two routes the
// measurements read: `/bench/heap` (the heap in use) and `/page` (1,000 B, like a page).

/// Runs the bare SwiftNIO server on a free loopback port until the process is killed; calls
/// `announce` with the port once it listens.
///
/// - Parameters:
///   - hop: Whether each message goes to the main actor and back before its answer.
///   - announce: Told the port.
/// - Throws: When the server cannot bind or its channel fails.
func serveBareNIO(hop: Bool, announce: @escaping @Sendable (Int) -> Void) async throws {
  let upgrader = NIOWebSocketServerUpgrader(
    maxFrameSize: 4_096, automaticErrorHandling: true,
    shouldUpgrade: { channel, head in
      channel.eventLoop.makeSucceededFuture(head.uri == "/ws" ? HTTPHeaders() : nil)
    },
    upgradePipelineHandler: { channel, _ in
      channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.addHandler(SocketAnswer(hop: hop))
      }
    })
  let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(.backlog, value: 512)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
      channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
          withServerUpgrade: (
            upgraders: [upgrader],
            completionHandler: { context in
              // After the upgrade, frames go past no HTTP handler.
              context.pipeline.syncOperations.removeHandler(name: "http", promise: nil)
            }
          ))
        try channel.pipeline.syncOperations.addHandler(RouteAnswer(), name: "http")
      }
    }
  let server = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
  announce(server.localAddress?.port ?? 0)
  try await server.closeFuture.get()
}

/// `/bench/heap` and `/page`; anything else is a 404. Closes the connection after a request
/// that asks it to.
private final class RouteAnswer: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private static let page = String(repeating: "x", count: 1_000)
  private var head: HTTPRequestHead?

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): self.head = head
    case .body: break
    case .end:
      guard let head else { return }
      self.head = nil
      let body =
        switch head.uri {
        case "/bench/heap": "\(heap_statistics_bytes_in_use())"
        case "/page": Self.page
        default: ""
        }
      var headers = HTTPHeaders()
      headers.add(name: "content-length", value: "\(body.utf8.count)")
      let response = HTTPResponseHead(
        version: head.version, status: body.isEmpty ? .notFound : .ok, headers: headers)
      context.write(wrapOutboundOut(.head(response)), promise: nil)
      context.write(
        wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))),
        promise: nil)
      let keepAlive = head.isKeepAlive
      let channel = context.channel
      context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
        if !keepAlive { channel.close(promise: nil) }
      }
    }
  }
}

/// Answers each text message with 31 B, on the event loop or after a hop to the main actor;
/// a ping with its pong; a close with a close.
private final class SocketAnswer: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  private let hop: Bool
  private var reply: ByteBuffer?

  init(hop: Bool) {
    self.hop = hop
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .text:
      let reply =
        self.reply ?? context.channel.allocator.buffer(string: String(repeating: "x", count: 31))
      self.reply = reply
      let answer = WebSocketFrame(fin: true, opcode: .text, data: reply)
      guard hop else {
        context.writeAndFlush(wrapOutboundOut(answer), promise: nil)
        return
      }
      let channel = context.channel
      Task { @MainActor in
        // Where a session on the main actor would handle the message.
        channel.writeAndFlush(answer, promise: nil)
      }
    case .ping:
      let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
      context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
    case .connectionClose:
      let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)
      let channel = context.channel
      context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in
        channel.close(promise: nil)
      }
    default:
      break
    }
  }
}
