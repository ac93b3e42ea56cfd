import Foundation
import Testing
import TetherTesting
import TetherWeb
import TetherWebTesting

// The compiled companion of WebViews.md.
enum WebViewsArticle {
  @MainActor
  final class QuantityViewModel {
    @Output private(set) var quantity = 1
    @Output private(set) var canDecrease = false

    func increaseTapped() {
      quantity += 1
      canDecrease = true
    }

    func decreaseTapped() {
      guard quantity > 1 else { return }
      quantity -= 1
      canDecrease = quantity > 1
    }
  }

  enum Destination {
    case quantity(QuantityViewModel)
  }

  @MainActor
  final class QuantityFlow: FlowController {
    func start(on navigator: any Navigator<Destination>) -> Screen<Destination> {
      Screen(.quantity(QuantityViewModel()), title: "Quantity", owner: self)
    }
  }

  /// A stepper: − 3 +. Its ids derive from the one its container gives it, so they are stable
  /// from one render to the next and a change becomes a patch of one element.
  @MainActor
  final class Stepper: WebScreen {
    enum Action { case decrease, increase }
    private let model: QuantityViewModel

    init(_ model: QuantityViewModel) { self.model = model }

    var body: Markup<Action> {
      div(.class("stepper")) {
        button("−", .ariaLabel("Fewer"), .disabled(!model.canDecrease)).onClick(.decrease)
        element("output") { "\(model.quantity)" }
        button("+", .ariaLabel("More")).onClick(.increase)
      }
    }

    func handle(_ action: Action) {
      switch action {
      case .decrease: model.decreaseTapped()
      case .increase: model.increaseTapped()
      }
    }
  }

  /// The same stepper calling its view model from the markup.
  @MainActor
  struct CompactStepper: WebScreen {
    let model: QuantityViewModel

    var body: Markup<WebCall> {
      div(.class("stepper")) {
        button("−", .ariaLabel("Fewer"), .disabled(!model.canDecrease))
          .onClick(model.decreaseTapped)
        element("output") { "\(model.quantity)" }
        button("+", .ariaLabel("More")).onClick { model.increaseTapped() }
      }
    }
  }

  /// A total above a list: the total is a component, rendered alone when it changes; the rows
  /// are kept while they are unchanged.
  @MainActor
  final class CartViewModel {
    struct Row: Identifiable, Hashable {
      var id: Int
      var title: String
    }
    @Output var total = 0
    @Output var rows = (1...100).map { Row(id: $0, title: "Item \($0)") }
  }

  @MainActor
  final class CartScreen: WebScreen {
    typealias Action = Never
    let model: CartViewModel
    init(_ model: CartViewModel) { self.model = model }

    var body: Markup<Action> {
      section {
        Component { p(.class("total")) { "Total: \(self.model.total)" } }
        ul {
          ForEach(model.rows) { row in
            Cached(row) { li { row.title } }
          }
        }
      }
    }

    func handle(_ action: Action) {}
  }

  @MainActor
  final class CartFlow: FlowController {
    let model = CartViewModel()
    func start(on navigator: any Navigator<CartViewModel>) -> Screen<CartViewModel> {
      Screen(model, title: "Cart", owner: self)
    }
  }

  /// A list with a selection in markup.
  @MainActor
  final class MenuViewModel {
    struct Row: Identifiable, Equatable {
      var id: Int
      var title: String
      var price: String
    }
    @Output var rows = [
      Row(id: 1, title: "Soup", price: "4 €"), Row(id: 2, title: "Tea", price: "2 €"),
    ]
    @Output var chosen: [Int] = []
    func userSelected(row: Int) { chosen.append(rows[row].id) }
  }

  @MainActor
  final class MenuScreen: WebScreen {
    enum Action { case choose(Int) }
    private let model: MenuViewModel

    init(_ model: MenuViewModel) { self.model = model }

    var body: Markup<Action> {
      vstack {
        p(.class("dim")) { "Today's menu" }
        list(model.rows, onChoose: { .choose($0) }) { row in
          span(.class("title")) { row.title }
          span(.class("detail")) { row.price }
        }
      }
    }

    func handle(_ action: Action) {
      switch action {
      case .choose(let row): model.userSelected(row: row)
      }
    }
  }

  @MainActor
  final class MenuFlow: FlowController {
    let model = MenuViewModel()
    func start(on navigator: any Navigator<MenuViewModel>) -> Screen<MenuViewModel> {
      Screen(model, title: "Menu", owner: self)
    }
  }

  @MainActor
  static func makeApp() -> WebApp {
    let app = WebApp(title: "Shop", rootFlow: { QuantityFlow() }) { screen in
      switch screen.destination {
      case .quantity(let model): Stepper(model)
      }
    }
    return app
  }

