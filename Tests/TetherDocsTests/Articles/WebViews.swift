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

    func handle(_ action: Action, gesture: WebGesture?) {
      switch action {
      case .decrease: model.decreaseTapped()
      case .increase: model.increaseTapped()
      }
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

  @MainActor @Suite struct Checks {
    @Test func aClickOnTheStepperReachesTheViewModelAndComesBackAsAPatch() async throws {
      let page = try await WebTestPage(app: makeApp())
      try await page.click(named: "More")
      #expect(try page.text(".stepper output") == "2")
      #expect(try page.element("button[aria-label=Fewer]")[attribute: "disabled"] == nil)
      #expect(page.sent.last?.contains(#""2""#) == true, "the change went out as a patch")
      page.close()
    }
  }
}
