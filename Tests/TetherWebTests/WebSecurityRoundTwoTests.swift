import Foundation
import Synchronization
import Testing
import Tether
import TetherFlow
import TetherTesting
import TetherWebTesting

@_spi(HandBuilt) @testable import TetherWeb

/// An edit-in-place list in miniature: one edit field that moves from row to row (its element
/// id changes with the row), as TodoMVC's does, and a checkbox.
@MainActor
final class MovingFieldView: WebView {
  let text = MutableProperty("")
  let flag = MutableProperty(false)
  let field: TextField
  let box: Checkbox
  var row = 0

  init() {
    field = TextField(text, label: "Edit")
    box = Checkbox(flag, label: "Done")
  }

  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    context.onClick("\(id).next") { [weak self] in self?.row += 1 }
    return .element(
      "div", id: id, [],
      [
        .element("button", id: "\(id).next", [("type", "button")], [.text("Next")]),
        field.render(id: "\(id).row\(row).edit", in: context),
        box.render(id: "\(id).row\(row).box", in: context),
      ])
  }
}

@MainActor
private func movingFieldSession() -> (MovingFieldView, WebSession) {
  let stack = ScreenStack<Int>()
  stack.setRoot(Screen(0, title: "Rows"))
  let view = MovingFieldView()
  let session = WebSession(
    id: "s", stack: stack, appTitle: "Rows", open: { _ in }, makeWebView: { _ in view })
  _ = session.document(script: "/t.js", style: "/t.css")
  session.attach { _ in }
  return (view, session)
}

