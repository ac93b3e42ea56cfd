/// How fast one page's socket's messages are handled: a burst, then a steady rate. A socket
/// that sends faster is not refused: each message past the budget waits in the socket's
/// ``WebInbox`` for the delay this budget asks for (and, once the inbox is full, in its own
/// connection), instead of taking the main actor from every other session.
///
/// The default — 100 messages at once, then 50 a second — is far beyond a person typing
/// (about 10 keys a second, and keystrokes to one field that wait are merged) or clicking.
///
/// ```swift
/// var rate = WebMessageRate()
/// let wait = rate.delay(at: .now)  // .zero until the burst is spent
/// ```
public struct WebMessageRate: Sendable, Equatable {
  /// Messages a socket may send at once.
  public let burst: Int
  /// Messages a second a socket may send once its burst is spent.
  public let perSecond: Int
  private var tokens: Double
  private var last: ContinuousClock.Instant?

  /// A budget of `burst` messages at once, then `perSecond`.
  ///
  /// - Parameters:
  ///   - burst: Messages at once (at least 1).
  ///   - perSecond: Messages a second after it (at least 1).
  public init(burst: Int = 100, perSecond: Int = 50) {
    self.burst = max(1, burst)
    self.perSecond = max(1, perSecond)
    tokens = Double(self.burst)
  }

  /// Takes one message from the budget: how long to wait before handling it (`.zero` while
  /// the budget has room).
  ///
  /// - Parameter now: When the message arrived.
  /// - Returns: The wait.
  public mutating func delay(at now: ContinuousClock.Instant) -> Duration {
    if let last {
      let elapsed = now - last
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
      tokens = min(Double(burst), tokens + max(0, seconds) * Double(perSecond))
    }
    last = now
    tokens -= 1
    guard tokens < 0 else { return .zero }
    // The message waits until the budget has refilled to it.
    let wait = -tokens / Double(perSecond)
    return .nanoseconds(Int64(wait * 1e9))
  }

  /// Equal when the limits are (the budget's state is not compared).
  public static func == (lhs: WebMessageRate, rhs: WebMessageRate) -> Bool {
    lhs.burst == rhs.burst && lhs.perSecond == rhs.perSecond
  }
}
