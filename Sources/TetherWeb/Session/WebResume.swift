import Foundation
import TetherFlow

/// What a page needs to rebuild its session on any server of a cluster: the path, and the
/// transient view state worth keeping — each screen's selection and the open alert.
///
/// The server signs it (``WebResumeSigner``) and sends it with every change; the page keeps
/// the newest token and presents it when it reconnects. A server that does not hold the
/// session rebuilds it through the app's deep-link entry from ``path``, then restores the
/// rest. Anything else a view model holds (a half-typed form, a load in flight) is not in it.
public struct WebResumeState: Equatable, Sendable {
  /// The session the state belongs to; a token is only good for this session.
  public var sessionID: String
  /// What the page shows, as TetherFlow takes it from the stack (`ScreenPresenter.snapshot`):
  /// the path, each screen's selection and the alert with its buttons' actions. This type only
  /// adds whose it is and when it was signed.
  public var snapshot: ScreenStackSnapshot
  /// When the state was signed, in whole seconds since 1970.
  public var issuedAt: Int
  /// The browser the session belongs to (``WebClient/id``), if the server knows it. The token
  /// never carries it (the id opens the browser's data, and a page can be read): it carries
  /// a keyed proof of it instead (``clientProof``), and a server rebuilding the session takes
  /// the browser from the request's cookie and refuses a token whose proof is not that
  /// browser's. A state read from a token has `nil` here.
  public var client: String?
  /// The keyed proof of ``client`` a verified token carried
  /// (``WebResumeSigner/proves(_:belongTo:)`` checks it); `nil` in a state not read from a
  /// token, or one whose session knew no browser.
  public internal(set) var clientProof: String?
  /// The id of the key that signed the token this state was read from.
  var signingKeyID: String?
  /// The session's secret (``WebSession/secret``): a session rebuilt from the token keeps it,
  /// so the page proves itself on any server with the secret it was served.
  public var secret: String?
  /// The token's number in its session (``WebSession/resumeCounter``): higher is newer. A
  /// token no newer than the session a server holds never rolls that session back.
  public var counter: Int

  /// The stack's path, such as `/gallery/photo/230200400`.
  public var path: String {
    get { snapshot.path }
    set { snapshot.path = newValue }
  }
  /// Each screen's restoration key (its lists' selected rows and its view model's `RestorableViewModel` value), bottom to top (`nil` for a screen with none).
  public var selections: [String?] {
    get { snapshot.selections }
    set { snapshot.selections = newValue }
  }
  /// The alert on screen, if any, with each button's action (`ScreenAlert.Button.payload`).
  /// It comes back without the flow's `onResponse` closure (a closure cannot travel in a
  /// token), but a button pressed on the rebuilt session reaches the rebuilt flows through
  /// `Navigator.alertResponses`, action and all.
  public var alert: ScreenAlert? {
    get { snapshot.alert }
    set { snapshot.alert = newValue }
  }

  /// Creates a state from a snapshot.
  ///
  /// - Parameters:
  ///   - sessionID: The session it belongs to.
  ///   - snapshot: What the page shows.
  ///   - issuedAt: When it was signed, in seconds since 1970.
  ///   - client: The browser it belongs to, if known.
  ///   - secret: The session's secret, if known.
  ///   - counter: The token's number in its session.
  public init(
    sessionID: String, snapshot: ScreenStackSnapshot, issuedAt: Int = 0, client: String? = nil,
    secret: String? = nil, counter: Int = 0
  ) {
    self.sessionID = sessionID
    self.snapshot = snapshot
    self.issuedAt = issuedAt
    self.client = client
    self.secret = secret
    self.counter = counter
  }

  /// Creates a state.
  ///
  /// - Parameters:
  ///   - sessionID: The session it belongs to.
  ///   - path: The stack's path.
  ///   - selections: Each screen's restoration key, bottom to top.
  ///   - alert: The alert on screen.
  ///   - issuedAt: When it was signed, in seconds since 1970.
  public init(
    sessionID: String, path: String, selections: [String?] = [], alert: ScreenAlert? = nil,
    issuedAt: Int = 0
  ) {
    self.init(
      sessionID: sessionID,
      snapshot: ScreenStackSnapshot(path: path, selections: selections, alert: alert),
      issuedAt: issuedAt)
  }
}

extension WebResumeState {
  /// Whether `other` describes the same page — session, path, selections and alert — whenever
  /// each was signed.
  ///
  /// - Parameter other: Another state.
  /// - Returns: `true` if only ``issuedAt`` and ``counter`` may differ.
  public func showsSamePage(as other: WebResumeState) -> Bool {
    sessionID == other.sessionID && snapshot == other.snapshot && client == other.client
      && secret == other.secret
  }

  /// Equal when they describe the same page for the same browser, signed with the same
  /// number at the same second (the proof a token carried and its key are not compared).
  public static func == (lhs: WebResumeState, rhs: WebResumeState) -> Bool {
    lhs.showsSamePage(as: rhs) && lhs.issuedAt == rhs.issuedAt && lhs.counter == rhs.counter
  }
}

