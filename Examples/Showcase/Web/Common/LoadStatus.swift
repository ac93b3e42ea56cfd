import Tether
import TetherWeb

/// The web face of the shared load cycle: a spinner while loading, then the error with a
/// Retry button that sends the screen's reload input.
@MainActor
final class LoadStatus: WebScreen {
  enum Action { case retry }

  private let spinner: Spinner
  private let errorMessage: Property<String?>
  private let retry: () -> Void

  init(
    isLoading: Property<Bool>, errorMessage: Property<String?>, loadingMessage: String,
    retry: @escaping () -> Void
  ) {
    spinner = Spinner(isActive: isLoading, message: loadingMessage)
    self.errorMessage = errorMessage
    self.retry = retry
  }

  var body: Markup<Action> {
    div(.class("status")) {
      spinner
      if let message = errorMessage.value {
        p(.class("error"), .role("alert")) {
          span { "⚠ \(message)" }
          button("Retry").onClick(.retry)
        }
      }
    }
  }

  func handle(_ action: Action, gesture: WebGesture?) {
    switch action {
    case .retry: retry()
    }
  }
}
