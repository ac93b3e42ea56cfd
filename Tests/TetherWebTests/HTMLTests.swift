import Testing

@_spi(HandBuilt) @testable import TetherWeb

@Suite struct HTMLTests {
  @Test func textAndAttributesAreEscaped() {
    let node = HTMLNode.element(
      "p", id: "a\"b", [("title", "<\"x\" & y>")], [.text("1 < 2 & <script>")])
    #expect(
      node.html
        == #"<p id="a&quot;b" title="&lt;&quot;x&quot; &amp; y&gt;">1 &lt; 2 &amp; &lt;script&gt;</p>"#
    )
    #expect(
      HTMLNode.element("img", id: "i", [("src", "/x.png")]).html == #"<img id="i" src="/x.png">"#)
  }

  @Test func everyVoidElementIsWrittenWithoutAClosingTag() {
    for tag in [
      "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
      "track", "wbr",
    ] {
      #expect(HTMLNode.element(tag, id: "v").html == "<\(tag) id=\"v\">", "\(tag)")
    }
    #expect(HTMLNode.element("p", id: "p").html == #"<p id="p"></p>"#)
  }

  @Test func aStyleSheetsAndAScriptsTextIsWrittenRawYetCannotEndTheElement() {
    let style = HTMLNode.element(
      "style", id: "s", [], [.text(#"ul > li::after { content: "a & b"; }"#)])
    #expect(style.html == #"<style id="s">ul > li::after { content: "a & b"; }</style>"#)
    // Text that would close the element early, in any letter case, stays inside it.
    let hostile = HTMLNode.element(
      "style", id: "s", [], [.text("a { content: \"</STYLE><script>alert(1)</script>\" }")])
    #expect(!hostile.html.lowercased().dropLast("</style>".count).contains("</style"))
    #expect(hostile.html.hasSuffix("</style>"))
    let script = HTMLNode.element(
      "script", id: "j", [], [.text(#"let s = "</Script><!-- x"; if (1 < 2) {}"#)])
    #expect(
      script.html == #"<script id="j">let s = "<\/Script><\!-- x"; if (1 < 2) {}</script>"#)
  }

  @Test func aTreesDigestIsItsHTMLsAndTheSameInEveryProcess() {
    let page = HTMLNode.element("div", id: "app", [], [.text("hi")])
    #expect(page.digest.count == 16)
    #expect(page.digest == HTMLNode.element("div", id: "app", [], [.text("hi")]).digest)
    #expect(page.digest != HTMLNode.element("div", id: "app", [], [.text("ho")]).digest)
    // FNV-1a 64 of the empty string: no per-process seed.
    #expect(HTMLNode.digest(ofHTML: "") == "cbf29ce484222325")
  }

  @Test func anUnchangedPageNeedsNoPatch() {
    let page = HTMLNode.element("div", id: "app", [], [.element("p", id: "t", [], [.text("hi")])])
    #expect(HTMLPatch.diff(from: page, to: page).isEmpty)
  }

  @Test func changesTravelAsTheSmallestPatches() {
    func page(selected: Int, text: String, extra: Bool) -> HTMLNode {
      let rows = (0..<3).map { index -> HTMLNode in
        .element(
          "button", id: "r\(index)",
          index == selected ? [("class", "row selected")] : [("class", "row")],
          [.text("row \(index)")])
      }
      var children: [HTMLNode] = [
        .element("p", id: "status", [], [.text(text)]),
        .element("div", id: "list", [], rows),
      ]
      if extra { children.append(.element("p", id: "more", [], [.text("more")])) }
      return .element("div", id: "app", [], children)
    }
    let before = page(selected: 0, text: "3 rows", extra: false)
    #expect(
      HTMLPatch.diff(from: before, to: page(selected: 1, text: "3 rows", extra: false)) == [
        .attribute(id: "r0", name: "class", value: "row"),
        .attribute(id: "r1", name: "class", value: "row selected"),
      ])
    #expect(
      HTMLPatch.diff(from: before, to: page(selected: 0, text: "4 rows", extra: false)) == [
        .text(id: "status", text: "4 rows")
      ])
    // A child added, the others kept in order: one insert, not the children again.
    let grown = page(selected: 0, text: "3 rows", extra: true)
    #expect(
      HTMLPatch.diff(from: before, to: grown) == [
        .insert(parent: "app", after: "list", html: #"<p id="more">more</p>"#)
      ])
    #expect(HTMLPatch.diff(from: grown, to: before) == [.remove(id: "more")])
    // A child removed and another changed: the removal, then the change in place.
    let replaced = HTMLNode.element("div", id: "app", [], [.element("span", id: "status", [], [])])
    #expect(
      HTMLPatch.diff(from: before, to: replaced) == [
        .remove(id: "list"), .replace(id: "status", html: #"<span id="status"></span>"#),
      ])
  }

  @Test func rowsAddedDeletedOrMovedTravelAlone() {
    func list(_ ids: [Int]) -> HTMLNode {
      .element(
        "ul", id: "l", [],
        ids.map { .element("li", id: "r\($0)", [], [.text("row \($0)")]) })
    }
    #expect(
      HTMLPatch.diff(from: list([1, 2]), to: list([0, 1, 2, 3])) == [
        .insert(parent: "l", after: nil, html: #"<li id="r0">row 0</li>"#),
        .insert(parent: "l", after: "r2", html: #"<li id="r3">row 3</li>"#),
      ])
    #expect(
      HTMLPatch.diff(from: list([1, 2, 3]), to: list([1, 3])) == [.remove(id: "r2")])
    #expect(
      HTMLPatch.diff(from: list([1, 2]), to: list([2, 1])) == [
        .move(parent: "l", id: "r2", after: nil)
      ], "a move: the row alone")
    #expect(
      HTMLPatch.diff(from: list([1]), to: list([2, 3, 4])).first
        == .children(
          id: "l", html: #"<li id="r2">row 2</li><li id="r3">row 3</li><li id="r4">row 4</li>"#),
      "nothing kept: one replacement is smaller")
    let json = ServerMessage(patches: [
      .insert(parent: "l", after: nil, html: "<li id=\"r0\"></li>"), .remove(id: "r9"),
    ]).json
    #expect(json == #"{"p":[["i","l","","\u003cli id=\"r0\">\u003c/li>"],["d","r9"]]}"#)
  }

  @Test func serverMessagesAreCompactJSONSafeInsideAPage() {
    let message = ServerMessage(
      patches: [
        .text(id: "t", text: "a \"b\"\n</script>"), .attribute(id: "r", name: "hidden", value: nil),
      ],
      path: "/gallery", title: nil, focus: "r")
    #expect(
      message.json
        == #"{"p":[["t","t","a \"b\"\n\u003c/script>"],["a","r","hidden"]],"path":"/gallery","f":"r"}"#
    )
    // Focus is named whether or not a patch touches its element; none, nothing.
    #expect(
      ServerMessage(patches: [.text(id: "t", text: "x")], focus: "row").json
        == #"{"p":[["t","t","x"]],"f":"row"}"#)
    #expect(ServerMessage(patches: [.text(id: "t", text: "x")]).json == #"{"p":[["t","t","x"]]}"#)
    // Backspace and form feed take their two-byte escapes, never the six-byte `\u0008`.
    #expect(
      ServerMessage(patches: [.text(id: "t", text: "a\u{08}b\u{0C}c\u{01}")]).json
        == #"{"p":[["t","t","a\bb\fc\u0001"]]}"#)
  }

  @Test(arguments: [
    (#"{"type":"click","id":"s2.1"}"#, ClientMessage.click(id: "s2.1")),
    (#"{"type":"key","key":"ArrowDown"}"#, .key(.arrowDown)),
    (#"{"type":"navigate","path":"/gallery"}"#, .navigate(path: "/gallery")),
    (#"{"type":"dismiss"}"#, .dismissAlert),
  ])
  func pageMessagesDecode(text: String, expected: ClientMessage) throws {
    #expect(try ClientMessage(decoding: text) == expected)
  }

  @Test(arguments: [
    ("not json", "malformed message"),
    (#"{"id":"x"}"#, "malformed message"),
    (#"{"type":"click"}"#, "malformed message: a click needs an id"),
    (#"{"type":"explode"}"#, "unknown message type 'explode'"),
    (#"{"type":"key","key":"F5"}"#, "unknown key 'F5'"),
    (#"{"type":"navigate","path":"gallery"}"#, "malformed message: navigate needs a path"),
    (#"[1,2,3]"#, "malformed message"),
  ])
  func badMessagesAreRefusedWithAReason(text: String, reason: String) {
    #expect(throws: WebSessionError.self) { try ClientMessage(decoding: text) }
    do {
      _ = try ClientMessage(decoding: text)
    } catch {
      #expect(error.description.hasPrefix(reason), "\(error)")
    }
  }

  @Test func oversizedMessagesAreRefusedBeforeDecoding() {
    let text = #"{"type":"click","id":""# + String(repeating: "x", count: 5000) + #""}"#
    #expect(throws: WebSessionError.oversized(bytes: text.utf8.count, limit: 4096)) {
      try ClientMessage(decoding: text)
    }
  }
}