/// Why a resume token was refused.
public enum WebResumeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Not a token at all (wrong shape, not base64url, not the expected JSON).
  case malformed
  /// The signature does not match: forged, altered, or signed with another key.
  case badSignature
  /// Older than the signer's ``WebResumeSigner/maximumAge``.
  case expired
  /// Signed for another session than the one the page asked for.
  case otherSession
  /// Signed for another browser than the one presenting it (its cookie names another, or
  /// none).
  case otherClient
  /// This server was started without a resume key.
  case notEnabled
  /// The path names no screen any more.
  case unknownPath
  /// The server has no room for another session.
  case full
  /// The browser or its address holds as many sessions as it may
  /// (``WebSessionRegistry/sessionsPerClient``, ``WebSessionRegistry/sessionsPerAddress``).
  case overBudget

  /// A sentence for logs and close reasons (at most 123 bytes).
  public var description: String {
    switch self {
    case .malformed: "malformed resume token"
    case .badSignature: "bad resume signature"
    case .expired: "resume token expired"
    case .otherSession: "resume token of another session"
    case .otherClient: "resume token of another browser"
    case .notEnabled: "this server does not resume sessions"
    case .unknownPath: "resume path names no screen"
    case .full: "no room for another session"
    case .overBudget: "too many sessions for this browser or address"
    }
  }
}

/// Signs and verifies ``WebResumeState`` under keys every server of a cluster shares, so a
/// page cannot present state it was never shown.
///
/// A token is `t1.<key id>.<payload>.<code>`: a version, the id of the key that signed it
/// (``WebResumeKey/id``), the state as JSON in base64url, and the authentication code
/// (HMAC-SHA256) of everything before it, in base64url. It is not encrypted: it holds nothing
/// the page does not already show. The first key signs; every key verifies, so a cluster
/// rolls a key over by putting the new one first and dropping the old one after
/// ``maximumAge``. A token carries its session's counter (``WebResumeState/counter``), so a
/// server never rolls a session it holds back to an older token.
public struct WebResumeSigner: Sendable {
  /// The keys: the first signs, all verify.
  public let keys: [WebResumeKey]
  /// How old a token may be when it is presented. A page that stays connected is sent a
  /// fresh token well before then (every third of it); one that comes back later loads its
  /// address anew.
  public let maximumAge: Duration

  /// The shortest key accepted, in bytes (``WebResumeKey/minimumLength``).
  public static let minimumKeyLength = WebResumeKey.minimumLength

  /// The default ``maximumAge``: 5 minutes, a session's grace period and a reconnect with room
  /// to spare.
  public static let defaultMaximumAge: Duration = .seconds(300)

  /// Creates a signer, or `nil` if `keys` is empty.
  ///
  /// - Parameters:
  ///   - keys: The keys: the first signs, all verify (the others are retiring).
  ///   - maximumAge: How old a token may be when it is presented.
  public init?(keys: [WebResumeKey], maximumAge: Duration = Self.defaultMaximumAge) {
    guard !keys.isEmpty else { return nil }
    self.keys = keys
    self.maximumAge = maximumAge
  }

  private static let version = "t1"

  /// `state` as a signed token, with `issuedAt` set to `now`, signed with the first key.
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - now: The signing time.
  /// - Returns: The token.
  public func sign(_ state: WebResumeState, now: Date = Date()) -> String {
    var state = state
    state.issuedAt = Int(now.timeIntervalSince1970)
    let key = keys[0]
    let proof = state.client.map { Self.proof(of: $0, key: key) }
    let signed =
      Self.version + "." + key.id + "." + Self.base64URL(Array(Wire(state, proof: proof).json.utf8))
    let code = key.authenticator.authenticationCode(for: Array(signed.utf8))
    return signed + "." + Self.base64URL(code)
  }

