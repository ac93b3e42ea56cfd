import Tether
import TetherWeb

/// The web face of the shared load cycle: a spinner while loading, then the error with a
/// Retry button that sends the screen's `retry` action.
///
/// - Parameters:
///   - isLoading: Whether the load is under way.
///   - errorMessage: The load's error, if it failed.
///   - loadingMessage: What the spinner says.
///   - retry: The screen's action that loads again.
/// - Returns: The status line.
@MainActor
func loadStatus<Action>(
  isLoading: Bool, errorMessage: String?, loadingMessage: String, retry: Action
) -> Markup<Action> {
  div(.class("status")) {
    spinner(isLoading, message: loadingMessage)
    if let errorMessage {
      p(.class("error"), .role("alert")) {
        span { "⚠ \(errorMessage)" }
        button("Retry").onClick(retry)
      }
    }
  }
}
