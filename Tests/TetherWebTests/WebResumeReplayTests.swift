import Foundation
import Testing
import Tether
import TetherFlow

@_spi(HandBuilt) @testable import TetherWeb

/// A one-screen app of fruit rows: each move of the selection is a new resume state.
@MainActor
final class FruitRowsFlow: FlowController {
  let rows = MutableProperty([
    Fruit(id: 1, name: "Apple"), Fruit(id: 2, name: "Banana"), Fruit(id: 3, name: "Cherry"),
  ])

  func start(on navigator: any Navigator<Property<[Fruit]>>) -> Screen<Property<[Fruit]>> {
    Screen(Property(rows), title: "Fruit", owner: self)
  }
}

/// Finding 5 of the attack run: a page's first token, replayed, rolled a live session back.
@MainActor
@Suite struct WebResumeReplayTests {
  private let signer = WebResumeSigner(testKey: String(repeating: "k", count: 32))

  private func registry() throws -> WebSessionRegistry {
    let app = WebApp(title: "Fruit", rootFlow: { FruitRowsFlow() }) { screen in
      ListView(rows: screen.destination, format: { [$0.name] }, onChoose: { _ in })
    }
    let signer: WebResumeSigner = try #require(self.signer)
    return WebSessionRegistry(
      app: app, firstRender: .held, appearanceWait: .zero, resumeSigner: signer)
  }

  private func token(in message: String) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]
    else { return nil }
    return object["r"] as? String
  }

  @Test func anOlderTokenNeverRollsALiveSessionBack() async throws {
    let registry = try registry()
    defer { registry.closeAll() }
    guard case .page(let html, let id) = await registry.page(for: "/") else {
      Issue.record("no page")
      return
    }
    let start = try #require(html.range(of: #"data-resume=""#))
    let first = String(html[start.upperBound...].prefix { $0 != "\"" })
    var sent: [String] = []
    let connection = registry.attach(id, resync: false, send: { sent.append($0) }, close: {})
    _ = await registry.receive(
      id, connection: connection ?? 0, #"{"type":"key","key":"ArrowDown"}"#)
    _ = await registry.receive(
      id, connection: connection ?? 0, #"{"type":"key","key":"ArrowDown"}"#)
    let newest = try #require(sent.compactMap(token(in:)).last)
    #expect(try #require(signer).verify(newest).selections == ["3"])
    let session = try #require(registry.session(id))

    // The page's first token, replayed: the session stays where it is.
    let outcome = await registry.resume(id, token: first)
    #expect(outcome == .superseded, "an older token: \(outcome)")
    #expect(registry.session(id) === session, "the live session is the same object")
    #expect(registry.session(id)?.resumeState.selections == ["3"], "not rolled back")
    // Its own newest token still resumes it as it is.
    #expect(await registry.resume(id, token: newest) == .held)
  }

  @Test func aPageOnOneScreenIsSentAFreshTokenBeforeItsOwnExpires() async throws {
    let registry = try registry()
    defer { registry.closeAll() }
    guard case .page(_, let id) = await registry.page(for: "/") else {
      Issue.record("no page")
      return
    }
    var sent: [String] = []
    _ = registry.attach(id, resync: false, send: { sent.append($0) }, close: {})
    let session = try #require(registry.session(id))
    let before = session.resumeCounter
    session.refreshResumeToken()
    #expect(sent.compactMap(token(in:)).isEmpty, "a young token is not replaced")
    session.refreshResumeToken(now: .now + .seconds(101))
    let fresh = try #require(sent.compactMap(token(in:)).last, "a third of 5 minutes on: a new one")
    let state = try #require(signer).verify(fresh)
    #expect(state.counter == before + 1 && state.selections == ["1"])
  }
}
