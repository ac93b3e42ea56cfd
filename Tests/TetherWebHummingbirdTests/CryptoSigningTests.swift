#if WebServer
  import Foundation
  import Testing
  import TetherFlow
  import TetherWeb
  import TetherWebHummingbird

  /// TetherWeb signs with swift-crypto only, through this module.
  @Suite struct CryptoSigningTests {
    @Test func aRegistrysOwnKeysAreSwiftCryptosHMAC() {
      // RFC 4231, test case 2.
      let authenticator = WebSigning.hmacSHA256.makeAuthenticator(Array("Jefe".utf8))
      let message = Array("what do ya want for nothing?".utf8)
      let code = authenticator.authenticationCode(for: message)
      #expect(
        code.map { String(format: "%02x", $0) }.joined()
          == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
      #expect(authenticator.isValidAuthenticationCode(code, for: message))
      var wrong = code
      wrong[31] ^= 1
      #expect(!authenticator.isValidAuthenticationCode(wrong, for: message))
    }

    @Test @MainActor func aRegistryWithSwiftCryptoServesStatelessPages() {
      let app = WebApp(title: "Empty", rootFlow: { EmptyFlow() }) { _ in EmptyScreen() }
      let registry = WebSessionRegistry(app: app, signing: .hmacSHA256)
      #expect(registry.firstRender == .stateless && registry.readsResumeTokens)
      let (client, setCookie) = registry.clientCookies.issue(secure: false)
      let value = setCookie.split(separator: ";")[0].dropFirst("tether-client=".count)
      #expect(value.contains("."), "signed")
      #expect(
        registry.clientCookies.client(inCookieHeader: "tether-client=\(value)", secure: false)
          == client)
    }

    @Test func thePageScriptsPolicyHashIsItsSHA256() {
      let source = WebAssets.scriptSourceHash
      #expect(source.hasPrefix("'sha256-") && source.hasSuffix("='"))
      let base64 = source.dropFirst("'sha256-".count).dropLast()
      #expect(Data(base64Encoded: String(base64))?.count == 32)
    }
  }

  @MainActor private final class EmptyFlow: FlowController {
    func start(on navigator: any Navigator<Int>) -> Screen<Int> {
      Screen(0, title: "Empty", owner: self)
    }
  }

  @MainActor private struct EmptyScreen: WebScreen {
    var body: Markup<Never> { p { "Nothing" } }
  }
#endif
