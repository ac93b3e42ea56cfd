import Foundation
import ShowcaseWebServer
import Testing
import TetherWebHummingbird

@testable import TetherWeb

/// Resume tokens signed with swift-crypto (checked against RFC 4231): a code changed in any
/// byte or cut short is refused, and the keys a server is started with are read and refused as
/// the README says.
@Suite struct ResumeKeyTests {
  @Test func swiftCryptosCodeMatchesRFC4231AndRefusesAnyOtherCode() throws {
    // RFC 4231, test case 6: a key longer than a block.
    let rfcKey = try WebResumeKey.hmacSHA256([UInt8](repeating: 0xaa, count: 131))
    let code = rfcKey.authenticator.authenticationCode(
      for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
    #expect(
      WebResumeKey.hex(code) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let key = (0..<Int.random(in: 32...200, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      let message = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      let crypto = try WebResumeKey.hmacSHA256(key)
      let expected = crypto.authenticator.authenticationCode(for: message)
      #expect(expected.count == 32)
      #expect(try WebResumeKey.hmacSHA256(key).id == crypto.id, "the id follows the key")
      #expect(crypto.authenticator.isValidAuthenticationCode(expected, for: message))
      var wrong = expected
      wrong[Int.random(in: 0..<wrong.count, using: &generator)] ^= 0x01
      #expect(!crypto.authenticator.isValidAuthenticationCode(wrong, for: message))
      #expect(
        !crypto.authenticator.isValidAuthenticationCode(Array(expected.dropLast()), for: message))
    }
  }

  @Test func aServersKeysAreReadAndWeakOnesRefused() throws {
    let key = Data((0..<32).map { UInt8($0 * 13 % 251) }).base64EncodedString()
    let old = (0..<32).map { String(format: "%02x", $0 * 5 + 1) }.joined()
    let rolling = try ShowcaseWebServer.resumeSigner(key: key, retiring: old)
    let retiring = try ShowcaseWebServer.resumeSigner(key: old, retiring: nil)
    let state = WebResumeState(sessionID: "s", path: "/gallery")
    #expect(try rolling.verify(retiring.sign(state)).path == "/gallery", "the old key's tokens")
    #expect(throws: WebResumeError.badSignature) {
      try retiring.verify(rolling.sign(state))
    }
    #expect(throws: WebResumeKeyError.tooShort(16)) {
      try ShowcaseWebServer.resumeSigner(key: String(repeating: "ab", count: 16), retiring: nil)
    }
    #expect(throws: WebResumeKeyError.notHexOrBase64) {
      try ShowcaseWebServer.resumeSigner(key: key, retiring: "a passphrase, not a key")
    }
  }
}
