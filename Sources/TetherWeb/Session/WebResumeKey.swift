/// Computes and checks a message authentication code under one secret key: what signs and
/// verifies resume tokens.
///
/// TetherWebHummingbird's `WebResumeKey.hmacSHA256(_:)` is one on swift-crypto's
/// `HMAC<SHA256>`. TetherWeb has no cryptography of its own: an app that serves pages without
/// that module brings its own authenticator (``WebResumeKey/init(authenticator:)``,
/// ``WebSigning``).
public protocol WebMessageAuthenticator: Sendable {
  /// The code of `message` under this authenticator's key.
  ///
  /// - Parameter message: The bytes to authenticate.
  /// - Returns: The code.
  func authenticationCode(for message: [UInt8]) -> [UInt8]

  /// Whether `code` is the code of `message` under this key, compared in constant time.
  ///
  /// - Parameters:
  ///   - code: The code presented.
  ///   - message: The bytes it claims to authenticate.
  /// - Returns: `true` only for the right code.
  func isValidAuthenticationCode(_ code: [UInt8], for message: [UInt8]) -> Bool
}

/// One key that signs or verifies resume tokens, named by an id every token carries, so a
/// cluster can roll keys over: servers sign with the new key and still accept the old one
/// until the tokens it signed have expired.
public struct WebResumeKey: Sendable {
  /// The key's id: 8 hex digits derived from the key (its code for a fixed text), so every
  /// server that has the key names it alike and the id says nothing about the key.
  public let id: String
  /// What signs and checks under the key.
  public let authenticator: any WebMessageAuthenticator

  /// The fewest bytes a key may have: 32, the size of the HMAC-SHA256 code.
  public static let minimumLength = 32

  /// A key that signs with `authenticator`.
  ///
  /// - Parameter authenticator: The authenticator holding the key.
  public init(authenticator: any WebMessageAuthenticator) {
    self.authenticator = authenticator
    id = Self.hex(
      authenticator.authenticationCode(for: Array("tether resume key id".utf8)).prefix(4))
  }

  /// The bytes of a key written as text: 64 or more hex digits, or base64 (or base64url) of
  /// 32 or more bytes — what `openssl rand -base64 32` or `-hex 32` prints.
  ///
  /// - Parameter text: The key as text; surrounding spaces and newlines are ignored.
  /// - Returns: The key's bytes.
  /// - Throws: ``WebResumeKeyError`` saying what is wrong with it.
  public static func bytes(_ text: String) throws(WebResumeKeyError) -> [UInt8] {
    let trimmed = text.filter { !$0.isWhitespace }
    let bytes: [UInt8]
    if trimmed.count % 2 == 0, !trimmed.isEmpty, trimmed.allSatisfy(\.isHexDigit) {
      var decoded: [UInt8] = []
      var index = trimmed.startIndex
      while index < trimmed.endIndex {
        let next = trimmed.index(index, offsetBy: 2)
        guard let byte = UInt8(trimmed[index..<next], radix: 16) else { throw .notHexOrBase64 }
        decoded.append(byte)
        index = next
      }
      bytes = decoded
    } else if let decoded = WebResumeSigner.bytes(base64URL: Self.base64URL(trimmed)) {
      bytes = decoded
    } else {
      throw .notHexOrBase64
    }
    guard bytes.count >= minimumLength else { throw .tooShort(bytes.count) }
    guard Set(bytes).count > 4 else { throw .notRandom }
    return bytes
  }

  private static func base64URL(_ text: String) -> String {
    String(
      text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .drop { $0 == "=" }.reversed().drop { $0 == "=" }.reversed())
  }

  static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
  }
}

/// Why a resume key was refused.
public enum WebResumeKeyError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Shorter than ``WebResumeKey/minimumLength`` bytes (the count it had).
  case tooShort(Int)
  /// Neither hex digits nor base64.
  case notHexOrBase64
  /// So few distinct bytes it cannot be random (all zeros, a repeated letter).
  case notRandom

  /// One sentence, for the line a server prints when it refuses to start.
  public var description: String {
    switch self {
    case .tooShort(let count):
      "the resume key has \(count) bytes; it needs \(WebResumeKey.minimumLength) random bytes "
        + "(openssl rand -base64 32)"
    case .notHexOrBase64:
      "the resume key is neither hex nor base64; make one with openssl rand -base64 32"
    case .notRandom:
      "the resume key is not random (too few distinct bytes); make one with openssl rand -base64 32"
    }
  }
}

/// How a registry signs with keys of its own — the tokens of pages it serves stateless, the
/// cookies that name browsers — when it is given no shared key: it makes an authenticator
/// under 32 fresh random bytes. TetherWebHummingbird's `WebSigning.hmacSHA256` is swift-crypto's
/// HMAC-SHA256, and its server passes it; a registry without one signs nothing (see
/// ``WebSessionRegistry/init(app:capacity:gracePeriod:firstRender:unclaimedLifetime:unclaimedPerAddress:sessionsPerAddress:sessionsPerClient:appearanceWait:resumeSigner:clientKeys:signing:clock:)``).
public struct WebSigning: Sendable {
  /// Makes an authenticator under `bytes`, a key of ``WebResumeKey/minimumLength`` random bytes.
  public let makeAuthenticator: @Sendable (_ bytes: [UInt8]) -> any WebMessageAuthenticator

  /// Signing with the authenticators `makeAuthenticator` makes.
  ///
  /// - Parameter makeAuthenticator: Makes an authenticator under a key's bytes.
  public init(
    _ makeAuthenticator: @escaping @Sendable (_ bytes: [UInt8]) -> any WebMessageAuthenticator
  ) {
    self.makeAuthenticator = makeAuthenticator
  }

  /// A key of 32 fresh random bytes.
  func randomKey() -> WebResumeKey {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<WebResumeKey.minimumLength).map { _ in
      UInt8.random(in: 0...255, using: &generator)
    }
    return WebResumeKey(authenticator: makeAuthenticator(bytes))
  }
}

/// Whether `a` and `b` are equal, in time that depends only on their lengths: comparing a
/// signature must not tell an attacker how many of its leading bytes were right.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  guard a.count == b.count else { return false }
  var difference: UInt8 = 0
  for index in a.indices { difference |= a[index] ^ b[index] }
  return difference == 0
}
