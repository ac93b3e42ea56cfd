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
  /// The browser the session belongs to (``WebClient/id``), if the server knows it: a session
  /// rebuilt from the token belongs to the same browser (and shows its own data).
  public var client: String?
  /// The session's secret (``WebSession/secret``): a session rebuilt from the token keeps it,
  /// so the page proves itself on any server with the secret it was served.
  public var secret: String?

  /// The stack's path, such as `/gallery/photo/230200400`.
  public var path: String {
    get { snapshot.path }
    set { snapshot.path = newValue }
  }
  /// Each screen's ``WebView`` restoration key, bottom to top (`nil` for a screen with none).
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
  public init(
    sessionID: String, snapshot: ScreenStackSnapshot, issuedAt: Int = 0, client: String? = nil,
    secret: String? = nil
  ) {
    self.sessionID = sessionID
    self.snapshot = snapshot
    self.issuedAt = issuedAt
    self.client = client
    self.secret = secret
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
  /// - Returns: `true` if only ``issuedAt`` may differ.
  public func showsSamePage(as other: WebResumeState) -> Bool {
    sessionID == other.sessionID && snapshot == other.snapshot && client == other.client
      && secret == other.secret
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
  /// This server was started without a resume key.
  case notEnabled
  /// The path names no screen any more.
  case unknownPath
  /// The server has no room for another session.
  case full

  /// A sentence for logs and close reasons (at most 123 bytes).
  public var description: String {
    switch self {
    case .malformed: "malformed resume token"
    case .badSignature: "bad resume signature"
    case .expired: "resume token expired"
    case .otherSession: "resume token of another session"
    case .notEnabled: "this server does not resume sessions"
    case .unknownPath: "resume path names no screen"
    case .full: "no room for another session"
    }
  }
}

/// Signs and verifies ``WebResumeState`` with HMAC-SHA256 under a key every server of a
/// cluster shares, so a page cannot present state it was never shown.
///
/// A token is `payload.signature`, both base64url: the payload is the state as JSON, the
/// signature HMAC-SHA256 of the payload's text. It is not encrypted: it holds nothing the page
/// does not already show.
public struct WebResumeSigner: Sendable {
  private let key: [UInt8]
  /// How old a token may be when it is presented.
  public let maximumAge: Duration

  /// The shortest key accepted, in bytes.
  public static let minimumKeyLength = 16

  /// Creates a signer, or `nil` if `key` is shorter than ``minimumKeyLength`` bytes.
  ///
  /// - Parameters:
  ///   - key: The secret every server of the cluster shares.
  ///   - maximumAge: How old a token may be when it is presented.
  public init?(key: some StringProtocol, maximumAge: Duration = .seconds(86_400)) {
    guard key.utf8.count >= Self.minimumKeyLength else { return nil }
    self.key = Array(key.utf8)
    self.maximumAge = maximumAge
  }

  /// `state` as a signed token, with `issuedAt` set to `now`.
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - now: The signing time.
  /// - Returns: The token.
  public func sign(_ state: WebResumeState, now: Date = Date()) -> String {
    var state = state
    state.issuedAt = Int(now.timeIntervalSince1970)
    let payload = Self.base64URL(Array(Wire(state).json.utf8))
    let tag = hmacSHA256(key: key, message: Array(payload.utf8))
    return payload + "." + Self.base64URL(tag)
  }

  /// The state in `token`, if its signature holds and it is young enough.
  ///
  /// - Parameters:
  ///   - token: A token from ``sign(_:now:)``.
  ///   - now: The time to judge its age by.
  /// - Returns: The state.
  /// - Throws: ``WebResumeError`` saying why the token is refused.
  public func verify(_ token: String, now: Date = Date()) throws(WebResumeError) -> WebResumeState {
    guard token.utf8.count <= 8192 else { throw .malformed }
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let tag = Self.bytes(base64URL: parts[1]),
      let payload = Self.bytes(base64URL: parts[0])
    else { throw .malformed }
    let expected = hmacSHA256(key: key, message: Array(parts[0].utf8))
    guard constantTimeEqual(tag, expected) else { throw .badSignature }
    guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(payload)),
      let state = wire.state
    else { throw .malformed }
    let age = now.timeIntervalSince1970 - Double(state.issuedAt)
    let limit = Double(maximumAge.components.seconds)
    guard age <= limit, age >= -60 else { throw .expired }
    return state
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
    }
    var i: String
    var p: String
    var s: [String?]
    var a: AlertWire?
    /// The focused element, when the snapshot names one; absent otherwise.
    var f: String?
    var at: Int
    /// The browser's id, when the session knows it.
    var c: String?
    /// The session's secret.
    var k: String?

    init(_ state: WebResumeState) {
      i = state.sessionID
      p = state.path
      s = state.selections
      a = state.alert.map { alert in
        AlertWire(
          t: alert.title, m: alert.message,
          b: alert.buttons.map { Button(t: $0.title, r: Self.name(of: $0.role), v: $0.payload) },
          d: alert.preferredDefault.flatMap { alert.buttons.firstIndex(of: $0) })
      }
      f = state.snapshot.focus
      at = state.issuedAt
      c = state.client
      k = state.secret
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
        alert = ScreenAlert(title: a.t, message: a.m, buttons: buttons, default: preferred)
      }
      return WebResumeState(
        sessionID: i,
        snapshot: ScreenStackSnapshot(path: p, selections: s, alert: alert, focus: f),
        issuedAt: at, client: c, secret: k)
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