  @MainActor
  static func makeChromedApp() -> WebApp {
    let app = WebApp(title: "Shop", rootFlow: { QuantityFlow() }) { screen in
      switch screen.destination {
      case .quantity(let model): CompactStepper(model: model)
      }
    }
    .chrome(
      WebPageChrome(
        bar: { bar in
          nav(.class("brand")) {
            if bar.canGoBack { backButton() }
            strong { bar.appTitle }
            pageTitle(bar.title)
          }
        },
        alert: { alert in
          h2 { alert.title }
          p { alert.message }
          div(.class("buttons")) {
            ForEach(alert.buttons, id: \.index) { button in alertButton(button) }
          }
        }))
    return app
  }

  // Client hooks.
  @MainActor final class ShareModel {
    @Output private(set) var link = "https://example.com/cart"
    @Output private(set) var copied = ""
    func didCopy(_ text: String) { copied = text }
  }

  @MainActor struct ShareScreen: WebScreen {
    enum Action { case copied(String) }
    let model: ShareModel

    var body: Markup<Action> {
      button("Copy link").hook(.clipboard, value: model.link)
        .onHookEvent("copied") { .copied($0) }
    }

    func handle(_ action: Action) {
      switch action {
      case .copied(let text): model.didCopy(text)
      }
    }
  }

  @MainActor final class ShareFlow: FlowController {
    let model = ShareModel()
    func start(on navigator: any Navigator<ShareModel>) -> Screen<ShareModel> {
      Screen(model, title: "Share", owner: self)
    }
  }

  // Streams.
  struct LogLine: Identifiable {
    var id: Int
    var text: String
  }

  @MainActor final class LogModel {
    let lines = ListStream<LogLine>(limit: 1_000)
  }

  @MainActor struct LogScreen: WebScreen {
    let model: LogModel

    var body: Markup<Never> {
      stream(model.lines, .class("log")) { line in
        span { line.text }
      }
    }
  }

  // Uploads.
  @MainActor final class AlbumModel {
    let photos = FileUpload(
      rules: FileUploadRules(accept: ["image/png", "image/jpeg"], maximumCount: 3))
  }

  @MainActor struct AlbumScreen: WebScreen {
    let model: AlbumModel

    var body: Markup<Never> {
      fileInput(model.photos, label: "Add photos")
    }
  }

  @MainActor @Suite struct Checks {
    @Test func theHooksEventReachesTheViewModel() async throws {
      let flow = ShareFlow()
      let app = try WebApp(title: "Share", rootFlow: { flow }) {
        ShareScreen(model: $0.destination)
      }
      .hook(.clipboard, script: "(window.TetherHooks ??= {}).Clipboard = {};")
      let page = try await WebTestPage(app: app)
      defer { page.close() }
      try await page.pushHookEvent("copied", value: "https://example.com/cart", from: "button")
      #expect(flow.model.copied == "https://example.com/cart")
    }

    @Test func aClickOnTheStepperReachesTheViewModelAndComesBackAsAPatch() async throws {
      let page = try await WebTestPage(app: makeApp())
      try await page.click(named: "More")
      #expect(try page.text(".stepper output") == "2")
      #expect(try page.element("button[aria-label=Fewer]")[attribute: "disabled"] == nil)
      #expect(page.sent.last?.contains(#""2""#) == true, "the change went out as a patch")
      page.close()
    }

    @Test func theCompactStepperCallsItsViewModel() async throws {
      let app = WebApp(title: "Shop", rootFlow: { QuantityFlow() }) { screen in
        switch screen.destination {
        case .quantity(let model): CompactStepper(model: model)
        }
      }
      let page = try await WebTestPage(app: app)
      defer { page.close() }
      try await page.click(named: "More")
      try await page.click(named: "More")
      #expect(try page.text(".stepper output") == "3")
      try await page.click(named: "Fewer")
      #expect(try page.text(".stepper output") == "2")
    }

    @Test func theShopsOwnBarNamesTheScreen() async throws {
      let page = try await WebTestPage(app: makeChromedApp())
      defer { page.close() }
      #expect(try page.text("header nav.brand strong") == "Shop")
      #expect(try page.text("header h1#title") == "Quantity")
    }

    @Test func theMenusListTakesTheKeysThroughItsScreen() async throws {
      let flow = MenuFlow()
      let app = WebApp(title: "Menu", rootFlow: { flow }) { MenuScreen($0.destination) }
      let page = try await WebTestPage(app: app)
      defer { page.close() }
      #expect(try page.texts("[role=option] .detail") == ["4 €", "2 €"])
      try await page.press(.end)
      try await page.press(.enter)
      #expect(flow.model.chosen == [2])
    }

    @Test func aComponentIsRenderedAloneAndTheRowsAreNotBuiltAgain() async throws {
      let flow = CartFlow()
      let app = WebApp(title: "Cart", rootFlow: { flow }) { CartScreen($0.destination) }
      let page = try await WebTestPage(app: app)
      defer { page.close() }
      let sent = page.sent.count
      flow.model.total = 42
      try await page.waitUntil("the total shows 42") { try page.text("p.total") == "Total: 42" }
      let patches = page.sent[sent...].joined()
      #expect(patches.contains("Total: 42") && !patches.contains("Item"), "\(patches)")
      #expect(try page.texts("li").count == 100)
    }
  }
}

extension WebHook {
  fileprivate static let clipboard = WebHook("Clipboard")
}
