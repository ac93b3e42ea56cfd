import Foundation
import Logging
import ServiceLifecycle
import ShowcaseServer

struct ServerDidNotStart: Error {}

/// Runs `showcase-api`'s server with `faults` on a free loopback port for the duration of
/// `body`, then shuts it down gracefully.
@discardableResult
func withShowcaseServer<Result: Sendable>(
  isolation: isolated (any Actor)? = #isolation,
  faults: FaultInjection = .none,
  _ body: (URL) async throws -> Result
) async throws -> Result {
  try await withShowcaseServer(faults: FaultSwitch(faults), body)
}

/// Runs `showcase-api`'s server with the switch's faults, which `body` may change.
@discardableResult
func withShowcaseServer<Result: Sendable>(
  isolation: isolated (any Actor)? = #isolation,
  faults: FaultSwitch,
  _ body: (URL) async throws -> Result
) async throws -> Result {
  let (ports, portContinuation) = AsyncStream<Int>.makeStream()
  let app = ShowcaseServer.makeApplication(port: 0, faults: faults, logLevel: .critical) {
    portContinuation.yield($0)
  }
  let group = ServiceGroup(
    services: [app], gracefulShutdownSignals: [], cancellationSignals: [],
    logger: Logger(label: "showcase-api-tests"))
  let server = Task { try await group.run() }
  var iterator = ports.makeAsyncIterator()
  guard let port = await iterator.next(), let url = URL(string: "http://127.0.0.1:\(port)") else {
    server.cancel()
    throw ServerDidNotStart()
  }
  let outcome: Swift.Result<Result, any Error>
  do {
    outcome = .success(try await body(url))
  } catch {
    outcome = .failure(error)
  }
  await group.triggerGracefulShutdown()
  _ = await server.result
  return try outcome.get()
}
