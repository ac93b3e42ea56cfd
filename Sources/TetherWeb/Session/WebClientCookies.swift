/// Issues and checks the cookie that names a browser (``WebClient``): its value is the
/// browser's id and a code under the server's key, so only ids the server issued are taken —
/// a value a page, another site or a planted cookie made up is replaced by a new one. Without
/// keys (a registry that signs nothing) the value is the id alone: any well-formed id is
/// taken.
///
/// The id is what a browser's own data is kept under (a TodoMVC list), so it never appears on
/// a page: the cookie is HttpOnly, and a resume token carries only a keyed proof of it
/// (``WebResumeSigner/clientProof(_:)``), which opens nothing.
///
/// Served over TLS (directly, or behind a trusted proxy that says so), the cookie is
/// `__Host-tether-client` with `Secure`: the browser then refuses it from plain HTTP and from
/// any other host, subdomains included.
public struct WebClientCookies: Sendable {
  /// The keys: the first issues, all check (a cluster rolls its keys over as it does its
  /// resume keys).
  public let keys: [WebResumeKey]
  /// How long a browser keeps its cookie, in seconds: a year.
  public static let lifetime = 31_536_000

  /// Cookies under `keys`, or `nil` if there are none.
  ///
  /// - Parameter keys: The first issues; all check.
  public init?(keys: [WebResumeKey]) {
    guard !keys.isEmpty else { return nil }
    self.keys = keys
  }

  /// Cookies under `keys`, or unsigned when `keys` is empty.
  init(signedBy keys: [WebResumeKey]) {
    self.keys = keys
  }

  /// The cookie's name: `__Host-tether-client` over TLS, `tether-client` otherwise.
  ///
  /// - Parameter secure: Whether the page is served over TLS.
  /// - Returns: The name.
  public static func name(secure: Bool) -> String {
    secure ? "__Host-" + WebClient.cookieName : WebClient.cookieName
  }

  /// The browser a request's `Cookie` header names with a value this server issued, if any.
  /// Every cookie of the name is tried in order (a browser sends the one of the most specific
  /// path first, and a malformed or forged one planted there must not hide the real one).
  ///
  /// - Parameters:
  ///   - header: The request's `Cookie` header.
  ///   - secure: Whether the page is served over TLS (which name to read).
  /// - Returns: The browser, or `nil` when no cookie of the name carries a valid value.
  public func client(inCookieHeader header: String?, secure: Bool) -> WebClient? {
    guard let header else { return nil }
    let name = Self.name(secure: secure)
    for pair in header.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else {
        continue
      }
      if let id = verifiedID(parts[1].trimmingCharacters(in: .whitespaces)) {
        return WebClient(id: id)
      }
    }
    return nil
  }

  /// A new browser and the `Set-Cookie` value that gives it its id: HttpOnly (no script reads
  /// it), SameSite=Lax (no other site's request carries it), on every path, for a year; over
  /// TLS also `Secure`, under the `__Host-` name.
  ///
  /// - Parameter secure: Whether the page is served over TLS.
  /// - Returns: The browser and the header's value.
  public func issue(secure: Bool) -> (client: WebClient, setCookie: String) {
    let id = WebClient.newID()
    let value = keys.first.map { id + "." + code(for: id, key: $0) } ?? id
    var cookie =
      "\(Self.name(secure: secure))=\(value); Path=/; Max-Age=\(Self.lifetime); HttpOnly; SameSite=Lax"
    if secure { cookie += "; Secure" }
    return (WebClient(id: id), cookie)
  }

  /// The id in `value` (`<32 lowercase hex digits>.<code>`) if a key of this server's made
  /// its code; without keys, the id alone (`<32 lowercase hex digits>`).
  func verifiedID(_ value: String) -> String? {
    let parts = value.split(separator: ".", omittingEmptySubsequences: false)
    guard parts[0].utf8.count == 32,
      parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else { return nil }
    if keys.isEmpty { return parts.count == 1 ? String(parts[0]) : nil }
    guard parts.count == 2, let presented = WebResumeSigner.bytes(base64URL: parts[1]) else {
      return nil
    }
    let id = String(parts[0])
    let message = Array(("tether client " + id).utf8)
    for key in keys {
      let expected = key.authenticator.authenticationCode(for: message).prefix(16)
      if constantTimeEqual(Array(expected), presented) { return id }
    }
    return nil
  }

  private func code(for id: String, key: WebResumeKey) -> String {
    let code = key.authenticator.authenticationCode(for: Array(("tether client " + id).utf8))
    return WebResumeSigner.base64URL(Array(code.prefix(16)))
  }
}
