import Foundation
import Testing
import Tether
import TetherFlow

@_spi(HandBuilt) @testable import TetherWeb

/// A stateless page (``WebSessionRegistry/FirstRender/stateless``): its session is closed
/// once the page is drawn, and the page's socket rebuilds it from the token the page carries.
@MainActor
@Suite struct WebStatelessPageTests {
  private func app() -> WebApp { fruitApp() }

  private func attribute(_ name: String, in html: String) throws -> String {
    try pageAttribute(name, in: html)
  }

  /// TetherWeb has no cryptography of its own: a registry given no way to sign holds each
  /// page's session instead of signing its token, and names a browser by its id alone.
  @Test func aRegistryThatSignsNothingHoldsItsPagesAndNamesBrowsersByIDAlone() async throws {
    let registry = WebSessionRegistry(app: app(), appearanceWait: .zero)
    defer { registry.closeAll() }
    #expect(registry.firstRender == .held)
    #expect(!registry.readsResumeTokens)
    guard case .page(let html, _) = await registry.page(for: "/", address: "10.0.0.1") else {
      Issue.record("no page")
      return
    }
    #expect(!html.contains("data-resume"), "no token to sign")
    #expect(registry.count == 1, "the page's session waits for its socket")
    let cookies = registry.clientCookies
    let (client, setCookie) = cookies.issue(secure: false)
    let id = try #require(client.id)
    #expect(setCookie.hasPrefix("tether-client=\(id);"))
    #expect(cookies.client(inCookieHeader: "tether-client=\(id)", secure: false) == client)
    for refused in [
      "tether-client=\(id).AAAA", "tether-client=\(id.uppercased())", "tether-client=x",
    ] {
      #expect(cookies.client(inCookieHeader: refused, secure: false) == nil, "\(refused)")
    }
    // Given a way to sign, the same registry signs its pages' tokens.
    let signing = WebSessionRegistry(app: app(), appearanceWait: .zero, signing: .testHMAC)
    #expect(signing.firstRender == .stateless && signing.readsResumeTokens)
  }

  @Test func aPageHoldsNothingUntilItsSocketRebuildsItsSession() async throws {
    let registry = WebSessionRegistry(app: app(), appearanceWait: .zero, signing: .testHMAC)
    defer { registry.closeAll() }
    #expect(registry.firstRender == .stateless, "the default")
    guard case .page(let html, let id) = await registry.page(for: "/", address: "10.0.0.1") else {
      Issue.record("no page")
      return
    }
    #expect(html.contains("Banana"))
    #expect(registry.count == 0, "no session waits for the socket")
    #expect(registry.liveObjects == 0, "the page's flows and view models are freed")
    #expect(registry.readsResumeTokens)

    // The socket's hello: the page's token rebuilds the session, its secret claims it.
    let token = try attribute("resume", in: html)
    let secret = try attribute("secret", in: html)
    #expect(await registry.resume(id, token: token) == .rebuilt)
    #expect(registry.count == 1)
    #expect(registry.claims(id, secret: secret))
    #expect(!registry.claims(id, secret: WebClient.newID()))
    var sent: [String] = []
    let attached = registry.attach(id, resync: true, send: { sent.append($0) }, close: {})
    let connection = try #require(attached)
    #expect(sent.joined().contains("Banana"), "the socket is sent the whole app")
    #expect(
      await registry.receive(id, connection: connection, #"{"type":"key","key":"ArrowDown"}"#)
        == nil)
    #expect(registry.session(id)?.resumeState.selections == ["2"])
    // The same token again (a reconnect) finds the session as it is, not rolled back.
    #expect(await registry.resume(id, token: token) != .rebuilt)
    #expect(registry.session(id)?.resumeState.selections == ["2"])
  }

