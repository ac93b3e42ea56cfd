import Hummingbird
import NIOCore

/// Applies a ``FaultInjection`` to every route of the group it is added to: the latency first,
/// then, at the fail rate, a failure instead of the route's answer.
struct FaultInjectionMiddleware<Context: RequestContext>: RouterMiddleware {
  let source: FaultSwitch

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let faults = source.current
    if faults.latency > .zero { try await Task.sleep(for: faults.latency) }
    var random = SystemRandomNumberGenerator()
    guard faults.shouldFail(using: &random) else { return try await next(request, context) }
    switch faults.mode {
    case .status:
      let status = HTTPResponse.Status(code: faults.failStatus)
      return ShowcaseServer.errorResponse(status, "injected failure (\(faults.failStatus))")
    case .malformed:
      return Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody(
          byteBuffer: ByteBuffer(string: #"{"current_page": 1, "photos": [{"id": "#)))
    case .close:
      // Headers go out, then the body fails: the server drops the connection mid-response.
      return Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody { _ in throw InjectedDisconnect() })
    }
  }
}

private struct InjectedDisconnect: Error {}
