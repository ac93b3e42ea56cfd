import Clocks
import Foundation
import Gallery
import Hummingbird
import ShowcaseFlows
import ShowcaseWeb
import Testing
import TetherTesting
import TetherWebHummingbird

@testable import ShowcaseWebServer
@testable import TetherWeb

/// The web showcase without a browser: every screen's page, the registry's life cycle, the
/// origin check, and what a gesture costs on the wire.
@MainActor
@Suite struct ShowcaseWebTests {

  nonisolated static let pages: [(path: String, texts: [String])] = [
    ("/", ["Tether showcase", "Gallery", "Entry"]),
    ("/gallery", ["Popular", "20 photos", "Untitled"]),
    ("/gallery/photo/230200400", ["For sale", #"<img"#, "/images/photos/230200400.png"]),
    ("/courses", ["Courses", "Podcasts Course"]),
    ("/courses/course/2", ["Podcasts Course", "39 lessons"]),
    ("/profile", ["Profile", "@octocat", "Next profile"]),
    ("/articles", ["Articles", "MVVM without the desperation"]),
    ("/articles/article/0", ["MVVM without the desperation"]),
    ("/entry", ["User: —", "Fetch user", "disabled"]),
    ("/entry/greeting/%E6%9D%8E%E5%A8%9C", ["Hello, 李娜!"]),
  ]

  @Test(arguments: pages)
  func everyScreenHasAPageAtItsPath(path: String, texts: [String]) async throws {
    let registry = WebSessionRegistry(services: .bundled(thumbnailDelay: .zero), firstRender: .held)
    guard case .page(let html, let id) = await registry.page(for: path) else {
      Issue.record("no page at \(path)")
      return
    }
    #expect(html.contains(#"<script data-session="\#(id)""#), "the page carries its script")
    // The server says what the page focuses: its selected row, if it shows one.
    let app = try #require(html.range(of: "<div id=\"app\">").map { html[$0.lowerBound...] })
    let body = try #require(app.range(of: "<script").map { app[..<$0.lowerBound] })
    // (A list's row is a `role="option"`; a selected tab, also `aria-selected`, takes no focus.)
    #expect(
      html.contains("data-focus=")
        == body.contains(#"class="row" role="option" aria-selected="true""#))
    // The page has its screens at once; what they load may land just after it is served.
    let session = try #require(registry.session(id))
    for text in texts {
      await expectEventually("\(path) shows \(text)") { session.render().html.contains(text) }
    }
    #expect(registry.session(id)?.path == path)
    registry.closeAll()
  }

  @Test(arguments: ["/nowhere", "/gallery/photo/12", "/courses/course/999", "/entry/greeting"])
  func anUnknownPathIsA404PageWithAWayHome(path: String) async {
    let registry = WebSessionRegistry(services: .bundled(thumbnailDelay: .zero), firstRender: .held)
    guard case .notFound(let html) = await registry.page(for: path) else {
      Issue.record("\(path) should be not found")
      return
    }
    #expect(html.contains("Page not found"))
    #expect(html.contains(#"<a href="/">"#))
    #expect(registry.count == 0, "a 404 keeps no session")
  }

  @Test func aOneRowSelectionChangeSendsUnderTwoPercentOfThePage() async throws {
    let registry = WebSessionRegistry(services: .bundled(thumbnailDelay: .zero), firstRender: .held)
    guard case .page(_, let id) = await registry.page(for: "/gallery") else {
      Issue.record("no gallery page")
      return
    }
    let session = try #require(registry.session(id))
    await expectEventually { session.render().visibleText.contains("20 photos") }
    let html = session.document(script: "/tether.js", style: "/tether.css")
    var sent: [String] = []
    _ = registry.attach(id, resync: false) { sent.append($0) }
    #expect(await registry.receive(id, #"{"type":"key","key":"ArrowDown"}"#) == nil)
    let message = try #require(sent.last)
    let ratio = Double(message.utf8.count) / Double(html.utf8.count)
    #expect(ratio <= 0.02, "\(message.utf8.count) of \(html.utf8.count) bytes")
    print(
      "figure: one-row selection change \(message.utf8.count) B, full page \(html.utf8.count) B")
    registry.closeAll()
  }

  @Test func sessionsAreCappedAndExpireAfterTheirSocketCloses() async throws {
    let clock = TestClock()
    let registry = WebSessionRegistry(
      services: .bundled(thumbnailDelay: .zero), capacity: 2, gracePeriod: .seconds(1),
      firstRender: .held, clock: clock)
    guard case .page(_, let first) = await registry.page(for: "/courses"),
      case .page(_, let second) = await registry.page(for: "/entry")
    else {
      Issue.record("no pages")
      return
    }
    guard case .full = await registry.page(for: "/") else {
      Issue.record("a third session should be refused")
      return
    }
    let connection = try #require(registry.attach(first, resync: false) { _ in })
    #expect(registry.attach("not-a-session", resync: false) { _ in } == nil)
    await clock.advance(by: .milliseconds(999))
    await settleTasks()
    #expect(registry.contains(second), "a page keeps its session for the whole grace period")
    // Past the deadline, not onto it (see below).
    await clock.advance(by: .milliseconds(2))
    await expectEventually("a page that never connected expires") {
      !registry.contains(second)
    }
    #expect(registry.contains(first), "an attached session stays")
    await withLeakTracking { leaks in
      if let session = registry.session(first) { leaks.track(session) }
      registry.detach(first, connection: connection)
      // Past the deadline, not onto it: the expiry task may start sleeping only after this
      // advance, and a test clock's sleep until exactly `now` waits for the next advance.
      await clock.advance(by: .seconds(2))
      await expectEventually { !registry.contains(first) }
    }
    #expect(registry.count == 0)
  }

  @Test func aReconnectWithinTheGracePeriodResumesTheSession() async throws {
    let clock = TestClock()
    let registry = WebSessionRegistry(
      services: .bundled(thumbnailDelay: .zero), gracePeriod: .milliseconds(200),
      firstRender: .held, clock: clock)
    guard case .page(_, let id) = await registry.page(for: "/courses") else { return }
    let first = try #require(registry.attach(id, resync: false) { _ in })
    registry.detach(id, connection: first)
    var resent: [String] = []
    let second = try #require(registry.attach(id, resync: true) { resent.append($0) })
    #expect(second == first + 1)
    registry.detach(id, connection: first)  // the old socket's late close changes nothing
    await clock.advance(by: .seconds(10))
    await settleTasks()
    #expect(registry.contains(id))
    #expect(resent.first?.hasPrefix(#"{"p":[["r","app","#) == true)
    registry.closeAll()
  }

  @Test func anyServerWithTheKeyResumesASessionItNeverHeld() async throws {
    let signer = try #require(
      WebResumeSigner(keys: [
        WebResumeKey.hmacSHA256(Array("the cluster's shared key, 32 bytes+".utf8))
      ]))
    let first = WebSessionRegistry(
      services: .bundled(thumbnailDelay: .zero), firstRender: .held, resumeSigner: signer)
    guard case .page(let html, let id) = await first.page(for: "/gallery") else {
      Issue.record("no Gallery page")
      return
    }
    #expect(html.contains("data-resume="))
    var sent: [String] = []
    _ = first.attach(id, resync: false) { sent.append($0) }
    for _ in 0..<3 { _ = await first.receive(id, #"{"type":"key","key":"ArrowDown"}"#) }
    let last = try #require(sent.last)
    let decoded = try JSONSerialization.jsonObject(with: Data(last.utf8))
    let object = try #require(decoded as? [String: Any])
    let token = try #require(object["r"] as? String)

    // The node that held it died; another one, sharing the key, rebuilds it from the token.
    first.closeAll()
    let second = WebSessionRegistry(
      services: .bundled(thumbnailDelay: .zero), resumeSigner: signer)
    #expect(await second.resume(id, token: token) == .rebuilt)
    let session = try #require(second.session(id))
    #expect(session.path == "/gallery")
    let signed = try signer.verify(token)
    #expect(session.resumeState.selections == signed.selections)
    var resent: [String] = []
    _ = second.attach(id, resync: true) { resent.append($0) }
    let page = try #require(resent.first)
    let redrawn = try #require(
      try JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])
    // The whole app again, with the fourth photo selected (and focused), as on the first node.
    let photos = BundledPhotoService.page(1).photos
    #expect(redrawn["f"] as? String == "s2.3.r\(photos[3].id)")
    #expect(
      page.contains(
        "r\(photos[3].id)\\\" type=\\\"button\\\" class=\\\"row\\\" role=\\\"option\\\" aria-selected"
      ))
    // Presenting it again changes nothing: the session is here now.
    let rebuilt = second.session(id)
    #expect(await second.resume(id, token: token) == .held)
    #expect(second.session(id) === rebuilt)
    #expect(second.count == 1)
    second.closeAll()
  }

  @Test func aSessionBehindThePageIsRebuiltFromItsNewerToken() async throws {
    // Node A served the page; the socket went to node B, where the page moved on to a photo;
    // B died, and the reconnect reached A, which still holds the session as it served it.
    let signer = try #require(
      WebResumeSigner(keys: [
        WebResumeKey.hmacSHA256(Array("the cluster's shared key, 32 bytes+".utf8))
      ]))
    let nodeA = WebSessionRegistry(
      services: .bundled(thumbnailDelay: .zero), firstRender: .held, resumeSigner: signer)
    guard case .page(_, let id) = await nodeA.page(for: "/gallery") else {
      Issue.record("no Gallery page")
      return
    }
    let stale = try #require(nodeA.session(id))
    let photo = BundledPhotoService.page(1).photos.first { $0.forSale }
    let detail = "/gallery/photo/\(try #require(photo).id)"
    // B went on from the token A signed, numbering its own tokens after it.
    var state = WebResumeState(
      sessionID: id, path: detail, selections: ["1:Gallery", "2:\(photo?.id ?? 0)", nil])
    state.counter = stale.resumeCounter + 2
    let newer = signer.sign(state)
    #expect(await nodeA.resume(id, token: newer) == .rebuilt)
    let session = try #require(nodeA.session(id))
    #expect(session !== stale)
    #expect(session.path == detail)
    #expect(nodeA.count == 1)
    // The old socket's late close does not detach the new one.
    let connection = try #require(nodeA.attach(id, resync: true) { _ in })
    nodeA.detach(id, connection: connection - 1)
    #expect(session.isAttached)
    nodeA.closeAll()
  }

