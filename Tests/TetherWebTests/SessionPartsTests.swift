import Testing
import Tether
import TetherFlow
import TetherTesting

@_spi(HandBuilt) @testable import TetherWeb

/// A view whose writes finish when the test says so.
@MainActor
private final class SlowWriter: WebView {
  private var pending: CheckedContinuation<Void, Never>?
  private(set) var isWriting = false
  private var done = false

  func render(id: String, in context: WebRenderContext) -> HTMLNode { .element("p", id: id) }

  var isSettled: Bool { done }
  func settled() async {
    guard !done else { return }
    isWriting = true
    await withCheckedContinuation { pending = $0 }
  }

  func finish() {
    done = true
    pending?.resume()
    pending = nil
  }
}

@MainActor
private final class Settled: WebView {
  func render(id: String, in context: WebRenderContext) -> HTMLNode { .element("p", id: id) }
}

/// The session's parts, each on its own: the gesture ledger, the resume tokens, the kept page
/// and the page shell.
@MainActor
@Suite struct SessionPartsTests {
  // MARK: GestureLedger

  @Test func aGestureNumberIsTakenOnceAndAcknowledgedOnceSettled() {
    let ledger = GestureLedger()
    #expect(ledger.take(1))
    #expect(!ledger.take(1), "sent again after a reconnect: handled already")
    #expect(!ledger.take(0))
    ledger.acknowledgeWhenSettled({ [Settled()] }) {}
    #expect(ledger.isSettled)
    #expect(ledger.acknowledgementDue() == 1)
    #expect(ledger.acknowledgementDue() == nil, "told once")
    ledger.pageReconnected()
    #expect(ledger.acknowledgementDue() == 1, "a page that reconnects is told again")
  }

  @Test func aGestureWhoseWriteIsNotDoneIsNotAcknowledged() async {
    let ledger = GestureLedger()
    let writer = SlowWriter()
    var told = 0
    #expect(ledger.take(1))
    ledger.acknowledgeWhenSettled({ [writer] }) { told += 1 }
    #expect(!ledger.isSettled)
    #expect(ledger.acknowledgementDue() == nil)
    #expect(ledger.take(2))
    await expectEventually { writer.isWriting }
    writer.finish()
    await expectEventually { told > 0 && ledger.isSettled }
    #expect(ledger.acknowledgementDue() == 2, "the newer gesture is taken by the same wait")
  }

  // MARK: ResumeTokens

  private func state(_ counter: Int, path: String = "/a") -> WebResumeState {
    WebResumeState(
      sessionID: "s", snapshot: ScreenStackSnapshot(path: path, selections: []), client: nil,
      secret: "x", counter: counter)
  }