  /// The state in `token`, if a key of this signer signed it and it is young enough.
  ///
  /// - Parameters:
  ///   - token: A token from ``sign(_:now:)``.
  ///   - now: The time to judge its age by.
  /// - Returns: The state.
  /// - Throws: ``WebResumeError`` saying why the token is refused: an unknown key id is a
  ///   bad signature.
  public func verify(_ token: String, now: Date = Date()) throws(WebResumeError) -> WebResumeState {
    guard token.utf8.count <= 8192 else { throw .malformed }
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == Self.version, let code = Self.bytes(base64URL: parts[3]),
      let payload = Self.bytes(base64URL: parts[2])
    else { throw .malformed }
    guard let key = keys.first(where: { $0.id == parts[1] }) else { throw .badSignature }
    let signed = token.utf8.prefix(token.utf8.count - parts[3].utf8.count - 1)
    guard key.authenticator.isValidAuthenticationCode(code, for: Array(signed)) else {
      throw .badSignature
    }
    guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(payload)),
      let state = wire.state
    else { throw .malformed }
    let age = now.timeIntervalSince1970 - Double(state.issuedAt)
    let limit = Double(maximumAge.components.seconds)
    guard age <= limit, age >= -60 else { throw .expired }
    var verified = state
    verified.signingKeyID = key.id
    return verified
  }

  /// Whether `state`, read from a token this signer verified, belongs to the browser `client`:
  /// its proof is the one of `client` under the key that signed it (or both are absent).
  ///
  /// - Parameters:
  ///   - state: A verified state.
  ///   - client: The browser presenting the token (from the request's cookie), if known.
  /// - Returns: Whether the token may rebuild a session for this browser.
  public func proves(_ state: WebResumeState, belongTo client: String?) -> Bool {
    switch (state.clientProof, client) {
    case (nil, nil): return true
    case (let proof?, let client?):
      guard let key = keys.first(where: { $0.id == state.signingKeyID }) else { return false }
      return constantTimeEqual(Array(Self.proof(of: client, key: key).utf8), Array(proof.utf8))
    default: return false
    }
  }

  /// The keyed proof of browser `client` a token carries: 128 bits of its code, which neither
  /// names the browser nor opens its data.
  ///
  /// - Parameter client: The browser's id.
  /// - Returns: The proof under the signing key.
  public func clientProof(_ client: String) -> String {
    Self.proof(of: client, key: keys[0])
  }

  private static func proof(of client: String, key: WebResumeKey) -> String {
    base64URL(
      Array(
        key.authenticator.authenticationCode(for: Array(("tether token client " + client).utf8))
          .prefix(16)))
  }

  static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static func bytes(base64URL text: some StringProtocol) -> [UInt8]? {
    guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else { return nil }
    var standard = text.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
    return Data(base64Encoded: standard).map(Array.init)
  }

  /// The state as the token carries it: short keys, roles as words.
  private struct Wire: Codable {
    struct Button: Codable {
      var t: String
      var r: String
      /// The button's action (``ScreenAlert/Button/payload``); absent for one without.
      var v: String?
    }
    struct AlertWire: Codable {
      var t: String
      var m: String
      var b: [Button]
      /// The index of the alert's preferred default button; absent when it names none.
      var d: Int?
      /// The style's name, absent for a plain alert.
      var y: String?
    }
    var i: String
    var p: String
    var s: [String?]
    var a: AlertWire?
    /// The focused element, when the snapshot names one; absent otherwise.
    var f: String?
    var at: Int
    /// The keyed proof of the browser's id, when the session knows it (never the id).
    var c: String?
    /// The session's secret.
    var k: String?
    /// The token's number in its session; absent for 0.
    var n: Int?

    init(_ state: WebResumeState, proof: String?) {
      i = state.sessionID
      p = state.path
      s = state.selections
      a = state.alert.map { alert in
        AlertWire(
          t: alert.title, m: alert.message,
          b: alert.buttons.map { Button(t: $0.title, r: Self.name(of: $0.role), v: $0.payload) },
          d: alert.preferredDefault.flatMap { alert.buttons.firstIndex(of: $0) },
          y: alert.style == .alert ? nil : alert.style.rawValue)
      }
      f = state.snapshot.focus
      at = state.issuedAt
      c = proof
      k = state.secret
      n = state.counter == 0 ? nil : state.counter
    }

    var state: WebResumeState? {
      var alert: ScreenAlert?
      if let a {
        var buttons: [ScreenAlert.Button] = []
        for button in a.b {
          guard let role = Self.role(named: button.r) else { return nil }
          buttons.append(ScreenAlert.Button(button.t, role: role, payload: button.v))
        }
        let preferred = a.d.flatMap { buttons.indices.contains($0) ? buttons[$0] : nil }
        // A style this server does not know is drawn as an alert: the buttons are the same.
        let style = a.y.flatMap(ScreenAlert.Style.init(rawValue:)) ?? .alert
        alert = ScreenAlert(
          title: a.t, message: a.m, buttons: buttons, default: preferred, style: style)
      }
      var state = WebResumeState(
        sessionID: i,
        snapshot: ScreenStackSnapshot(path: p, selections: s, alert: alert, focus: f),
        issuedAt: at, client: nil, secret: k, counter: n ?? 0)
      state.clientProof = c
      return state
    }

    var json: String {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      // Encoding strings, arrays and integers cannot fail.
      return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func name(of role: ScreenAlert.Button.Role) -> String {
      switch role {
      case .acknowledge: "acknowledge"
      case .cancel: "cancel"
      case .confirm: "confirm"
      case .destructive: "destructive"
      }
    }

    static func role(named name: String) -> ScreenAlert.Button.Role? {
      switch name {
      case "acknowledge": .acknowledge
      case "cancel": .cancel
      case "confirm": .confirm
      case "destructive": .destructive
      default: nil
      }
    }
  }
}
