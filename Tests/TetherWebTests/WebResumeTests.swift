import Foundation
import Testing
import Tether
import TetherFlow

@_spi(HandBuilt) @testable import TetherWeb

private func hex(_ bytes: [UInt8]) -> String {
  bytes.map { String(format: "%02x", $0) }.joined()
}

/// The tests' hash and MAC, against the published test vectors: the tokens these tests sign
/// are signed under a real MAC.
@Suite struct HMACTests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func sha256MatchesFIPS180(message: String, digest: String) {
    #expect(hex(SHA256.hash(Array(message.utf8))) == digest)
  }

  @Test func sha256OfEveryLengthAroundABlockBoundary() {
    // 55 bytes pad within one block, 56 spill into a second, 64 fill one exactly.
    let digests = (50...70).map { hex(SHA256.hash([UInt8](repeating: 0x61, count: $0))) }
    #expect(Set(digests).count == digests.count)
    #expect(digests[5] == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
    #expect(digests[6] == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    #expect(digests[14] == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
  }

  @Test func hmacMatchesRFC4231() {
    #expect(
      hex(hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
        == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    #expect(
      hex(
        hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    // A key longer than a block is hashed first.
    #expect(
      hex(
        hmacSHA256(
          key: [UInt8](repeating: 0xaa, count: 131),
          message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
        == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }

  @Test func comparingIsByEveryByte() {
    #expect(constantTimeEqual([1, 2, 3], [1, 2, 3]))
    #expect(!constantTimeEqual([1, 2, 3], [1, 2, 4]))
    #expect(!constantTimeEqual([1, 2, 3], [1, 2]))
  }
}

@Suite struct WebResumeSignerTests {
  let state = WebResumeState(
    sessionID: "0123abcd", path: "/gallery/photo/7", selections: ["2:7", nil],
    alert: ScreenAlert(
      title: "Sure?", message: "Really \"sure\" </script>",
      buttons: [ScreenAlert.Button("No", role: .cancel), ScreenAlert.Button("Yes", role: .confirm)])
  )
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func aSignedStateComesBackWhole() throws {
    let signer = try #require(WebResumeSigner(testKey: "a key the cluster shares, 32 bytes+"))
    let token = signer.sign(state, now: now)
    var expected = state
    expected.issuedAt = 1_800_000_000
    let verified = try signer.verify(token, now: now.addingTimeInterval(60))
    #expect(verified == expected)
    #expect(verified.showsSamePage(as: state), "only the signing time differs")
    var elsewhere = state
    elsewhere.selections = ["2:8", nil]
    #expect(!verified.showsSamePage(as: elsewhere))
    #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
  }

  @Test func anAlertsButtonsKeepTheirActionsInAToken() throws {
    enum Action: Codable, Equatable { case remove(id: Int) }
    let signer = try #require(WebResumeSigner(testKey: "a key the cluster shares, 32 bytes+"))
    let remove = ScreenAlert.Button("Remove", role: .confirm, action: Action.remove(id: 2))
    var confirming = state
    confirming.alert = ScreenAlert(
      title: "Remove “Swift”?", message: "It leaves the list.",
      buttons: [remove, ScreenAlert.Button("Cancel", role: .cancel)])
    let verified = try signer.verify(signer.sign(confirming, now: now), now: now)
    #expect(verified.alert == confirming.alert)
    #expect(verified.alert?.buttons.first?.action(as: Action.self) == .remove(id: 2))
    #expect(verified.alert?.buttons.last?.payload == nil)
  }

  @Test func aDestructiveButtonAndANamedDefaultSurviveAToken() throws {
    let signer = try #require(WebResumeSigner(testKey: "a key the cluster shares, 32 bytes+"))
    let delete = ScreenAlert.Button("Delete", role: .destructive)
    let cancel = ScreenAlert.Button("Cancel", role: .cancel)
    for alert in [
      ScreenAlert(title: "Delete?", message: "M", buttons: [delete, cancel]),
      ScreenAlert(title: "Delete?", message: "M", buttons: [delete, cancel], default: delete),
      ScreenAlert(
        title: "Photo", message: "", buttons: [delete, cancel], style: .confirmationDialog),
    ] {
      var asking = state
      asking.alert = alert
      let verified = try signer.verify(signer.sign(asking, now: now), now: now)
      #expect(verified.alert == alert)
      #expect(verified.alert?.style == alert.style)
      #expect(verified.alert?.defaultButton == alert.defaultButton)
    }
  }

  @Test func aShortKeyIsRefused() {
    #expect(WebResumeSigner(testKey: "short") == nil)
    #expect(WebResumeSigner(testKey: String(repeating: "k", count: 31)) == nil)
    #expect(WebResumeSigner(testKey: String(repeating: "k", count: 32)) != nil)
    #expect(WebResumeSigner(keys: []) == nil)
  }

  @Test func aKeyIsReadFromHexOrBase64AndMustBe32RandomBytes() throws {
    let bytes = (0..<32).map { UInt8($0 * 7 % 256) }
    let hex = bytes.map { String(format: "%02x", $0) }.joined()
    #expect(try WebResumeKey.bytes(hex) == bytes)
    #expect(try WebResumeKey.bytes(Data(bytes).base64EncodedString() + "\n") == bytes)
    #expect(throws: WebResumeKeyError.tooShort(16)) {
      try WebResumeKey.bytes(Data(bytes.prefix(16)).base64EncodedString())
    }
    #expect(throws: WebResumeKeyError.notRandom) {
      try WebResumeKey.bytes(String(repeating: "00", count: 32))
    }
    #expect(throws: WebResumeKeyError.notHexOrBase64) { try WebResumeKey.bytes("not a key!") }
    #expect(WebResumeKeyError.tooShort(16).description.contains("32 random bytes"))
  }

  @Test func aTokenNamesItsVersionAndKeyAndAnUnknownKeyIsRefused() throws {
    let old = try #require(WebResumeKey.test(Array(repeating: 1, count: 16) + Array(0..<16)))
    let new = try #require(WebResumeKey.test(Array(repeating: 2, count: 16) + Array(0..<16)))
    #expect(old.id.count == 8 && old.id != new.id)
    let retiring = try #require(WebResumeSigner(keys: [old]))
    let token = retiring.sign(state, now: now)
    #expect(token.hasPrefix("t1.\(old.id)."))
    // Rolling over: the new key signs, the old one still verifies until it is dropped.
    let rolling = try #require(WebResumeSigner(keys: [new, old]))
    #expect(try rolling.verify(token, now: now).path == state.path)
    #expect(rolling.sign(state, now: now).hasPrefix("t1.\(new.id)."))
    let rolled = try #require(WebResumeSigner(keys: [new]))
    #expect(throws: WebResumeError.badSignature) { try rolled.verify(token, now: now) }
    // Another version is not a token.
    #expect(throws: WebResumeError.malformed) {
      try rolling.verify("t2" + token.dropFirst(2), now: now)
    }
  }

  @Test func anAlteredPayloadFailsItsSignature() throws {
    let signer = try #require(WebResumeSigner(testKey: "a key the cluster shares, 32 bytes+"))
    let token = signer.sign(state, now: now)
    let parts = token.split(separator: ".").map(String.init)
    let payload = try #require(WebResumeSigner.bytes(base64URL: parts[2]))
    let altered = String(decoding: payload, as: UTF8.self)
      .replacingOccurrences(of: "/gallery/photo/7", with: "/gallery/photo/8")
    let forged = [parts[0], parts[1], WebResumeSigner.base64URL(Array(altered.utf8)), parts[3]]
      .joined(separator: ".")
    #expect(throws: WebResumeError.badSignature) { try signer.verify(forged, now: now) }
  }

  @Test func anotherKeysTokenFailsItsSignature() throws {
    let signer = try #require(WebResumeSigner(testKey: "a key the cluster shares, 32 bytes+"))
    let other = try #require(WebResumeSigner(testKey: "another cluster's key, also 32 bytes+"))
    #expect(throws: WebResumeError.badSignature) {
      try signer.verify(other.sign(state, now: now), now: now)
    }
  }

  @Test func anOldTokenExpires() throws {
    let signer = try #require(WebResumeSigner(testKey: "a key the cluster shares, 32 bytes+"))
    let token = signer.sign(state, now: now)
    #expect(try signer.verify(token, now: now.addingTimeInterval(300)).path == state.path)
    #expect(throws: WebResumeError.expired, "five minutes by default") {
      try signer.verify(token, now: now.addingTimeInterval(301))
    }
    #expect(throws: WebResumeError.expired, "nor may one come from the future") {
      try signer.verify(token, now: now.addingTimeInterval(-3600))
    }
  }

  @Test(arguments: [
    "", ".", "abc", "a.b.c", "!!!.???", "e30.", "t1.00000000.e30.", "t1..e30.AAAA",
    String(repeating: "A", count: 9000),
  ])
  func garbageIsMalformedOrBadlySigned(token: String) throws {
    let signer = try #require(WebResumeSigner(testKey: "a key the cluster shares, 32 bytes+"))
    #expect(throws: WebResumeError.self) { try signer.verify(token, now: now) }
  }
}

