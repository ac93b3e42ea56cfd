/// When a ``Command`` runs its work again after it fails, and how long it waits first.
///
/// ```swift
/// load = Command(retry: .exponentialBackoff(maximumAttempts: 4, when: \.isTransient)) {
///   () async throws(ServiceError) in try await service.courses()
/// }
/// ```
///
/// The attempts are one run: ``Command/isExecuting`` stays `true` from the first attempt to the
/// last, ``Command/lastError`` and ``Command/errors`` hear only of the last attempt's error, and
/// cancelling the run (``Command/cancel()``, a replacing run, the command's lifetime) ends the
/// wait at once. A run retries only an error the policy's `when` accepts: an error a retry
/// cannot mend (a 404, bad input) ends it at once.
public struct RetryPolicy<Failure: Error>: Sendable {
  /// The most attempts a run makes, the first included: 1 never retries.
  public let maximumAttempts: Int
  private let delay: @Sendable (_ failedAttempt: Int) -> Duration
  private let accepts: @Sendable (Failure) -> Bool
  private let sleep: @Sendable (Duration) async throws -> Void

  /// A policy of your own: up to `maximumAttempts` attempts, waiting `delay(n)` on `clock`
  /// after the failed attempt `n` (1, 2, …) when `when` accepts its error.
  ///
  /// - Parameters:
  ///   - maximumAttempts: The most attempts, the first included; below 1 counts as 1.
  ///   - clock: The clock that measures the waits: `ContinuousClock()` in an app, a test
  ///     clock in tests.
  ///   - when: Whether an error is worth another attempt.
  ///   - delay: The wait after the failed attempt numbered by its argument.
  public init(
    maximumAttempts: Int, clock: some Clock<Duration> = ContinuousClock(),
    when: @escaping @Sendable (Failure) -> Bool = { _ in true },
    delay: @escaping @Sendable (Int) -> Duration
  ) {
    self.maximumAttempts = max(1, maximumAttempts)
    self.delay = delay
    accepts = when
    sleep = { try await clock.sleep(for: $0) }
  }

  /// One attempt: a failure ends the run.
  public static var never: RetryPolicy {
    RetryPolicy(maximumAttempts: 1) { _ in .zero }
  }

  /// Attempts that wait longer each time: `initialDelay` after the first failure, then
  /// `multiplier` times the wait before, never more than `maximumDelay`. With `jitter` above 0,
  /// each wait is shortened by a random part of up to that fraction, so many clients that
  /// failed together do not all come back together.
  ///
  /// - Parameters:
  ///   - maximumAttempts: The most attempts, the first included.
  ///   - initialDelay: The wait after the first failure.
  ///   - multiplier: How much longer each wait is than the one before (at least 1).
  ///   - maximumDelay: The longest wait.
  ///   - jitter: The largest fraction (0 to 1) a wait may be shortened by at random; 0, the
  ///     default, waits exactly.
  ///   - clock: The clock that measures the waits.
  ///   - when: Whether an error is worth another attempt.
  /// - Returns: The policy.
  public static func exponentialBackoff(
    maximumAttempts: Int = 3, initialDelay: Duration = .milliseconds(500),
    multiplier: Double = 2, maximumDelay: Duration = .seconds(30), jitter: Double = 0,
    clock: some Clock<Duration> = ContinuousClock(),
    when: @escaping @Sendable (Failure) -> Bool = { _ in true }
  ) -> RetryPolicy {
    // A year is the longest wait: longer is no retry, and it keeps the arithmetic below in
    // range whatever the durations given.
    let year = 365.0 * 86_400
    let initial = min(max(0, initialDelay.seconds), year)
    let longest = min(max(initial, maximumDelay.seconds), year)
    // Not a number, or below 1, would shrink or stall the waits.
    let factor = multiplier.isFinite ? max(1, multiplier) : 1
    let spread = jitter.isFinite ? min(max(0, jitter), 1) : 0
    return RetryPolicy(maximumAttempts: maximumAttempts, clock: clock, when: when) { failed in
      // Computed in seconds as a `Double` and capped before it becomes a `Duration`, so no
      // attempt count overflows it.
      var wait = initial
      var attempt = 1
      while attempt < failed, factor > 1, wait < longest {
        wait *= factor
        attempt += 1
      }
      wait = min(wait, longest)
      let shortened = spread > 0 ? wait * (1 - Double.random(in: 0...spread)) : wait
      return .nanoseconds(Int64(shortened * 1e9))
    }
  }

  /// The wait before attempt `failedAttempt + 1` after `error`, or `nil` when the run ends.
  package func wait(after failedAttempt: Int, for error: Failure) -> Duration? {
    guard failedAttempt < maximumAttempts, accepts(error) else { return nil }
    return delay(failedAttempt)
  }

  /// Sleeps for `duration` on the policy's clock; throws when the task is cancelled.
  package func pause(for duration: Duration) async throws {
    try await sleep(duration)
  }
}

extension Duration {
  /// The duration in seconds.
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
