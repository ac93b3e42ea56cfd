#if WebServer
  import Hummingbird
  import Logging
  import NIOCore
  import NIOEmbedded
  import Synchronization

  /// Sends requests straight to a router's responder, in process: no socket, no server.
  ///
  /// The suite checks what Tether's routes answer inside an app's own router (its context,
  /// middleware and prefix), which needs nothing of a server. Built on Hummingbird's public
  /// responder API, so the suite needs no test framework (and none of the TLS and HTTP/2
  /// clients such a framework brings to the build).
  struct RouterClient {
    struct Answer {
      let status: HTTPResponse.Status
      let headers: HTTPFields
      let body: ByteBuffer
    }

    private let responder: RouterResponder<AppRequestContext>

    init(_ router: Router<AppRequestContext>) {
      responder = router.buildResponder()
    }

    /// One request, named `localhost` as a browser on loopback names it, with an empty body.
    func execute(
      uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:]
    ) async throws -> Answer {
      let request = Request(
        head: HTTPRequest(
          method: method, scheme: "http", authority: "localhost", path: uri,
          headerFields: headers),
        body: RequestBody(buffer: ByteBuffer()))
      let context = AppRequestContext(
        source: ApplicationRequestContextSource(
          channel: EmbeddedChannel(), logger: Logger(label: "router-client")))
      let response: Response
      do {
        response = try await responder.respond(to: request, context: context)
      } catch let error as any HTTPResponseError {
        response = try error.response(from: request, context: context)
      }
      let sink = BodySink()
      try await response.body.write(BodySink.Writer(sink: sink))
      return Answer(status: response.status, headers: response.headers, body: sink.bytes)
    }
  }

  /// Where a response's body is collected: the writer is consumed by the body, the sink kept.
  private final class BodySink: Sendable {
    private let collected = Mutex(ByteBuffer())

    var bytes: ByteBuffer { collected.withLock { $0 } }

    struct Writer: ResponseBodyWriter {
      let sink: BodySink

      mutating func write(_ buffer: ByteBuffer) async throws {
        sink.collected.withLock { bytes in
          var buffer = buffer
          bytes.writeBuffer(&buffer)
        }
      }

      consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
  }
#endif
