/// The browser a session belongs to, as the server integration knows it: the id in an
/// HttpOnly, SameSite=Lax cookie the server issued on the first page (``WebClientCookies``;
/// TetherWebHummingbird's `TetherWebServer` sets it), so each browser's own data — a list kept
/// per browser — is found again on a reload and on any server of a cluster.
public struct WebClient: Equatable, Hashable, Sendable {
  /// The browser's id; `nil` when the server does not know it (no cookie).
  public var id: String?

  /// Creates a client.
  ///
  /// - Parameter id: The browser's id, if known.
  public init(id: String? = nil) {
    self.id = id
  }

  /// A new random id for a browser that has none: 128 bits, as lowercase hex.
  public static func newID() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in
      let word = String(generator.next() as UInt32, radix: 16)
      return String(repeating: "0", count: 8 - word.count) + word
    }.joined()
  }

  /// The cookie's name over plain HTTP; over TLS it is `__Host-tether-client`
  /// (``WebClientCookies``, which issues and checks it).
  public static let cookieName = "tether-client"
}
