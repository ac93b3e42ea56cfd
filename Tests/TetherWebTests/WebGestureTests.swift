import Testing
import Tether
import TetherFlow
import TetherTesting

@_spi(HandBuilt) @testable import TetherWeb

/// A counter whose Save writes to a slow store: the view is settled only once the write is.
@MainActor
final class SavingCounter {
  let count = MutableProperty(0)
  var saved: [Int] = []
  var gestureIDs: [String?] = []
  private var pending: CheckedContinuation<Void, Never>?
  private var writing: Task<Void, Never>?

  func increment() {
    count.value += 1
    gestureIDs.append(WebGesture.current?.id)
  }

  /// Starts a write that finishes when `finishWrite()` is called.
  func save() {
    let value = count.value
    writing = Task {
      await withCheckedContinuation { pending = $0 }
      saved.append(value)
      writing = nil
    }
  }

  func finishWrite() {
    pending?.resume()
    pending = nil
  }

  /// The screen's first load: it ends when `finishLoad()` is called.
  func load() async {
    await withCheckedContinuation { loading = $0 }
  }

  func finishLoad() {
    loading?.resume()
    loading = nil
  }

  private var loading: CheckedContinuation<Void, Never>?
  var isLoading: Bool { loading != nil }

  var isSaved: Bool { writing == nil }
  var isWriting: Bool { pending != nil }
  func waitSaved() async { await writing?.value }
}

@MainActor
final class SavingCounterView: WebView {
  let counter: SavingCounter
  init(_ counter: SavingCounter) { self.counter = counter }

  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    context.onClick("\(id).plus") { [counter] in counter.increment() }
    context.onClick("\(id).save") { [counter] in counter.save() }
    return .element(
      "div", id: id, [],
      [
        .element("span", id: "\(id).n", [], [.text("\(counter.count.value)")]),
        .element("button", id: "\(id).plus", [("type", "button")], [.text("+")]),
        .element("button", id: "\(id).save", [("type", "button")], [.text("Save")]),
      ])
  }

  var isSettled: Bool { counter.isSaved }
  func settled() async { await counter.waitSaved() }
  var restorationKey: String? { "\(counter.count.value)" }
}

@MainActor
@Suite struct WebGestureTests {
  private func session(
    _ counter: SavingCounter, id: String = "sess", signer: WebResumeSigner? = nil,
    loads: Bool = false
  ) -> WebSession {
    let stack = ScreenStack<Int>()
    var appear: (@MainActor () async -> Void)?
    if loads { appear = { await counter.load() } }
    stack.setRoot(Screen(0, title: "Counter", onAppear: appear))
    return WebSession(
      id: id, stack: stack, appTitle: "App", resumeSigner: signer, open: { _ in },
      makeWebView: { _ in SavingCounterView(counter) })
  }

  @Test func aSettledGestureIsAcknowledgedInItsOwnReply() async {
    let counter = SavingCounter()
    let session = session(counter)
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"click","id":"s1.plus","g":1}"#)
    #expect(sent == [#"{"p":[["t","s1.n","1"]],"k":1}"#])
    #expect(counter.gestureIDs == ["sess-1"], "the handler sees the gesture's id")
  }

  @Test func aGestureSentAgainIsHandledOnceAndAcknowledged() async {
    let counter = SavingCounter()
    let session = session(counter)
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"click","id":"s1.plus","g":1}"#)
    // The socket closed before the page saw the reply; it sends the gesture again.
    session.detach()
    sent.removeAll()
    session.attach({ sent.append($0) }, resync: true)
    #expect(sent.count == 1 && sent[0].hasSuffix(#","k":1}"#), "the redraw acknowledges it")
    await session.receive(#"{"type":"click","id":"s1.plus","g":1}"#)
    #expect(counter.count.value == 1, "handled once")
    #expect(sent.count == 1, "and nothing more to say")
    await session.receive(#"{"type":"click","id":"s1.plus","g":2}"#)
    #expect(counter.count.value == 2)
  }

  @Test func aGestureIsAcknowledgedOnlyOnceWhatItStartedIsKept() async throws {
    let counter = SavingCounter()
    let session = session(counter)
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"click","id":"s1.plus","g":1}"#)
    await session.receive(#"{"type":"click","id":"s1.save","g":2}"#)
    #expect(sent.last?.contains(#""k":2"#) == false, "the write is not done: no acknowledgement")
    await session.receive(#"{"type":"click","id":"s1.plus","g":3}"#)
    #expect(sent.allSatisfy { !$0.contains(#""k":2"#) && !$0.contains(#""k":3"#) })
    // Let the write start waiting, then finish it.
    await expectEventually { counter.isWriting }
    counter.finishWrite()
    await expectEventually { sent.last == #"{"p":[],"k":3}"# }
    #expect(counter.saved == [1])
  }

  @Test func enterCarryingItsTextSubmitsThatText() throws {
    let envelope = try ClientEnvelope(
      decoding: #"{"type":"submit","id":"s1.new","value":"Milk","seq":4,"g":9}"#)
    #expect(envelope.gesture == 9)
    #expect(
      envelope.messages == [
        .input(id: "s1.new", value: "Milk", sequence: 4), .submit(id: "s1.new"),
      ])
    #expect(throws: WebSessionError.self) {
      try ClientEnvelope(decoding: #"{"type":"click","id":"x","g":0}"#)
    }
    #expect(try ClientEnvelope(decoding: #"{"type":"click","id":"x"}"#).gesture == nil)
  }

  @Test func theResumeTokenWaitsForTheGesturesBeforeIt() async throws {
    let counter = SavingCounter()
    let signer = try #require(WebResumeSigner(testKey: String(repeating: "k", count: 32)))
    let session = session(counter, signer: signer)
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"click","id":"s1.plus","g":1}"#)
    let first = try #require(sent.last)
    #expect(first.contains(#""r":"#) && first.hasSuffix(#""k":1}"#), "token and ack together")
    await session.receive(#"{"type":"click","id":"s1.save","g":2}"#)
    await session.receive(#"{"type":"click","id":"s1.plus","g":3}"#)
    // The count changed, but the write before it is not kept: a page resuming now must
    // resume from the state as of gesture 1 and send 2 and 3 again.
    #expect(sent.dropFirst().allSatisfy { !$0.contains(#""r":"#) }, "\(sent)")
    await expectEventually { counter.isWriting }
    counter.finishWrite()
    await expectEventually { sent.last?.hasSuffix(#""k":3}"#) == true }
    #expect(sent.last?.contains(#""r":"#) == true, "the token catches up with the ack")
  }

  @Test func aHeldSessionsFirstMessageWaitsForTheScreensFirstLoad() async {
    let counter = SavingCounter()
    let session = session(counter, loads: true)
    session.holdMessagesUntilAppeared()
    _ = session.document(script: "/t.js", style: "/t.css")
    session.attach { _ in }
    await expectEventually { counter.isLoading }
    let receiving = Task { await session.receive(#"{"type":"click","id":"s1.plus","g":1}"#) }
    for _ in 0..<50 { await Task.yield() }
    #expect(counter.count.value == 0, "not before the screen has loaded")
    counter.finishLoad()
    _ = await receiving.value
    #expect(counter.count.value == 1)
    // Only the first message waits: later ones are handled at once.
    await session.receive(#"{"type":"click","id":"s1.plus","g":2}"#)
    #expect(counter.count.value == 2)
  }
}
