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

  /// Refuses a request for a host the server does not answer to (421), and adds
  /// ``TetherWebServer/securityHeaders`` to every answer.
  struct SecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowedHosts: WebHostAllowlist

    func handle(
      _ request: Request, context: Context,
      next: (Request, Context) async throws -> Response
    ) async throws -> Response {
      var response: Response
      if allowedHosts.allows(request.head.authority) {
        do {
          response = try await next(request, context)
        } catch let error as any HTTPResponseError {
          // A route's error (no route for a path: 404) gets the headers too.
          response = try error.response(from: request, context: context)
        }
      } else {
        response = Response(
          status: .misdirectedRequest,
          headers: [.contentType: "text/plain; charset=utf-8"],
          body: ResponseBody(
            byteBuffer: ByteBuffer(string: "This server does not answer to that host name.\n")))
      }
      for field in TetherWebServer.securityHeaders { response.headers[field.name] = field.value }
      return response
    }
  }
#endif
