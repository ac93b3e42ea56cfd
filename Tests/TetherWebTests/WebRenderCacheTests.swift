import Testing
import Tether

@_spi(HandBuilt) @testable import TetherWeb

@MainActor
@Suite struct WebRenderCacheTests {
  @Test func anUnchangedKeyReusesTheElementAndItsGestures() {
    let cache = WebRenderCache()
    var renders = 0
    var clicks: [String] = []
    func render(_ key: String, in context: WebRenderContext) -> HTMLNode {
      cache.element("row", key: key, in: context) { id, context in
        renders += 1
        context.onClick("\(id).button") { clicks.append(key) }
        context.focus = "\(id).button"
        return .element("li", id: id, [], [.text(key)])
      }
    }
    let first = WebRenderContext()
    #expect(render("a", in: first).html == #"<li id="row">a</li>"#)
    cache.sweep()
    let second = WebRenderContext()
    #expect(render("a", in: second).html == #"<li id="row">a</li>"#)
    cache.sweep()
    #expect(renders == 1, "the same key renders once")
    // The reused element's gestures and focus are registered in the new render.
    second.clickHandler(for: "row.button")?()
    #expect(clicks == ["a"])
    #expect(second.focus == "row.button")
    let third = WebRenderContext()
    #expect(render("b", in: third).html == #"<li id="row">b</li>"#)
    #expect(renders == 2, "a new key renders again")
    third.clickHandler(for: "row.button")?()
    #expect(clicks == ["a", "b"])
  }

  @Test func anElementNotAskedForInARenderIsForgotten() {
    let cache = WebRenderCache()
    var renders = 0
    let draw = { (id: String, context: WebRenderContext) -> HTMLNode in
      renders += 1
      return .element("li", id: id)
    }
    _ = cache.element("one", key: 1, in: WebRenderContext(), draw)
    _ = cache.element("two", key: 1, in: WebRenderContext(), draw)
    cache.sweep()
    _ = cache.element("one", key: 1, in: WebRenderContext(), draw)
    cache.sweep()  // "two" was not asked for: gone
    _ = cache.element("two", key: 1, in: WebRenderContext(), draw)
    #expect(renders == 3)
  }
}
