#if WebServer
  import Crypto
  import Foundation
  import TetherWeb

  extension WebResumeKey {
    /// A key that signs resume tokens with swift-crypto's `HMAC<SHA256>` and checks them
    /// with its constant-time `isValidAuthenticationCode`.
    ///
    /// - Parameter key: The key's bytes: at least ``WebResumeKey/minimumLength`` random ones
    ///   (``WebResumeKey/bytes(_:)`` reads them from hex or base64).
    /// - Returns: The key, named by its id.
    /// - Throws: ``WebResumeKeyError/tooShort(_:)`` for a shorter key.
    public static func hmacSHA256(_ key: [UInt8]) throws(WebResumeKeyError) -> WebResumeKey {
      guard key.count >= minimumLength else { throw .tooShort(key.count) }
      return WebResumeKey(authenticator: CryptoHMACSHA256(key: SymmetricKey(data: key)))
    }
  }

  extension WebResumeSigner {
    /// A signer on swift-crypto's HMAC-SHA256 for keys written as text — hex or base64 of 32
    /// or more random bytes, what `openssl rand -base64 32` prints. The first key signs; the
    /// others (retiring) still verify the tokens they signed, until they are dropped.
    ///
    /// - Parameters:
    ///   - keys: The keys as text, the signing one first.
    ///   - maximumAge: How old a token may be when it is presented.
    /// - Throws: ``WebResumeKeyError`` for the first key that is not good (none at all is
    ///   ``WebResumeKeyError/tooShort(_:)`` of 0).
    public init(
      keyTexts keys: [String], maximumAge: Duration = WebResumeSigner.defaultMaximumAge
    ) throws(WebResumeKeyError) {
      var parsed: [WebResumeKey] = []
      for text in keys {
        parsed.append(try .hmacSHA256(WebResumeKey.bytes(text)))
      }
      guard let signer = WebResumeSigner(keys: parsed, maximumAge: maximumAge) else {
        throw .tooShort(0)
      }
      self = signer
    }
  }

  extension WebSigning {
    /// A registry's keys of its own under swift-crypto's HMAC-SHA256: what
    /// ``TetherWebServer`` gives the registry it makes.
    public static let hmacSHA256 = WebSigning {
      CryptoHMACSHA256(key: SymmetricKey(data: $0))
    }
  }

  extension WebAssets {
    /// The page script's hash as a content security policy source (`'sha256-…'`), by
    /// swift-crypto: a policy with it in `script-src` runs the page's own script and no other
    /// inline script.
    public static let scriptSourceHash: String =
      "'sha256-\(Data(SHA256.hash(data: Array(script.utf8))).base64EncodedString())'"
  }

  /// HMAC-SHA256 by swift-crypto.
  struct CryptoHMACSHA256: WebMessageAuthenticator {
    let key: SymmetricKey

    func authenticationCode(for message: [UInt8]) -> [UInt8] {
      Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }

    func isValidAuthenticationCode(_ code: [UInt8], for message: [UInt8]) -> Bool {
      HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: key)
    }
  }
#endif
