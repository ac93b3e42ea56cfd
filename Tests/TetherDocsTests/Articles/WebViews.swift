import Foundation
import Testing
import TetherTesting
import TetherWeb

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
  final class Stepper: WebView {
    private let model: QuantityViewModel

    init(_ model: QuantityViewModel) { self.model = model }

    func render(id: String, in context: WebRenderContext) -> HTMLNode {
      context.onClick("\(id).minus") { [model] in model.decreaseTapped() }
      context.onClick("\(id).plus") { [model] in model.increaseTapped() }
      var minus: [(name: String, value: String)] = [("aria-label", "Fewer")]
      if !model.canDecrease { minus.append(("disabled", "")) }
      return .element(
        "div", id: id, [("class", "stepper")],
        [
          .element("button", id: "\(id).minus", minus, [.text("−")]),
          .element("output", id: "\(id).value", [], [.text("\(model.quantity)")]),
          .element("button", id: "\(id).plus", [("aria-label", "More")], [.text("+")]),
        ])
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
      let stack = ScreenStack<Destination>()
      QuantityFlow().startFlow(on: stack)
      let session = WebSession(
        id: "docs", stack: stack, appTitle: "Shop", open: { _ in },
        makeView: { screen in
          switch screen.destination {
          case .quantity(let model): Stepper(model)
          }
        })
      let page = session.document(script: "/tether.js", style: "/tether.css")
      let plus = try #require(
        page.firstMatch(of: /id="([^"]*\.plus)"/).map { String($0.output.1) })
      var sent: [String] = []
      session.attach { sent.append($0) }
      sent.removeAll()
      let error = await session.receive(#"{"type":"click","id":"\#(plus)"}"#)
      #expect(error == nil)
      await expectEventually { sent.contains { $0.contains("2") } }
      #expect(
        stack.topScreen.map { screen in
          if case .quantity(let model) = screen.destination { model.quantity } else { 0 }
        } == 2)
      _ = makeApp()
    }
  }
}
