import Foundation

/// A page's socket and its session: attaching it (one socket per session), checking what it
/// claims, routing its messages, and detaching it into the grace period.
extension WebSessionRegistry {
  /// Connects a socket to session `id`.
  ///
  /// - Parameters:
  ///   - id: The session.
  ///   - resync: Whether the page may be older than the session's last render.
  ///   - shown: The digest of the page as it was served, from a page that has applied no
  ///     patch since (``ClientMessage/hello(secret:token:shown:)``).
  ///   - send: Sends one text message to the page.
  ///   - close: Closes this socket, called when a newer socket of the session replaces it:
  ///     one socket per session (the server closes it with ``replacedCloseCode``).
  /// - Returns: A connection number for ``detach(_:connection:)``, or `nil` if there is no such
  ///   session.
  public func attach(
    _ id: String, resync: Bool, shown: String? = nil, send: @escaping (String) -> Void,
    close: (@Sendable () -> Void)? = nil
  ) -> Int? {
    guard var entry = sessions[id] else { return nil }
    entry.expiry?.cancel()
    entry.expiry = nil
    if entry.session.isAttached { entry.closeConnection?() }
    lastConnection += 1
    entry.connection = lastConnection
    entry.unclaimedAddress = nil
    entry.closeConnection = close
    sessions[id] = entry
    entry.session.attach(send, resync: resync, shown: shown)
    return entry.connection
  }

  /// The close code for a socket a newer socket of its session replaced.
  public static let replacedCloseCode: UInt16 = 4409

  /// Whether `secret` is session `id`'s (``WebSession/secret``): what a socket must show
  /// before it is attached. Compared in constant time. With `client`, the session must also
  /// be that browser's: a page's secret read by someone else opens nothing in another browser.
  ///
  /// - Parameters:
  ///   - id: The session.
  ///   - secret: What the socket's first message showed.
  ///   - client: The browser the socket's request came from, as its cookie names it; `nil`
  ///     when the server does not say.
  /// - Returns: Whether the session is here and the secret is its own.
  public func claims(_ id: String, secret: String, client: WebClient? = nil) -> Bool {
    guard let session = sessions[id]?.session else { return false }
    if let client, session.client != client { return false }
    return constantTimeEqual(Array(session.secret.utf8), Array(secret.utf8))
  }

  /// Routes a page's message to its session.
  ///
  /// - Returns: Why it was refused, or `nil`.
  public func receive(_ id: String, _ text: String) async -> WebSessionError? {
    guard let session = sessions[id]?.session else { return nil }
    return await session.receive(text)
  }

  /// Routes a message of connection `connection` to its session, unless a newer socket
  /// replaced that connection (its messages are dropped).
  ///
  /// - Returns: Why it was refused, or `nil`.
  public func receive(_ id: String, connection: Int, _ text: String) async -> WebSessionError? {
    guard let entry = sessions[id], entry.connection == connection else { return nil }
    return await entry.session.receive(text)
  }

  /// Routes a decoded message of connection `connection` (from its ``WebInbox``) to its
  /// session, unless a newer socket replaced that connection (its messages are dropped).
  ///
  /// - Returns: Why it was refused, or `nil`.
  public func receive(
    _ id: String, connection: Int, _ envelope: ClientEnvelope
  ) async -> WebSessionError? {
    guard let entry = sessions[id], entry.connection == connection else { return nil }
    return await entry.session.receive(envelope)
  }

  /// Has the session of connection `connection` send its page a fresh resume token if its
  /// newest is getting old (``WebSession/refreshResumeToken(now:)``).
  ///
  /// - Parameters:
  ///   - id: The session.
  ///   - connection: The socket asking; a replaced one's call does nothing.
  public func refreshResumeToken(_ id: String, connection: Int) {
    guard let entry = sessions[id], entry.connection == connection else { return }
    entry.session.refreshResumeToken()
  }

  /// The socket of connection `connection` closed: the session waits out the grace period.
  public func detach(_ id: String, connection: Int) {
    guard let entry = sessions[id], entry.connection == connection else { return }
    entry.session.detach()
    scheduleExpiry(id)
  }
}