  @Test func aTokenIsSignedOnlyWhenThePageChangedAndNumbersGoOn() throws {
    let signer = try #require(WebResumeSigner(testKey: String(repeating: "k", count: 32)))
    let tokens = ResumeTokens(signer: signer)
    var path = "/a"
    let first = tokens.tokenDue(current: { state(0, path: path) }, state: { state($0, path: path) })
    #expect(first != nil && tokens.counter == 1)
    #expect(
      tokens.tokenDue(current: { state(1, path: path) }, state: { state($0, path: path) }) == nil)
    path = "/b"
    #expect(
      tokens.tokenDue(current: { state(1, path: path) }, state: { state($0, path: path) }) != nil)
    #expect(tokens.counter == 2)
    tokens.resume(from: 7)
    tokens.resume(from: 3)
    #expect(tokens.counter == 7, "a rebuilt session goes on from its token's number")
    #expect(!tokens.isAging(now: .now))
    #expect(tokens.isAging(now: .now + signer.maximumAge))
    tokens.forgetSent()
    #expect(!tokens.isAging(now: .now + signer.maximumAge), "nothing sent: nothing to refresh")
  }

  @Test func withNoSignerNoTokenIsDue() {
    let tokens = ResumeTokens(signer: nil)
    #expect(tokens.tokenDue(current: { state(0) }, state: { state($0) }) == nil)
    #expect(tokens.counter == 0)
  }

  // MARK: KeptPage

  private let served: HTMLNode = .element(
    "div", id: "app", [],
    [
      .element("h1", id: "title", [], [.text("A")]),
      .element("input", id: "f", [("type", "text"), ("value", ""), ("data-ack", "0")]),
    ])

  @Test func aPageIsSentTheDifferenceOrTheWholeAppWhenItReconnected() {
    let page = KeptPage()
    page.served(served, path: "/", title: "A", focus: nil)
    var next = served
    _ = next.updateElement("title") { $0 = .element("h1", id: "title", [], [.text("B")]) }
    let update = page.update(to: next, path: "/", title: "A", focus: nil)
    #expect(update.patches == [.text(id: "title", text: "B")] && !update.redrawn)
    page.reconnected(shown: nil)
    let whole = page.update(to: next, path: "/", title: "A", focus: nil)
    #expect(whole.redrawn && whole.patches.first?.targetID == "app")
    // A page that says it shows this very render is sent nothing.
    page.reconnected(shown: KeptPage.shownDigest(of: next))
    let same = page.update(to: next, path: "/", title: "A", focus: nil)
    #expect(same.patches.isEmpty && !same.redrawn)
  }

  @Test func anEditIsWhatThePageShowsSoTheModelTakingItIsNoChange() {
    let page = KeptPage()
    page.served(served, path: "/", title: "A", focus: nil)
    page.pageEdited([("value", "milk")], on: "f", edit: 1)
    var rendered = served
    _ = rendered.updateElement("f") {
      $0 = .element("input", id: "f", [("type", "text"), ("value", "milk"), ("data-ack", "1")])
    }
    #expect(page.update(to: rendered, path: "/", title: "A", focus: nil).patches.isEmpty)
  }

  @Test func thePageIsToldOnlyWhatChanged() {
    let page = KeptPage()
    page.served(served, path: "/", title: "A", focus: "f")
    let same = page.tell(path: "/", title: "A", focus: "f", redrawn: false)
    #expect(same.path == nil && same.title == nil && same.focus == nil)
    let moved = page.tell(path: "/b", title: "B · A", focus: "f", redrawn: true)
    #expect(moved.path == "/b" && moved.title == "B · A" && moved.focus == "f")
  }

  // MARK: WebPageShell

  @Test func theTitleNamesAScreenOnceAndTheNotFoundPageEscapesThePath() {
    #expect(WebPageShell.title(top: nil, app: "Boards") == "Boards")
    #expect(WebPageShell.title(top: "Boards", app: "Boards") == "Boards")
    #expect(WebPageShell.title(top: "Card", app: "Boards") == "Card · Boards")
    let page = WebPageShell.notFoundPage(path: "/<script>", reason: "none", appTitle: "T")
    #expect(page.contains("/&lt;script&gt;") && !page.contains("/<script>"))
  }

  @Test func theDocumentCarriesWhatTheSocketShowsFirst() {
    let document = WebPageShell.document(
      served, title: "A", session: "s1", secret: "sec\"ret", focus: "f", token: "t",
      assets: .linked(script: "/t.js", style: "/t.css", appStyle: nil), base: "/app")
    #expect(document.contains(#"data-session="s1""#))
    #expect(document.contains(#"data-secret="sec&quot;ret""#))
    #expect(document.contains(#"data-shown="\#(KeptPage.shownDigest(of: served))""#))
    #expect(document.contains(#"data-base="/app""#) && document.contains(#"data-focus="f""#))
    #expect(document.contains(#"data-resume="t""#) && document.contains("<title>A</title>"))
  }
}

/// The registry's limits, apart from its table.
@Suite struct SessionAdmissionTests {
  @Test func eachLimitRefusesTheSessionOverItAndSessionsBeingMadeCount() {
    var admission = SessionAdmission(
      capacity: 3, unclaimedPerAddress: 2, sessionsPerAddress: 2, sessionsPerClient: 1)
    #expect(
      admission.refusal(
        open: 0, heldByAddress: 0, heldByClient: 0, waitingAtAddress: 0, address: "a") == nil)
    #expect(
      admission.refusal(
        open: 3, heldByAddress: nil, heldByClient: nil, waitingAtAddress: nil, address: nil)
        == .full)
    #expect(
      admission.refusal(
        open: 1, heldByAddress: 2, heldByClient: nil, waitingAtAddress: nil, address: "a")
        == .overBudget)
    #expect(
      admission.refusal(
        open: 1, heldByAddress: nil, heldByClient: 1, waitingAtAddress: nil, address: nil)
        == .overBudget)
    #expect(
      admission.refusal(
        open: 1, heldByAddress: 1, heldByClient: nil, waitingAtAddress: 2, address: "a")
        == .busy)
    // A session being made for an address counts against its budgets before it exists.
    admission.beginMaking(for: "a")
    #expect(
      admission.refusal(
        open: 0, heldByAddress: 1, heldByClient: nil, waitingAtAddress: 1, address: "a")
        == .overBudget)
    #expect(
      admission.refusal(
        open: 0, heldByAddress: 0, heldByClient: nil, waitingAtAddress: 1, address: "a")
        == .busy)
    #expect(
      admission.refusal(
        open: 0, heldByAddress: 0, heldByClient: nil, waitingAtAddress: 0, address: "b") == nil)
    admission.beginMaking(for: nil)
    admission.beginMaking(for: "b")
    #expect(
      admission.refusal(
        open: 0, heldByAddress: nil, heldByClient: nil, waitingAtAddress: nil, address: nil)
        == .full)
    admission.endMaking(for: "a")
    admission.endMaking(for: nil)
    admission.endMaking(for: "b")
    #expect(admission.making == 0)
  }
}