  @Test func aTokenThatIsNotGoodResumesNothing() async throws {
    let signer = try #require(
      WebResumeSigner(keys: [
        WebResumeKey.hmacSHA256(Array("the cluster's shared key, 32 bytes+".utf8))
      ]))
    let stranger = try #require(
      WebResumeSigner(keys: [
        WebResumeKey.hmacSHA256(Array("somebody else's key, 32 bytes or more!".utf8))
      ]))
    let registry = WebSessionRegistry(
      services: .bundled(thumbnailDelay: .zero), resumeSigner: signer)
    let state = WebResumeState(sessionID: "aaaa", path: "/courses")
    #expect(await registry.resume("aaaa", token: stranger.sign(state)) == .refused(.badSignature))
    #expect(await registry.resume("bbbb", token: signer.sign(state)) == .refused(.otherSession))
    #expect(await registry.resume("aaaa", token: "not a token") == .refused(.malformed))
    let nowhere = WebResumeState(sessionID: "cccc", path: "/nowhere")
    #expect(await registry.resume("cccc", token: signer.sign(nowhere)) == .refused(.unknownPath))
    #expect(registry.count == 0, "a refused token leaves no session behind")
    let without = WebSessionRegistry(services: .bundled(thumbnailDelay: .zero), firstRender: .held)
    #expect(await without.resume("aaaa", token: signer.sign(state)) == .refused(.notEnabled))
    #expect(TetherWebServer.closeCode(for: .badSignature) == 4403)
    #expect(TetherWebServer.closeCode(for: .notEnabled) == 4404)
    #expect(TetherWebServer.closeCode(for: .full) == 4503)
  }

  @Test func statsAreOneTypeOnBothEndsOfTheWire() throws {
    let stats = WebServerStats(sessions: 3, connected: 2, liveViewModels: 7, heapBytes: 1_048_576)
    #expect(stats.json == #"{"connected":2,"heapBytes":1048576,"liveViewModels":7,"sessions":3}"#)
    #expect(try WebServerStats(json: stats.json) == stats)
    let unknown = try WebServerStats(
      json: #"{"connected":0,"heapBytes":null,"liveViewModels":0,"sessions":0}"#)
    #expect(unknown.heapBytes == nil)
    #expect(throws: DecodingError.self) { try WebServerStats(json: #"{"sessions":1}"#) }
  }

  /// Lets every task the registry started run as far as it can, so a `#expect` that something
  /// has *not* happened is not vacuous.
  private func settleTasks() async {
    for _ in 0..<50 { await Task.yield() }
  }

  @Test func onlyThePagesOwnOriginMayOpenASocket() {
    func request(origin: String?) -> Request {
      var fields = HTTPFields()
      if let origin { fields[.origin] = origin }
      return Request(
        head: HTTPRequest(
          method: .get, scheme: "http", authority: "127.0.0.1:8080", path: "/ws",
          headerFields: fields),
        body: .init(buffer: .init()))
    }
    #expect(TetherWebServer.isSameOrigin(request(origin: "http://127.0.0.1:8080")))
    #expect(!TetherWebServer.isSameOrigin(request(origin: "http://evil.example")))
    #expect(!TetherWebServer.isSameOrigin(request(origin: "http://127.0.0.1:9999")))
    #expect(!TetherWebServer.isSameOrigin(request(origin: "null")))
    #expect(!TetherWebServer.isSameOrigin(request(origin: nil)))
  }
}
