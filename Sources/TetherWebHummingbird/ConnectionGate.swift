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

  /// Counts the connections open, in all and per address, and admits or refuses a new one.
  final class ConnectionGate: Sendable {
    let cap: Int
    let perAddress: Int?
    private let logger: Logger
    private struct State {
      var open = 0
      var byAddress: [String: Int] = [:]
      var refused = 0
      var lastLogged: ContinuousClock.Instant?
    }
    private let state = Mutex(State())

    init(limits: WebConnectionLimits, logger: Logger) {
      cap = limits.connectionCap
      perAddress = limits.maximumConnectionsPerAddress
      self.logger = logger
    }

    /// Counts a connection from `address` in, or refuses it (logged at most once a second).
    func admit(_ address: String?) -> Bool {
      let (admitted, log): (Bool, String?) = state.withLock { state in
        let fromAddress = address.map { state.byAddress[$0, default: 0] } ?? 0
        if state.open < cap, perAddress.map({ fromAddress < $0 }) ?? true {
          state.open += 1
          if let address { state.byAddress[address] = fromAddress + 1 }
          return (true, nil)
        }
        state.refused += 1
        let now = ContinuousClock.now
        guard state.lastLogged.map({ now - $0 >= .seconds(1) }) ?? true else { return (false, nil) }
        state.lastLogged = now
        let reason =
          state.open >= cap
          ? "\(state.open) connections open, the most it holds"
          : "\(fromAddress) open from its address, the most one address may hold"
        return (false, "refused a connection: \(reason) (\(state.refused) refused so far)")
      }
      if let log { logger.notice("\(log)") }
      return admitted
    }

    /// Counts an admitted connection from `address` out.
    func release(_ address: String?) {
      state.withLock { state in
        state.open -= 1
        guard let address, let count = state.byAddress[address] else { return }
        state.byAddress[address] = count > 1 ? count - 1 : nil
      }
    }

    /// The connections open now.
    var open: Int { state.withLock { $0.open } }
  }

  /// A server child channel that puts the gate and the header deadline in front of `base`.
  struct GuardedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let gate: ConnectionGate
    let headerTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
      let address = channel.remoteAddress?.ipAddress
      do {
        if gate.admit(address) {
          channel.closeFuture.whenComplete { [gate] _ in gate.release(address) }
          try channel.pipeline.syncOperations.addHandler(
            RequestHeadDeadline(timeout: TimeAmount(headerTimeout)), position: .first)
        } else {
          try channel.pipeline.syncOperations.addHandler(RefusedConnection(), position: .first)
        }
      } catch {
        channel.close(promise: nil)
        return channel.eventLoop.makeFailedFuture(error)
      }
      return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
      await base.handle(value: value, logger: logger)
    }
  }
#endif