  @Test func pagesCountAgainstTheCapacityOnlyWhileDrawn() async throws {
    let registry = WebSessionRegistry(
      app: app(), capacity: 2, appearanceWait: .zero, signing: .testHMAC)
    defer { registry.closeAll() }
    var pages: [(html: String, id: String)] = []
    for _ in 0..<5 {
      guard case .page(let html, let id) = await registry.page(for: "/") else {
        Issue.record("a page beyond the capacity was refused, though none is held")
        return
      }
      pages.append((html, id))
    }
    #expect(registry.count == 0)
    // Sockets are what count: two sessions, then the third is refused as full.
    for page in pages.prefix(2) {
      #expect(
        await registry.resume(page.id, token: try attribute("resume", in: page.html)) == .rebuilt)
    }
    #expect(
      await registry.resume(pages[2].id, token: try attribute("resume", in: pages[2].html))
        == .refused(.full))
  }

  @Test func anotherServersPageOrAnAlteredTokenRebuildsNothing() async throws {
    let here = WebSessionRegistry(app: app(), appearanceWait: .zero, signing: .testHMAC)
    let there = WebSessionRegistry(app: app(), appearanceWait: .zero, signing: .testHMAC)
    defer {
      here.closeAll()
      there.closeAll()
    }
    guard case .page(let html, let id) = await there.page(for: "/") else {
      Issue.record("no page")
      return
    }
    let token = try attribute("resume", in: html)
    // Each server draws its stateless pages under a random key of its own.
    #expect(await here.resume(id, token: token) == .refused(.badSignature))
    var altered = Array(token)
    altered[altered.count / 2] = altered[altered.count / 2] == "A" ? "B" : "A"
    #expect(await there.resume(id, token: String(altered)) != .rebuilt)
    #expect(await there.resume(WebClient.newID(), token: token) == .refused(.otherSession))
    #expect(here.count == 0 && there.count == 0)
  }

  @Test func aHeldPageKeepsItsSessionForItsSocket() async throws {
    let registry = WebSessionRegistry(app: app(), firstRender: .held, appearanceWait: .zero)
    defer { registry.closeAll() }
    guard case .page(let html, _) = await registry.page(for: "/") else {
      Issue.record("no page")
      return
    }
    #expect(registry.count == 1)
    #expect(!registry.readsResumeTokens)
    #expect(!html.contains("data-resume"), "a held page without a signer carries no token")
  }

  @Test func aConnectedPageThatShowsTheRenderIsSentNoPatch() async throws {
    let registry = WebSessionRegistry(app: app(), appearanceWait: .zero, signing: .testHMAC)
    defer { registry.closeAll() }
    guard case .page(let html, let id) = await registry.page(for: "/", address: "10.0.0.1") else {
      Issue.record("no page")
      return
    }
    let shown = try attribute("shown", in: html)
    #expect(await registry.resume(id, token: try attribute("resume", in: html)) == .rebuilt)
    var sent: [String] = []
    _ = registry.attach(id, resync: true, shown: shown, send: { sent.append($0) }, close: {})
    #expect(sent.allSatisfy { !$0.contains("\"p\":[[") }, "no patch: \(sent)")
    #expect(!sent.joined().contains("Banana"), "the app is not sent again")

    // The session goes on from the page as served: a key changes only the selection.
    let session = try #require(registry.session(id))
    #expect(await session.receive(#"{"type":"key","key":"ArrowDown"}"#) == nil)
    let patch = try #require(sent.last)
    #expect(patch.contains("aria-selected") && !patch.contains("Banana"), "\(patch)")
  }

  @Test func aConnectedPageThatShowsSomethingElseIsSentTheApp() async throws {
    let registry = WebSessionRegistry(app: app(), appearanceWait: .zero, signing: .testHMAC)
    defer { registry.closeAll() }
    guard case .page(let html, let id) = await registry.page(for: "/", address: "10.0.0.1") else {
      Issue.record("no page")
      return
    }
    #expect(await registry.resume(id, token: try attribute("resume", in: html)) == .rebuilt)
    var sent: [String] = []
    _ = registry.attach(
      id, resync: true, shown: "0123456789abcdef", send: { sent.append($0) }, close: {})
    #expect(sent.joined().contains("Banana"), "the page is sent the whole app to merge")
  }
}
