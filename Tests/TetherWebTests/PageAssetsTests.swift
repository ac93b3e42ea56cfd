import Foundation
import Testing
import Tether
import TetherFlow

@_spi(HandBuilt) @testable import TetherWeb

/// A page carries Tether's script and style sheets in its HTML: a browser that has never seen
/// the app opens its socket after one request.
@MainActor
@Suite struct PageAssetsTests {
  private func page(stylesheet: String? = nil) async throws -> String {
    var app = WebApp(title: "Fruit", rootFlow: { FruitRowsFlow() }) { screen in
      ListView(rows: screen.destination, format: { [$0.name] }, onChoose: { _ in })
    }
    app.stylesheet = stylesheet
    let registry = WebSessionRegistry(app: app, firstRender: .held, appearanceWait: .zero)
    defer { registry.closeAll() }
    guard case .page(let html, _) = await registry.page(for: "/") else {
      Issue.record("no page")
      return ""
    }
    return html
  }

  @Test func aPageCarriesTheScriptAndStyleSheetsAndFetchesNothing() async throws {
    let html = try await page(stylesheet: ".fruit { color: green }")
    #expect(html.contains("<style>\(WebAssets.style)</style>"))
    #expect(html.contains("<style>.fruit { color: green }</style>"))
    // The script element holds the client exactly: the policy's hash is of that text.
    let start = try #require(html.range(of: "<script data-session=\""))
    let open = try #require(html[start.upperBound...].firstIndex(of: ">"))
    let end = try #require(html.range(of: "</script>", range: open..<html.endIndex))
    #expect(String(html[html.index(after: open)..<end.lowerBound]) == WebAssets.script)
    // The only link is the icon, given in place so the browser asks for no /favicon.ico.
    let links = html.ranges(of: "<link").count
    #expect(!html.contains(" src=") && links == 1, "nothing to fetch")
    #expect(html.contains(#"<link rel="icon" href="data:,">"#))
  }

  @Test func theScriptAndStyleSheetCanBeCarriedAsTheyAre() {
    #expect(WebAssets.fitsRawTextElement(WebAssets.script))
    #expect(WebAssets.fitsRawTextElement(WebAssets.style))
    #expect(!WebAssets.fitsRawTextElement("a { content: '</STYLE>' }"))
  }

  /// An app style sheet whose text would end its `style` element early is linked (served at
  /// `/app.css`) instead of carried: the page is never cut short.
  @Test func anAppStyleSheetThatWouldEndItsElementIsLinked() async throws {
    let html = try await page(stylesheet: "a::after { content: '</style><script>x()</script>' }")
    #expect(html.contains(#"<link rel="stylesheet" href="/app.css">"#))
    #expect(!html.contains("x()"))
  }
}
