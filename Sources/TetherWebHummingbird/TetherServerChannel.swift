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
          maxFrameSize: TetherWebServer.maximumFrameSize,
          shouldUpgrade: { channel, head in
            attempted.value = true
            return channel.eventLoop.makeSucceededFuture(
              sockets.accepts(head) ? HTTPHeaders() : nil)
          },
          upgradePipelineHandler: { channel, head in
            channel.eventLoop.makeCompletedFuture {
              let request = sockets.request(head, peer: channel.remoteAddress?.ipAddress)
              // Fragments are joined by the socket's core, which checks them as they come.
              try channel.pipeline.syncOperations.addHandler(
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
        let operations = channel.pipeline.syncOperations
        let negotiated = try operations.configureUpgradableHTTPServerPipeline(
          configuration: configuration)
        // The first head is checked before the upgrade handler acts on it: one that does not
        // parse, has no host or asks for a socket it does not describe is answered, not
        // dropped, and the header deadline runs until a valid head has come.
        let upgradeHandler = try operations.handler(
          type: NIOTypedHTTPServerUpgradeHandler<Negotiated>.self)
        try operations.addHandler(RequestHeadCheck(), position: .before(upgradeHandler))
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
#endif
