import Synchronization

/// Faults `showcase-api` injects, so the apps' error states can be shown and tested.
public struct FaultInjection: Sendable, Equatable {
  /// How a request picked to fail fails.
  public enum Mode: String, Sendable, CaseIterable {
    /// Answer with ``FaultInjection/failStatus``.
    case status
    /// Answer 200 with a body that is not valid JSON.
    case malformed
    /// Send the headers, then close the connection without a body.
    case close
  }

  /// Delay before every answer (a latency above a client's timeout makes it time out).
  public var latency: Duration
  /// The share of requests that fail, from 0 (none) to 1 (all).
  public var failRate: Double
  /// The HTTP status of failures in ``Mode/status`` mode.
  public var failStatus: Int
  /// How failing requests fail.
  public var mode: Mode

  /// No faults: every request succeeds at once.
  public static let none = FaultInjection()

  /// Creates a fault configuration.
  ///
  /// - Parameters:
  ///   - latency: Delay before every answer.
  ///   - failRate: The share of requests that fail, clamped to 0...1.
  ///   - failStatus: The status of failures in `status` mode.
  ///   - mode: How failing requests fail.
  public init(
    latency: Duration = .zero, failRate: Double = 0, failStatus: Int = 503, mode: Mode = .status
  ) {
    self.latency = latency
    self.failRate = min(max(failRate, 0), 1)
    self.failStatus = failStatus
    self.mode = mode
  }

  /// Whether the next request should fail, drawing from `random`.
  ///
  /// - Parameter random: The source of randomness.
  /// - Returns: `true` for a request that should fail.
  public func shouldFail(using random: inout some RandomNumberGenerator) -> Bool {
    failRate >= 1 || (failRate > 0 && Double.random(in: 0..<1, using: &random) < failRate)
  }
}

/// Faults that can change while the server runs: a test turns failures on, sees the error
/// state, turns them off and checks that Retry recovers.
public final class FaultSwitch: Sendable {
  private let faults: Mutex<FaultInjection>

  /// Creates a switch set to `faults`.
  ///
  /// - Parameter faults: The faults to start with.
  public init(_ faults: FaultInjection = .none) {
    self.faults = Mutex(faults)
  }

  /// The faults applied to the next request.
  public var current: FaultInjection {
    get { faults.withLock { $0 } }
    set { faults.withLock { $0 = newValue } }
  }
}
