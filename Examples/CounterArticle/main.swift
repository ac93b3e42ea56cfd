import Foundation
import Tether
import TetherFlow
import TetherWeb
import TetherWebHummingbird

/// A counter: `countText` is what a view shows, `increment()` what its button sends.
@MainActor
final class CounterViewModel {
  /// `Count: N`: set here, read-only everywhere else (`$countText` is its `Property`).
  @Output private(set) var countText = "Count: 0"
  private var count = 0

  /// The user pressed Increment.
  func increment() {
    count += 1
    countText = "Count: \(count)"
  }
}

enum CounterDestination {
  case counter(CounterViewModel)
}

/// The app's root flow: one screen, the counter.
@MainActor
final class CounterFlow: FlowController {
  func start(on navigator: any Navigator<CounterDestination>) -> Screen<CounterDestination> {
    Screen(.counter(CounterViewModel()), title: "Counter", owner: self)
  }
}

@MainActor
final class CounterScreen: WebScreen {
  enum Action { case increment }
  private let counter: CounterViewModel

  init(_ counter: CounterViewModel) {
    self.counter = counter
  }

  var body: Markup<Action> {
    vstack {
      p { counter.countText }
      button("Increment").onClick(.increment)
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .increment: counter.increment()
    }
  }
}

let app = WebApp(title: "Counter", rootFlow: { CounterFlow() }) { screen in
  switch screen.destination {
  case .counter(let counter): CounterScreen(counter)
  }
}

let port = ProcessInfo.processInfo.environment["PORT"].flatMap { Int($0) } ?? 8080
try await TetherWebServer.run(app, port: port) { port in
  FileHandle.standardOutput.write(Data("http://127.0.0.1:\(port)\n".utf8))
}
