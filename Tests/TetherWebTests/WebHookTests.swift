import Testing
import Tether
import TetherFlow
import TetherTesting
import TetherWebTesting

@_spi(HandBuilt) @testable import TetherWeb

/// A screen with a client hook: a share link whose value follows the model, which answers
/// the hook's `copied` event only while the link is shown.
@MainActor
final class ShareModel {
  @Output var link = "https://example.com/a"
  @Output var showsLink = true
  @Output private(set) var copied: [String] = []
  func didCopy(_ text: String) { copied.append(text) }
}

@MainActor
final class ShareScreen: WebScreen {
  enum Action { case copied(String) }
  let model: ShareModel
  init(_ model: ShareModel) { self.model = model }

  var body: Markup<Action> {
    section {
      if model.showsLink {
        button("Copy link", .class("copy")).hook(.clipboard, value: model.link)
          .onHookEvent("copied") { .copied($0) }
      }
      p(.class("other")) { "Nothing hooked" }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .copied(let text): model.didCopy(text)
    }
  }
}

extension WebHook {
  static let clipboard = WebHook("Clipboard")
}

@MainActor
final class ShareFlow: FlowController {
  let model = ShareModel()
  func start(on navigator: any Navigator<ShareModel>) -> Screen<ShareModel> {
    Screen(model, title: "Share", owner: self)
  }
}

@MainActor
@Suite struct WebHookTests {
  private func app(_ flow: ShareFlow) throws -> WebApp {
    try WebApp(title: "Share", rootFlow: { flow }) { ShareScreen($0.destination) }
      .hook(.clipboard, script: "(window.TetherHooks ??= {}).Clipboard = {};")
  }

  @Test func aHookedElementCarriesItsHookAndItsValueFollowsTheModel() async throws {
    let flow = ShareFlow()
    let page = try await WebTestPage(app: try app(flow), path: "/")
    defer { page.close() }
    let button = try page.element("button.copy")
    #expect(button[attribute: "data-hook"] == "Clipboard")
    #expect(button[attribute: "data-hook-value"] == "https://example.com/a")
    // A hooked button takes no click of its own: its clicks are its script's.
    #expect(button[attribute: "data-click"] == nil)

    flow.model.link = "https://example.com/<b>"
    await page.settle()
    #expect(
      try page.element("button.copy")[attribute: "data-hook-value"] == "https://example.com/<b>")
  }

  @Test func aDeclaredEventSendsItsActionWithTheValue() async throws {
    let flow = ShareFlow()
    let page = try await WebTestPage(app: try app(flow), path: "/")
    defer { page.close() }
    try await page.pushHookEvent("copied", value: "https://example.com/a", from: "button.copy")
    #expect(flow.model.copied == ["https://example.com/a"])
  }

  /// A script drives only what the screen offers: an event the markup does not declare, one
  /// at an element with no hook, and one at an element that has gone are each refused.
  @Test func anUndeclaredEventIsRefused() async throws {
    let flow = ShareFlow()
    let page = try await WebTestPage(app: try app(flow), path: "/")
    defer { page.close() }
    let id = try page.element("button.copy").id
    let refusal = await page.session.receive(
      ClientMessage.hook(id: id, event: "deleteEverything", value: "").json)
    #expect(refusal == .undeclaredHookEvent(id: id, event: "deleteEverything"))
    let other = try page.element("p.other").id
    let atOther = await page.session.receive(
      ClientMessage.hook(id: other, event: "copied", value: "x").json)
    #expect(atOther == .undeclaredHookEvent(id: other, event: "copied"))
    await #expect(throws: WebTestPage.Failure.self) {
      try await page.pushHookEvent("copied", from: "p.other")
    }

    flow.model.showsLink = false
    await page.settle()
    let gone = await page.session.receive(
      ClientMessage.hook(id: id, event: "copied", value: "x").json)
    #expect(gone == .undeclaredHookEvent(id: id, event: "copied"))
    #expect(flow.model.copied.isEmpty)
  }

  @Test func aHookMessageIsParsedWithItsBounds() throws {
    let message = ClientMessage.hook(id: "s1.0", event: "copied", value: "a \"quoted\" ✓")
    #expect(try ClientMessage(decoding: message.json) == message)
    #expect(
      try ClientMessage(decoding: #"{"type":"hook","id":"s1.0","event":"x"}"#)
        == .hook(id: "s1.0", event: "x", value: ""))
    let long = String(repeating: "e", count: ClientMessage.maximumEventNameSize + 1)
    for text in [
      #"{"type":"hook","id":"s1.0"}"#, #"{"type":"hook","id":"s1.0","event":""}"#,
      #"{"type":"hook","event":"x"}"#, #"{"type":"hook","id":"s1.0","event":"\#(long)"}"#,
      #"{"type":"hook","id":"s1.0","event":7}"#,
    ] {
      #expect(throws: WebSessionError.self) { try ClientMessage(decoding: text) }
    }
  }

  @Test func anAppServesItsHooksScriptsAndItsPagesLoadThemBeforeTheClient() async throws {
    let flow = ShareFlow()
    let registry = WebSessionRegistry(app: try app(flow), firstRender: .held, appearanceWait: .zero)
    defer { registry.closeAll() }
    #expect(registry.hookScripts.map(\.path) == ["/hooks/Clipboard.js"])
    guard case .page(let html, _) = await registry.page(for: "/") else {
      Issue.record("no page")
      return
    }
    let hook = try #require(html.range(of: #"<script src="/hooks/Clipboard.js"></script>"#))
    let client = try #require(html.range(of: "<script data-session="))
    #expect(hook.upperBound <= client.lowerBound, "a hook registers before the client mounts it")
  }

  @Test func aHookNameOrScriptThatCannotBeServedIsRefused() throws {
    let base = WebApp(title: "Share", rootFlow: { ShareFlow() }) { ShareScreen($0.destination) }
    for name in ["", "1st", "a b", "../x", "x.js", String(repeating: "a", count: 65), "é"] {
      #expect(throws: WebHookError.invalidName(name)) {
        try base.hook(WebHook(name), script: "")
      }
    }
    #expect(throws: WebHookError.unservableScript(hook: "Chart")) {
      try base.hook(WebHook("Chart"), script: "x = '</SCRIPT>'")
    }
    #expect(try base.hook(WebHook("Chart-2_b"), script: "").hookScripts.count == 1)
  }

  /// The library's markers cannot be written by an app: a `data-hook` from data would attach
  /// a script the screen never named.
  @Test func theHooksAttributesAreTheLibrarys() {
    #expect(!Attribute.data("hook", "Clipboard").isAllowed)
    #expect(!Attribute.attribute("data-hook-value", "x").isAllowed)
    #expect(!Attribute.attribute("DATA-CLICK", "").isAllowed)
  }
}