/// Finding 1 of the second attack run: a client's number reached arithmetic that traps.
@MainActor
@Suite struct ClientNumbersNeverTrapTests {
  @Test func anEditNumberNearTheTopOfIntOnAMovedFieldIsRefusedNotATrap() async {
    let (view, session) = movingFieldSession()
    // One edit on the first row's field, then the field moves to the next row: its numbering
    // starts again on top of the binding's (base 1).
    await session.receive(#"{"type":"input","id":"s1.row0.edit","value":"a","seq":1}"#)
    await session.receive(#"{"type":"click","id":"s1.next","g":1}"#)
    #expect(view.row == 1)
    for field in ["s1.row1.edit", "s1.row1.box"] {
      for number in ["9223372036854775807", "9223372036854775806", "4611686018427387904"] {
        let message =
          field.hasSuffix("box")
          ? #"{"type":"check","id":"\#(field)","checked":true,"seq":\#(number)}"#
          : #"{"type":"input","id":"\#(field)","value":"x","seq":\#(number)}"#
        let refusal = await session.receive(message)
        #expect(refusal != nil, "\(message) was taken")
      }
    }
    #expect(view.text.value == "a" && !view.flag.value, "no out-of-range edit was applied")
    // The session goes on.
    #expect(
      await session.receive(#"{"type":"input","id":"s1.row1.edit","value":"b","seq":1}"#) == nil)
    #expect(view.text.value == "b")
  }

  @Test func everyNumberAClientSendsIsRangeChecked() {
    for bad in [
      #"{"type":"input","id":"a","value":"x","seq":2147483648}"#,
      #"{"type":"check","id":"a","checked":true,"seq":9223372036854775807}"#,
      #"{"type":"click","id":"a","g":9223372036854775807}"#,
      #"{"type":"click","id":"a","g":-9223372036854775808}"#,
      #"{"type":"submit","id":"a","value":"x","seq":9223372036854775807}"#,
      #"{"type":"check","id":"a","checked":true,"seq":1,"ver":9223372036854775807}"#,
    ] {
      #expect(throws: WebSessionError.self, "\(bad)") { try ClientEnvelope(decoding: bad) }
    }
    let top = ClientMessage.maximumNumber
    #expect(
      (try? ClientEnvelope(decoding: #"{"type":"click","id":"a","g":\#(top)}"#))?.gesture == top)
  }

  /// A live session, driven with extreme numbers in every field of every message type, in a
  /// seeded random order: nothing traps, and the session answers a plain edit afterwards.
  @Test func aLiveSessionTakesExtremeNumbersInEveryMessage() async {
    let (view, session) = movingFieldSession()
    let numbers = [
      "0", "-1", "1", "2147483647", "2147483648", "-2147483648", "4294967296",
      "9007199254740993", "9223372036854775807", "-9223372036854775808",
      "9223372036854775808", "18446744073709551616", "1e308", "1e400", "-1e400", "0.5", "1.0",
      "\"1\"", "null", "true", "[]", "{}",
    ]
    let fields = ["s1.next", "s1.row0.edit", "s1.row0.box", "s1.row1.edit", "s1.row1.box", "x"]
    let shapes: [(String, String) -> String] = [
      { id, n in #"{"type":"click","id":"\#(id)","g":\#(n)}"# },
      { id, n in #"{"type":"input","id":"\#(id)","value":"v","seq":\#(n)}"# },
      { id, n in #"{"type":"input","id":"\#(id)","value":"v","seq":\#(n),"g":\#(n)}"# },
      { id, n in #"{"type":"check","id":"\#(id)","checked":true,"seq":\#(n)}"# },
      { id, n in #"{"type":"check","id":"\#(id)","checked":false,"seq":1,"ver":\#(n)}"# },
      { id, n in #"{"type":"check","id":"\#(id)","checked":true,"seq":\#(n),"ver":\#(n),"g":2}"# },
      { id, n in #"{"type":"submit","id":"\#(id)","value":"v","seq":\#(n),"g":\#(n)}"# },
      { id, n in #"{"type":"cancel","id":"\#(id)","g":\#(n)}"# },
      { id, n in #"{"type":"focus","id":"\#(id)","g":\#(n)}"# },
      { id, n in #"{"type":"blur","id":"\#(id)","g":\#(n)}"# },
      { id, n in #"{"type":"dblclick","id":"\#(id)","g":\#(n)}"# },
      { _, n in #"{"type":"key","key":"ArrowDown","g":\#(n)}"# },
      { _, n in #"{"type":"navigate","path":"/","g":\#(n)}"# },
      { _, n in #"{"type":"dismiss","g":\#(n)}"# },
      { _, n in #"{"type":"hello","secret":"x","token":"t","g":\#(n)}"# },
    ]
    var random = SeededRandomNumberGenerator(seed: 0x5EC2)
    var sent = 0
    for _ in 0..<3_000 {
      let shape = shapes[Int(random.next() % UInt64(shapes.count))]
      let field = fields[Int(random.next() % UInt64(fields.count))]
      let number = numbers[Int(random.next() % UInt64(numbers.count))]
      await session.receive(shape(field, number))
      sent += 1
    }
    #expect(sent == 3_000)
    // The field moves to a new row (a click with no number: the fuzz used the highest), where
    // the page numbers its edits from 1 again.
    let row = view.row
    #expect(await session.receive(#"{"type":"click","id":"s1.next"}"#) == nil)
    #expect(view.row == row + 1)
    let id = "s1.row\(view.row).edit"
    #expect(
      await session.receive(#"{"type":"input","id":"\#(id)","value":"after","seq":1}"#) == nil)
    #expect(view.text.value == "after")
  }
}

/// Finding 2: escaping compared `Character`s, so a grapheme that contains `<` or `"` went out
/// raw.
@MainActor
@Suite struct EscapingByScalarTests {
  @Test func aPrependOrCombiningScalarDoesNotHideAMarkupCharacter() {
    let attacks = [
      "\u{0600}<meta http-equiv=refresh content=0;url=//x>",
      "\"\u{0301} onmouseover=alert(1) x=\"",
      "a\u{200D}<b>", "\u{0301}&amp;", "<\u{0300}script>", "x\u{0600}>", "\u{0600}&",
      "\u{0600}\"", "\u{1F469}\u{200D}<",
    ]
    for attack in attacks {
      let text = HTMLEscaping.text(attack)
      let attribute = HTMLEscaping.attribute(attack)
      #expect(!text.utf8.contains(UInt8(ascii: "<")), "\(text.unicodeScalars.map(\.value))")
      #expect(!text.utf8.contains(UInt8(ascii: ">")))
      for byte in ["<", ">", "\""] {
        #expect(!attribute.utf8.contains(UInt8(ascii: Unicode.Scalar(byte)!)), "\(attribute)")
      }
      #expect(HTMLEntityDecoding.decode(text) == attack)
      #expect(HTMLEntityDecoding.decode(attribute) == attack)
    }
  }

  @Test func theNotFoundPageWritesThePathEscaped() {
    let path = "/todos/\u{0600}<meta http-equiv=refresh content=\"0;url=//x\">"
    let page = WebPageShell.notFoundPage(path: path, reason: "no screen", appTitle: "T")
    #expect(!page.contains("<meta http-equiv"), "\(page)")
    #expect(page.contains("&lt;meta http-equiv=refresh"))
  }

  @Test func aTitleWithCombiningQuotesStaysInItsAttribute() {
    let node = HTMLNode.element(
      "button", id: "b", [("aria-label", "Delete \"\u{0301} autofocus onfocus=x \"")], [])
    let html = node.html
    let quotes = html.utf8.filter { $0 == UInt8(ascii: "\"") }.count
    #expect(quotes == 4, "only the writer's own quotes: \(html)")
  }

  /// 10,000 random strings rich in the scalars that join graphemes (Prepend, Extend, ZWJ,
  /// combining marks, RTL marks, emoji modifiers) around the markup characters: the escaped
  /// text holds none of them raw, and decodes to exactly the input.
  @Test func randomJoiningStringsEscapeExactly() {
    var random = SeededRandomNumberGenerator(seed: 0x4854_4D4C)
    for _ in 0..<10_000 {
      let input = RandomMarkupText.make(using: &random)
      let text = HTMLEscaping.text(input)
      let attribute = HTMLEscaping.attribute(input)
      #expect(!text.utf8.contains(UInt8(ascii: "<")) && !text.utf8.contains(UInt8(ascii: ">")))
      #expect(!attribute.utf8.contains(UInt8(ascii: "\"")))
      #expect(HTMLEntityDecoding.decode(text) == input)
      #expect(HTMLEntityDecoding.decode(attribute) == input)
    }
  }
}

/// Whether Python's html5lib (an HTML parser that follows the specification's parsing
/// algorithm) is here: CI installs it, and fails a run in which this suite was skipped.
let html5libIsInstalled: Bool = {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["python3", "-c", "import html5lib"]
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  do {
    try process.run()
  } catch {
    return false
  }
  process.waitUntilExit()
  return process.terminationStatus == 0
}()

/// What the writer's HTML means to a conforming parser: 10,000 random strings rich in joining
/// scalars, written as text and as attribute values, parsed by html5lib, come back exactly.
@Suite(.enabled(if: html5libIsInstalled, "needs python3 with html5lib"))
struct EscapingParsedByHTML5LibTests {
  static let parse = """
    import html5lib, json, sys
    document = html5lib.parse(open(sys.argv[1], encoding="utf-8").read(),
                              namespaceHTMLElements=False)
    found = {}
    for element in document.iter("p"):
        key = element.get("id")
        found[key] = element.get("title") if key.startswith("a") else "".join(element.itertext())
    json.dump(found, open(sys.argv[2], "w", encoding="utf-8"))
    """

  @Test func tenThousandRandomStringsParseBackExactly() throws {
    var random = SeededRandomNumberGenerator(seed: 0x3554_4D4C)
    var inputs: [String] = []
    var body = ""
    for index in 0..<10_000 {
      let input = RandomMarkupText.make(using: &random)
      inputs.append(input)
      HTMLNode.element("p", id: "t\(index)", [], [.text(input)]).write(to: &body)
      HTMLNode.element("p", id: "a\(index)", [("title", input)], []).write(to: &body)
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tether-html5lib-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("page.html")
    let result = folder.appendingPathComponent("result.json")
    let document =
      "<!doctype html><html><head><meta charset=utf-8><title>t</title></head><body>"
      + body + "</body></html>"
    try Data(document.utf8).write(to: page)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", Self.parse, page.path, result.path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let parsed = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: result)) as? [String: String])
    var mismatches = 0
    for (index, input) in inputs.enumerated() {
      for key in ["t\(index)", "a\(index)"] where parsed[key] != input {
        mismatches += 1
        if mismatches <= 5 {
          Issue.record(
            "\(key): \(input.unicodeScalars.map { String($0.value, radix: 16) }) came back as \((parsed[key] ?? "nothing").unicodeScalars.map { String($0.value, radix: 16) })"
          )
        }
      }
    }
    #expect(mismatches == 0)
    #expect(parsed.count == 20_000)
  }
}

/// Random text for the escaping properties.
enum RandomMarkupText {
  /// Markup characters, and the scalars that join onto a neighbour to make one grapheme.
  static let alphabet: [Unicode.Scalar] = [
    "<", ">", "&", "\"", "'", "=", "/", " ", "a", "Z", "1", ";", "#", "\n", "\t",
    "\u{0600}", "\u{0605}", "\u{06DD}", "\u{110BD}", "\u{0D4E}",  // Prepend
    "\u{0300}", "\u{0301}", "\u{0336}", "\u{20DD}", "\u{FE0F}", "\u{1F3FB}",  // Extend
    "\u{200D}", "\u{200C}", "\u{200E}", "\u{200F}", "\u{202E}", "\u{2066}",  // ZWJ, RTL
    "\u{1F469}", "\u{1F1EF}", "\u{1F1F5}", "\u{0915}", "\u{094D}", "\u{AC00}", "\u{1100}",
    "\u{0D}", "\u{85}", "\u{2028}", "\u{FFFD}", "\u{10FFFF}",
  ]

  static func make(using random: inout some RandomNumberGenerator) -> String {
    let length = Int(random.next() % 24)
    var scalars = String.UnicodeScalarView()
    for _ in 0..<length {
      scalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))])
    }
    return String(scalars)
  }
}

/// The five entities the writer uses, decoded: what an HTML parser gives back for them.
enum HTMLEntityDecoding {
  static func decode(_ html: String) -> String {
    var output = String.UnicodeScalarView()
    var scalars = html.unicodeScalars[...]
    let entities: [(String, Unicode.Scalar)] = [
      ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#13;", "\r"),
    ]
    outer: while let first = scalars.first {
      if first == "&" {
        for (entity, scalar) in entities where scalars.starts(with: entity.unicodeScalars) {
          output.append(scalar)
          scalars = scalars.dropFirst(entity.unicodeScalars.count)
          continue outer
        }
      }
      output.append(first)
      scalars = scalars.dropFirst()
    }
    return String(output)
  }
}

/// Findings 3, 8 and 9: what a page carries, the browser cookie, and a page's reconnect at any
/// age.
@MainActor
@Suite struct BrowserIdentityTests {
  private func app() -> WebApp { fruitApp() }

  private func attribute(_ name: String, in html: String) throws -> String {
    try pageAttribute(name, in: html)
  }

  private let browserA = WebClient(id: "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1")
  private let browserB = WebClient(id: "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2")

  /// Finding 3: the token's payload named the browser's id (the key to its data), and a node
  /// rebuilding a session took the browser from the token.
  @Test func aPageCarriesNoBrowserIDAndItsTokenOpensNothingInAnotherBrowser() async throws {
    let registry = WebSessionRegistry(app: app(), appearanceWait: .zero, signing: .testHMAC)
    defer { registry.closeAll() }
    guard case .page(let html, let id) = await registry.page(for: "/", client: browserA) else {
      Issue.record("no page")
      return
    }
    let clientID = try #require(browserA.id)
    #expect(!html.contains(clientID), "the page never shows the browser's id")
    let token = try attribute("resume", in: html)
    let payload = try #require(
      WebResumeSigner.bytes(base64URL: token.split(separator: ".")[2]))
    #expect(!String(decoding: payload, as: UTF8.self).contains(clientID))

    // Another browser presenting the page's token: refused, no session made.
    #expect(await registry.resume(id, token: token, client: browserB) == .refused(.otherClient))
    #expect(await registry.resume(id, token: token, client: WebClient()) == .refused(.otherClient))
    #expect(registry.count == 0)
    // The page's own browser: its session, its data.
    #expect(await registry.resume(id, token: token, client: browserA) == .rebuilt)
    #expect(registry.session(id)?.client == browserA)
    // Held now: still only for its browser, token or secret.
    #expect(await registry.resume(id, token: token, client: browserB) == .refused(.otherClient))
    let secret = try attribute("secret", in: html)
    #expect(registry.claims(id, secret: secret, client: browserA))
    #expect(!registry.claims(id, secret: secret, client: browserB))
  }

  /// Finding 9: a page whose token outlived the signer's age got 4403 and reloaded, although
  /// its session was alive and held here.
  @Test func aPageReconnectsToItsHeldSessionAtAnyAge() async throws {
    let clock = TestClock()
    let registry = WebSessionRegistry(
      app: app(), appearanceWait: .zero, signing: .testHMAC, clock: clock)
    defer { registry.closeAll() }
    guard case .page(let html, let id) = await registry.page(for: "/", client: browserA) else {
      Issue.record("no page")
      return
    }
    let token = try attribute("resume", in: html)
    #expect(await registry.resume(id, token: token, client: browserA) == .rebuilt)
    let connection = try #require(registry.attach(id, resync: true, send: { _ in }))
    // An hour on one screen, then the socket drops and the page comes straight back.
    registry.tokenTime = { Date().addingTimeInterval(3_600) }
    registry.detach(id, connection: connection)
    #expect(await registry.resume(id, token: token, client: browserA) == .held)
    #expect(registry.claims(id, secret: try attribute("secret", in: html), client: browserA))
    // Another browser with the same old token gets nothing.
    #expect(await registry.resume(id, token: token, client: browserB) == .refused(.expired))
  }

  /// Finding 8: any 32 hex digits were taken as a browser's id, and a malformed cookie planted
  /// on a more specific path hid the real one (the server issued a new id, losing the list).
  @Test func onlyCookiesThisServerIssuedNameABrowser() throws {
    let registry = WebSessionRegistry(app: app(), signing: .testHMAC)
    let cookies = registry.clientCookies
    let (client, setCookie) = cookies.issue(secure: false)
    let id = try #require(client.id)
    let value = try #require(setCookie.split(separator: ";").first?.split(separator: "=").last)
    #expect(setCookie.hasPrefix("tether-client=\(id)."))
    #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"))
    #expect(!setCookie.contains("Secure"))
    #expect(cookies.client(inCookieHeader: "tether-client=\(value)", secure: false) == client)
    for forged in [
      "tether-client=\(id)", "tether-client=\(id.uppercased()).\(value.split(separator: ".")[1])",
      "tether-client=０１２３４５６７８９abcdef0123456789abcdef", "tether-client=\(WebClient.newID()).AAAA",
      "tether-client=\(value)x", "__Host-tether-client=\(value)",
    ] {
      #expect(cookies.client(inCookieHeader: forged, secure: false) == nil, "\(forged)")
    }
    // A planted, malformed or forged cookie of the same name first does not hide the real one.
    let planted =
      "tether-client=%00evil; tether-client=\(WebClient.newID()); tether-client=\(value)"
    #expect(cookies.client(inCookieHeader: planted, secure: false) == client)
    // Another server's cookies (another key) are not this one's.
    let other = WebSessionRegistry(app: app(), signing: .testHMAC).clientCookies
    #expect(other.client(inCookieHeader: "tether-client=\(value)", secure: false) == nil)
  }

  @Test func overTLSTheCookieIsSecureUnderTheHostPrefix() throws {
    let cookies = WebSessionRegistry(app: app(), signing: .testHMAC).clientCookies
    let (client, setCookie) = cookies.issue(secure: true)
    #expect(setCookie.hasPrefix("__Host-tether-client="))
    #expect(setCookie.contains("; Secure") && setCookie.contains("Path=/"))
    #expect(!setCookie.contains("Domain"))
    let value = try #require(setCookie.split(separator: ";").first?.split(separator: "=").last)
    #expect(cookies.client(inCookieHeader: "__Host-tether-client=\(value)", secure: true) == client)
    #expect(cookies.client(inCookieHeader: "tether-client=\(value)", secure: true) == nil)
  }

  @Test func serversSharingAResumeKeyTakeEachOthersCookies() throws {
    let signer = try #require(WebResumeSigner(testKey: "the cluster's shared key, 32 bytes+"))
    let one = WebSessionRegistry(app: app(), resumeSigner: signer).clientCookies
    let two = WebSessionRegistry(app: app(), resumeSigner: signer).clientCookies
    let (client, setCookie) = one.issue(secure: false)
    let pair = try #require(setCookie.split(separator: ";").first)
    #expect(two.client(inCookieHeader: String(pair), secure: false) == client)
  }
}

/// Finding 5: claimed sessions had no per-client limit, so one address that loaded pages and
/// opened their sockets took every session and the next visitor got 503.
@MainActor
@Suite struct SessionBudgetTests {
  private func app() -> WebApp { fruitApp() }

  private func token(in html: String) throws -> String { try pageAttribute("resume", in: html) }

  /// Loads a page and opens its socket, as a page's script does: a claimed session.
  private func openTab(
    _ registry: WebSessionRegistry, from address: String, client: WebClient
  ) async throws -> WebSessionRegistry.ResumeOutcome? {
    guard
      case .page(let html, let id) = await registry.page(
        for: "/", client: client, address: address)
    else { return nil }
    return await registry.resume(id, token: try token(in: html), client: client, address: address)
  }

  @Test func oneAddressCannotTakeEverySession() async throws {
    let registry = WebSessionRegistry(
      app: app(), capacity: 50, appearanceWait: .zero, signing: .testHMAC)
    defer { registry.closeAll() }
    #expect(registry.sessionsPerAddress == 10, "a fifth of the capacity by default")
    var outcomes: [String: Int] = [:]
    for index in 0..<60 {
      // A fresh cookie for every tab: the address still counts.
      let client = WebClient(id: String(format: "%032x", index))
      let outcome = try await openTab(registry, from: "10.0.0.66", client: client)
      outcomes["\(outcome.map { "\($0)" } ?? "no page")", default: 0] += 1
    }
    #expect(outcomes["rebuilt"] == 10, "\(outcomes)")
    #expect(registry.count == 10)
    // The next visitor, from another address, is served and connects.
    let visitor = WebClient(id: String(repeating: "e", count: 32))
    #expect(try await openTab(registry, from: "10.0.0.7", client: visitor) == .rebuilt)
  }

  @Test func oneBrowserHasAtMostItsTabs() async throws {
    let registry = WebSessionRegistry(
      app: app(), capacity: 500, sessionsPerClient: 3, appearanceWait: .zero, signing: .testHMAC)
    defer { registry.closeAll() }
    let browser = WebClient(id: String(repeating: "b", count: 32))
    var rebuilt = 0
    var refused: [WebSessionRegistry.ResumeOutcome?] = []
    for index in 0..<6 {
      let outcome = try await openTab(registry, from: "10.0.1.\(index)", client: browser)
      if outcome == .rebuilt { rebuilt += 1 } else { refused.append(outcome) }
    }
    #expect(rebuilt == 3)
    #expect(refused.allSatisfy { $0 == nil || $0 == .refused(.overBudget) }, "\(refused)")
    #expect(WebResumeError.overBudget.description.contains("too many sessions"))
  }
}

/// Finding 6, in part: one socket could send as fast as it liked, and each message took the
/// main actor every session shares.
@Suite struct MessageRateTests {
  @Test func aBurstIsFreeThenTheSocketIsReadAtTheSteadyRate() {
    var rate = WebMessageRate(burst: 5, perSecond: 10)
    let start = ContinuousClock.now
    let burst = (0..<5).map { _ in rate.delay(at: start) }
    #expect(burst.allSatisfy { $0 == .zero })
    // The sixth at the same instant waits a tenth of a second; the seventh two tenths.
    #expect(rate.delay(at: start) == .milliseconds(100))
    #expect(rate.delay(at: start) == .milliseconds(200))
    // A socket that pauses gets its budget back, never more than the burst.
    var rested = WebMessageRate(burst: 5, perSecond: 10)
    for _ in 0..<5 { _ = rested.delay(at: start) }
    let later = start.advanced(by: .seconds(60))
    let again = (0..<5).map { _ in rested.delay(at: later) }
    #expect(again.allSatisfy { $0 == .zero })
    #expect(rested.delay(at: later) > .zero)
  }

  @Test func aFloodOfTenThousandMessagesIsSpreadOverTheRate() {
    var rate = WebMessageRate()
    let now = ContinuousClock.now
    var last = Duration.zero
    for _ in 0..<10_000 { last = rate.delay(at: now) }
    // 100 at once, then 50 a second: the last of 10,000 sent at once waits 198 s.
    #expect(last == .seconds(198))
  }
}

/// Finding 6: every keystroke was rendered and diffed twice (the round trip's render, then
/// the render observation's own run for the same change), and a burst of keystrokes behind a
/// busy main actor was handled, and rendered, once per key.
@MainActor
@Suite struct OneRenderPerChangeTests {
  @Test func aKeystrokeIsRenderedOnce() async {
    let (view, session) = movingFieldSession()
    let before = session.renders
    await session.receive(#"{"type":"input","id":"s1.row0.edit","value":"a","seq":1}"#)
    #expect(view.text.value == "a")
    #expect(session.renders == before + 1, "the round trip renders")
    // Once the observations the keystroke scheduled have run, so has the session's.
    await flushObservations()
    #expect(session.renders == before + 1, "the flush did not render the keystroke again")
  }
}

/// Finding 6: a socket's messages waited for the main actor in the socket's own loop, so the
/// loop read nothing else meanwhile (a pong to the server's ping included), and each of a
/// burst of keystrokes was handled on its own.
@Suite struct WebInboxTests {
  private func input(_ field: String, _ value: String, _ seq: Int) -> String {
    #"{"type":"input","id":"\#(field)","value":"\#(value)","seq":\#(seq)}"#
  }

  private func texts(_ entries: [WebInbox.Entry]) -> [String] {
    entries.flatMap(\.envelope.messages).map { message in
      switch message {
      case .input(let id, let value, let sequence): "input \(id) \(value) \(sequence)"
      case .submit(let id): "submit \(id)"
      case .click(let id): "click \(id)"
      default: "\(message)"
      }
    }
  }

  @Test func keystrokesToOneFieldThatWaitAreHandledOnceWithTheNewestText() {
    let inbox = WebInbox(rate: nil)
    #expect(inbox.admit(input("s1.new", "a", 1)) == .startHandler)
    for (index, text) in ["ab", "abc", "abcd"].enumerated() {
      #expect(inbox.admit(input("s1.new", text, index + 2)) == .queued)
    }
    #expect(texts(inbox.next() ?? []) == ["input s1.new abcd 4"])
    #expect(inbox.next() == nil, "the handler's turn ends")
    #expect(inbox.admit(input("s1.new", "x", 5)) == .startHandler, "the next message starts one")
  }

  @Test func nothingIsReorderedOrMergedAcrossAnotherMessage() {
    let inbox = WebInbox(rate: nil)
    let messages = [
      input("s1.new", "a", 1), input("s1.new", "ab", 2),
      #"{"type":"submit","id":"s1.new","value":"ab","seq":2,"g":1}"#,
      input("s1.new", "", 3), input("s1.other", "x", 1), input("s1.new", "c", 4),
      #"{"type":"click","id":"s1.go","g":2}"#, input("s1.new", "cd", 5),
      input("s1.new", "cde", 6),
    ]
    for message in messages { _ = inbox.admit(message) }
    #expect(
      texts(inbox.next() ?? []) == [
        "input s1.new ab 2", "input s1.new ab 2", "submit s1.new", "input s1.new  3",
        "input s1.other x 1", "input s1.new c 4", "click s1.go", "input s1.new cde 6",
      ])
  }

  @Test func aMalformedMessageIsRefusedBeforeTheMainActor() {
    let inbox = WebInbox(rate: nil)
    guard case .refused(let error?) = inbox.admit(#"{"type":"input","id":"a","seq":1e400}"#)
    else {
      Issue.record("a malformed message was queued")
      return
    }
    #expect(error.description.contains("malformed"))
    #expect(inbox.next() == nil)
  }

  @Test func pastItsRateAMessageWaitsInTheInbox() {
    let inbox = WebInbox(rate: WebMessageRate(burst: 2, perSecond: 10))
    let now = ContinuousClock.now
    for number in 1...3 { _ = inbox.admit(#"{"type":"click","id":"b","g":\#(number)}"#, at: now) }
    let waits = (inbox.next() ?? []).map { $0.notBefore - now }
    #expect(waits == [.zero, .zero, .milliseconds(100)])
  }

  @Test func aSocketFarPastItsRateIsReadNoFasterThanIt() {
    let inbox = WebInbox(rate: WebMessageRate(burst: 10, perSecond: 10))
    let now = ContinuousClock.now
    // Keystrokes to one field merge, but each still counts against the rate.
    for number in 1...20 { _ = inbox.admit(input("s1.new", "x\(number)", number), at: now) }
    #expect(inbox.pauseBeforeReading() == .zero, "a second past its rate: read on")
    _ = inbox.admit(input("s1.new", "x21", 21), at: now)
    #expect(inbox.pauseBeforeReading() == .milliseconds(100))
    #expect(inbox.next()?.count == 1, "still one message to handle")
  }

  @Test func mergedKeystrokesStillCountTowardsHowFarTheSocketIsReadAhead() {
    let inbox = WebInbox(rate: nil, limit: 8)
    for number in 1...7 { _ = inbox.admit(input("s1.new", "x\(number)", number)) }
    #expect(!inbox.isFull)
    _ = inbox.admit(input("s1.new", "x8", 8))
    #expect(inbox.isFull, "eight read ahead of the session, though one waits")
    #expect(inbox.next()?.count == 1)
    #expect(!inbox.isFull, "the session took them")
  }

  @Test func aSocketThatEndsWaitsUntilItsMessagesAreHandled() async {
    let inbox = WebInbox(rate: nil)
    #expect(inbox.admit(#"{"type":"click","id":"b","g":1}"#) == .startHandler)
    let handled = Mutex(false)
    let ended = Task {
      await inbox.drained()
      return handled.withLock { $0 }
    }
    #expect(inbox.next()?.count == 1)
    handled.withLock { $0 = true }
    #expect(inbox.next() == nil, "none left: the handler's turn ends")
    #expect(await ended.value, "the wait ended after the last message was handled")
    await WebInbox(rate: nil).drained()  // an inbox that never had a message is drained
  }

  /// Finding 4 of the third round: a closed socket's queued messages were all still handled.
  /// Its numbered gestures still are (a person's last click before the tab closed); the rest
  /// is dropped, whether it waits or was already taken.
  @Test func onceItsSocketHasEndedOnlyAnInboxsNumberedGesturesAreHandled() {
    let inbox = WebInbox(rate: nil)
    _ = inbox.admit(#"{"type":"click","id":"a","g":1}"#)
    _ = inbox.admit(input("f", "draft", 1))
    let taken = inbox.next() ?? []
    _ = inbox.admit(#"{"type":"click","id":"b","g":2}"#)
    _ = inbox.admit(input("f", "more", 2))
    #expect(taken.allSatisfy(inbox.keeps), "while open, everything is handled")
    inbox.socketEnded()
    #expect(taken.filter(inbox.keeps).map(\.envelope.gesture) == [1])
    let waiting = inbox.next() ?? []
    #expect(waiting.map(\.envelope.gesture) == [2], "the draft that waited was dropped")
    // The server closed the socket (the page fell behind or broke a rule): nothing more is
    // handled; a page that reconnects sends its unacknowledged gestures again.
    inbox.close()
    #expect(!waiting.contains(where: inbox.keeps))
  }

  @Test func aFullInboxHoldsTheReaderUntilTheSessionTakesItsMessages() async {
    let inbox = WebInbox(rate: nil, limit: 3)
    for number in 1...3 { _ = inbox.admit(#"{"type":"click","id":"b","g":\#(number)}"#) }
    #expect(inbox.isFull)
    let reader = Task { await inbox.waitForRoom() }
    let taken = inbox.next()
    await reader.value
    #expect(taken?.count == 3 && !inbox.isFull)
    inbox.close()
    #expect(inbox.admit(#"{"type":"click","id":"b","g":4}"#) == .refused(nil))
  }
}

/// The fruit list app of the stateless-page tests.
@MainActor
func fruitApp() -> WebApp {
  WebApp(title: "Fruit", rootFlow: { FruitRowsFlow() }) { screen in
    ListView(rows: screen.destination, format: { [$0.name] }, onChoose: { _ in })
  }
}

/// The value of the page script's `data-<name>` attribute.
func pageAttribute(_ name: String, in html: String) throws -> String {
  let start = try #require(html.range(of: "data-\(name)=\""))
  return String(html[start.upperBound...].prefix { $0 != "\"" })
}