@MainActor
@Suite struct WebSessionResumeTests {

  private func token(in message: String) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]
    else { return nil }
    return object["r"] as? String
  }

  @Test func thePageCarriesATokenAndEachSelectionMoveANewOne() async throws {
    let signer = try #require(WebResumeSigner(testKey: "a key the cluster shares, 32 bytes+"))
    let app = FruitApp()
    let session = app.session(id: "s1", signer: signer)
    let page = session.document(script: "/t.js", style: "/t.css")
    let start = try #require(page.range(of: #"data-resume=""#))
    let first = String(page[start.upperBound...].prefix { $0 != "\"" })
    #expect(try signer.verify(first).selections == ["1"])
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"key","key":"ArrowDown"}"#)
    let moved = try #require(sent.last.flatMap(token(in:)))
    let state = try signer.verify(moved)
    #expect(state.sessionID == "s1")
    #expect(state.path == "/")
    #expect(state.selections == ["2"])
    // The same state is not signed twice: a message that changes nothing else carries none.
    await session.receive(#"{"type":"key","key":"Escape"}"#)
    #expect(sent.count == 1)
  }

  @Test func aSessionWithoutASignerSendsNoToken() async throws {
    let app = FruitApp()
    let session = app.session()
    let page = session.document(script: "/t.js", style: "/t.css")
    #expect(!page.contains("data-resume"))
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"key","key":"ArrowDown"}"#)
    #expect(sent.allSatisfy { !$0.contains(#""r":"#) })
  }

  @Test func anotherServerRebuildsPathSelectionAndAlert() async throws {
    let signer = try #require(WebResumeSigner(testKey: "a key the cluster shares, 32 bytes+"))
    let original = FruitApp()
    let session = original.session(id: "s1", signer: signer)
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"key","key":"ArrowDown"}"#)
    await session.receive(#"{"type":"key","key":"ArrowDown"}"#)
    await session.receive(#"{"type":"key","key":"Enter"}"#)  // Cherry: the sold-out alert
    #expect(original.stack.alert != nil)
    let latest = try #require(sent.compactMap(token(in:)).last)
    let state = try signer.verify(latest)
    #expect(state.alert?.title == "Sold out")

    // Another server: a fresh app, its stack rebuilt from the path, then the rest restored.
    let elsewhere = FruitApp()
    elsewhere.open(ScreenPath(parsing: state.path))
    let resumed = elsewhere.session(id: state.sessionID, signer: signer)
    resumed.restore(state)
    #expect(elsewhere.stack.alert == original.stack.alert)
    var resent: [String] = []
    resumed.attach({ resent.append($0) }, resync: true)
    let page = try #require(resent.first)
    #expect(
      page.contains(
        #"id=\"s1.r3\" type=\"button\" class=\"row\" role=\"option\" aria-selected=\"true\""#))
    #expect(page.contains("No cherries today"))
    #expect(resumed.resumeState.selections == state.selections)
    // Escape dismisses it there, and the list goes on from the restored row.
    await resumed.receive(#"{"type":"key","key":"Escape"}"#)
    await resumed.receive(#"{"type":"key","key":"ArrowUp"}"#)
    #expect(elsewhere.list.reached.last == 1)
  }

  @Test func aSelectionRestoredBeforeTheRowsArriveWaitsForThem() {
    let rows = MutableProperty<[Fruit]>([])
    let list = ListView(rows: Property(rows), format: { [$0.name] }, onChoose: { _ in })
    list.restore("3")
    #expect(list.selection.value == 0)
    rows.value = [Fruit(id: 1, name: "A"), Fruit(id: 2, name: "B"), Fruit(id: 3, name: "C")]
    #expect(list.selection.value == 2)
    #expect(list.restorationKey == "3")
    // A row that is gone by then leaves the usual rule in charge: the first row.
    let other = MutableProperty<[Fruit]>([])
    let second = ListView(rows: Property(other), format: { [$0.name] }, onChoose: { _ in })
    second.restore("9")
    other.value = [Fruit(id: 1, name: "A"), Fruit(id: 2, name: "B")]
    #expect(second.selection.value == 0)
    #expect(second.restorationKey == "1")
  }

  /// A listbox needs an accessible name (WCAG 4.1.2): the screen's title, or the label given.
  @Test func aListIsNamedByTheScreensTitleOrItsLabel() {
    let rows = Property(value: [Fruit(id: 1, name: "A")])
    let titled = ListView(rows: rows, format: { [$0.name] }, onChoose: { _ in })
      .render(id: "s1.1", in: WebRenderContext()).html
    #expect(
      titled.hasPrefix(#"<div id="s1.1" class="list" role="listbox" aria-labelledby="title">"#))
    let labelled = ListView(rows: rows, label: "Fruit & <veg>", format: { [$0.name] }) { _ in }
      .render(id: "s1.1", in: WebRenderContext()).html
    #expect(
      labelled.hasPrefix(
        #"<div id="s1.1" class="list" role="listbox" aria-label="Fruit &amp; &lt;veg&gt;">"#))
  }

  @Test func aStackOfViewsRestoresTheViewThatGaveTheKey() {
    let rows = MutableProperty([Fruit(id: 1, name: "A"), Fruit(id: 2, name: "B")])
    let list = ListView(rows: Property(rows), format: { [$0.name] }, onChoose: { _ in })
    let stack = VStack([Label("Fruit"), list])
    #expect(stack.restorationKey == "1:1")
    stack.restore("1:2")
    #expect(list.selection.value == 1)
    stack.restore("0:2")  // a view with no state: nothing happens
    stack.restore("7:1")  // out of range: nothing happens
    stack.restore("junk")
    #expect(list.selection.value == 1)
  }

  @Test func theHelloMessageRoundTrips() throws {
    let message = ClientMessage.hello(secret: "0f3a", token: "abc.def")
    #expect(message.json == #"{"type":"hello","secret":"0f3a","token":"abc.def"}"#)
    #expect(try ClientMessage(decoding: message.json) == message)
    let plain = ClientMessage.hello(secret: "0f3a", token: nil)
    #expect(plain.json == #"{"type":"hello","secret":"0f3a"}"#)
    #expect(try ClientMessage(decoding: plain.json) == plain)
    let shown = ClientMessage.hello(secret: "0f3a", token: nil, shown: "cbf29ce484222325")
    #expect(shown.json == #"{"type":"hello","secret":"0f3a","shown":"cbf29ce484222325"}"#)
    #expect(try ClientMessage(decoding: shown.json) == shown)
    for refused in [
      #"{"type":"hello"}"#, #"{"type":"hello","secret":""}"#,
      #"{"type":"hello","secret":"a","shown":""}"#,
      #"{"type":"hello","secret":"a","shown":"\#(String(repeating: "f", count: 65))"}"#,
      #"{"type":"hello","secret":"a","token":""}"#, #"{"type":"resume","token":"abc.def"}"#,
    ] {
      #expect(throws: WebSessionError.self, "\(refused)") { try ClientMessage(decoding: refused) }
    }
  }

  @Test func theTokenCarriesTheSecretSoARebuiltSessionKeepsIt() throws {
    let signer = try #require(WebResumeSigner(testKey: String(repeating: "k", count: 32)))
    let state = WebResumeState(
      sessionID: "s", snapshot: ScreenStackSnapshot(path: "/"), secret: "0f3a")
    #expect(try signer.verify(signer.sign(state)).secret == "0f3a")
  }
}

@Suite struct WebAssetsTests {
  @Test func theClientForwardsExactlyTheSwiftKeys() {
    let list = WebKey.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    #expect(WebAssets.script.contains("const keys = [\(list)];"))
    #expect(list.contains("\"ArrowDown\"") && list.contains("\"Escape\""))
  }
}
