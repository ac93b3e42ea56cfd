import Testing
import Tether
import TetherFlow
import TetherTerminal
import TetherTerminalTesting
import TetherWeb
import TetherWebTesting

// The compiled companion of the README's first screen: one view model and its three faces (a
// live web page, a terminal screen, a SwiftUI view). The SwiftUI face is in
// UsingTetherWithSwiftUIAndUIKit.swift's namespace, whose stubs stand in for SwiftUI where it is
// missing.
@MainActor final class CounterViewModel {
  @Output private(set) var count = 0
  func increment() { count += 1 }
}

// The web: markup the server keeps live over a WebSocket.
@MainActor final class CounterPage: WebScreen {
  enum Action { case increment }
  let model: CounterViewModel
  init(_ model: CounterViewModel) { self.model = model }

  var body: Markup<Action> {
    p { "Count: \(model.count)" }
    button("Add one").onClick(.increment)
  }

  func handle(_ action: Action) { model.increment() }
}

enum ReadmeFaces {
  @MainActor final class CounterFlow: FlowController {
    func start(on navigator: any Navigator<CounterViewModel>) -> Screen<CounterViewModel> {
      Screen(CounterViewModel(), title: "Counter", owner: self)
    }
  }

  @MainActor struct Checks {
    @Test func theWebFaceCounts() async throws {
      let app = WebApp(title: "Counter", rootFlow: { CounterFlow() }) {
        CounterPage($0.destination)
      }
      let page = try await WebTestPage(app: app)
      defer { page.close() }
      try await page.click(named: "Add one")
      try await page.waitUntil("the count") { try page.text("p") == "Count: 1" }
    }

    @Test func theTerminalFaceCounts() throws {
      let stack = ScreenStack<CounterViewModel>()
      let page = TerminalTestPage(stack: stack, width: 30, height: 5) {
        CounterTerminalScreen($0.destination)
      }
      CounterFlow().startFlow(on: stack)
      page.press(.character("+"))
      try page.press("Add one")
      #expect(page.shows("Count: 2"), "\(page.text)")
    }

    @Test func theSwiftUIFaceReadsTheSameModel() {
      let model = CounterViewModel()
      let view = UsingTetherWithSwiftUIAndUIKitArticle.CounterView(model: model)
      model.increment()
      #expect(view.model.count == 1)
    }
  }
}

// The terminal: markup redrawn when the count changes; Enter on the button, or `+`, adds.
@MainActor final class CounterTerminalScreen: TerminalScreen {
  enum Action { case increment }
  let model: CounterViewModel
  init(_ model: CounterViewModel) { self.model = model }

  var body: TerminalMarkup<Action> {
    text("Count: \(model.count)")
    button("Add one", key: "+").onPress(.increment)
  }

  func handle(_ action: Action) { model.increment() }
}

extension UsingTetherWithSwiftUIAndUIKitArticle {
  // SwiftUI: the view reads the output, and Observation redraws it when it changes.
  struct CounterView: View {
    let model: CounterViewModel

    var body: some View {
      Button("Count: \(model.count)") { model.increment() }
    }
  }
}
