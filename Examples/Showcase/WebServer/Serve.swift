import Dispatch
import Foundation
import Hummingbird
import Logging
import ShowcaseFlows
import ShowcaseWeb
import TetherWeb
import TetherWebHummingbird

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension ShowcaseWebServer {
  /// The environment variable that gives a node the cluster's resume key (a flag shows in
  /// `ps`; the environment does not).
  public static let resumeKeyVariable = "TETHER_RESUME_KEY"
  /// The environment variable with the key being retired during a rollover: tokens it signed
  /// are still accepted; nothing new is signed with it.
  public static let retiringResumeKeyVariable = "TETHER_RETIRING_RESUME_KEY"

  /// The cluster's signer (swift-crypto's HMAC-SHA256) for `key` and, while it retires,
  /// `retiring`: each hex or base64 of 32 or more random bytes.
  ///
  /// - Parameters:
  ///   - key: The key that signs.
  ///   - retiring: The previous key, still accepted, if a rollover is under way.
  /// - Returns: The signer.
  /// - Throws: `WebResumeKeyError`, whose description is the one line to print.
  public static func resumeSigner(key: String, retiring: String?) throws(WebResumeKeyError)
    -> WebResumeSigner
  {
    try WebResumeSigner(keyTexts: [key] + (retiring.map { [$0] } ?? []))
  }

  /// Serves the showcase to browsers until SIGTERM or SIGINT, then returns: what
  /// `showcase --web` and every `showcase-cluster` node run.
  ///
  /// Prints `Serving the showcase at http://<host>:<port>` once it listens.
  ///
  /// - Parameters:
  ///   - services: Where the apps' data comes from.
  ///   - host: The address to listen on.
  ///   - port: The port; 0 picks a free one.
  ///   - sessionGrace: How long a session outlives its page's socket.
  ///   - resumeSigner: The cluster's signer, if sessions of other nodes may resume here.
  ///   - clientKeys: Without a `resumeSigner`, the keys browsers' cookies are issued under: a
  ///     key kept with the data, so a restarted server still knows its browsers (and their
  ///     lists); `nil` for a new key each run.
  ///   - connectionsPerAddress: The most connections one address may hold; `nil` for no
  ///     limit (behind a proxy every browser has the proxy's address).
  ///   - trustedProxies: The proxies whose `X-Forwarded-For` names the browser.
  ///   - messageRate: How fast one page's socket's messages are handled; `nil` for as fast
  ///     as they come.
  ///   - stats: Whether to serve `/stats`.
  /// - Throws: What the server threw: the port is taken, or the address cannot be bound.
  @MainActor
  public static func serve(
    services: ShowcaseServices, host: String, port: Int, sessionGrace: Duration,
    resumeSigner: WebResumeSigner?, clientKeys: [WebResumeKey]? = nil,
    connectionsPerAddress: Int? = nil,
    trustedProxies: Set<String> = [], messageRate: WebMessageRate? = WebMessageRate(),
    stats: Bool = false
  ) async throws {
    var logger = Logger(label: "showcase-web")
    logger.logLevel = .notice
    let registry = WebSessionRegistry(
      services: services, gracePeriod: sessionGrace, resumeSigner: resumeSigner,
      clientKeys: clientKeys, signing: .hmacSHA256)
    // Browsers may keep their sockets open: if the graceful stop has not finished 3 s after
    // the signal, leave anyway. The process exits 0 either way.
    let watchdogs = exitSoonAfterStopSignals()
    try await TetherWebServer.run(
      registry: registry, host: host, port: port,
      limits: WebConnectionLimits(
        maximumConnectionsPerAddress: connectionsPerAddress, trustedProxies: trustedProxies,
        messageRate: messageRate),
      logger: logger,
      onRunning: { port in
        // Flushed at once: whoever started us may be reading a pipe for this line.
        FileHandle.standardOutput.write(
          Data((ClusterAnnouncement.servingPrefix + "\(host):\(port)\n").utf8))
      },
      routes: { addShowcaseRoutes(to: $0, registry: registry, stats: stats) })
    withExtendedLifetime(watchdogs) {}
  }
}

/// Watches SIGTERM and SIGINT (beside the service group's own graceful stop) and ends the
/// process 3 s after one arrives. Not main-actor code: the handlers run on a global queue.
private func exitSoonAfterStopSignals() -> [any DispatchSourceSignal] {
  [SIGTERM, SIGINT].map { (signalNumber: Int32) -> any DispatchSourceSignal in
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
    source.setEventHandler {
      DispatchQueue.global().asyncAfter(deadline: .now() + 3) { leaveNow(status: 0) }
    }
    source.resume()
    return source
  }
}

/// Ends the process with `status` at once (the C library's `exit`).
private func leaveNow(status: Int32) -> Never {
  exit(status)
}
