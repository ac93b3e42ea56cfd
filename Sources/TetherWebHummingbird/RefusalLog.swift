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

  /// Logs one socket's refused messages without letting the socket flood the log: the first
  /// ``burst`` in full, then one a second; at the end, how many there were and how many were
  /// not logged. Each line is one line (the refusal's text escapes what the client sent).
  final class RefusalLog: Sendable {
    static let burst = 10
    let logger: Logger
    private struct Counts {
      var count = 0
      var unlogged = 0
      var lastLogged: ContinuousClock.Instant?
    }
    private let counts = Mutex(Counts())

    init(logger: Logger) {
      self.logger = logger
    }

    func refused(_ reason: String) {
      let now = ContinuousClock.now
      let logs = counts.withLock { counts in
        counts.count += 1
        if counts.count <= Self.burst || counts.lastLogged.map({ now - $0 >= .seconds(1) }) ?? true
        {
          counts.lastLogged = now
          return true
        }
        counts.unlogged += 1
        return false
      }
      if logs { logger.notice("session refused a message: \(reason)") }
    }

    func finish() {
      let (count, unlogged) = counts.withLock { ($0.count, $0.unlogged) }
      guard unlogged > 0 else { return }
      logger.notice(
        "session socket ended after \(count) refused messages (\(unlogged) not logged)")
    }
  }
#endif
