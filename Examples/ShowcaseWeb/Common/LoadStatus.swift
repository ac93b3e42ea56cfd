import Tether
import TetherWeb

/// The web face of the shared load cycle: a spinner while loading, then the error with a
/// Retry button that sends the screen's reload input.
@MainActor
final class LoadStatus: WebView {
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

  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    var children = [spinner.render(id: "\(id).spinner", in: context)]
    if let message = errorMessage.value {
      context.onClick("\(id).retry", retry)
      children.append(
        .element(
          "p", id: "\(id).error", [("class", "error"), ("role", "alert")],
          [
            .element("span", id: "\(id).message", [], [.text("⚠ \(message)")]),
            .element("button", id: "\(id).retry", [("type", "button")], [.text("Retry")]),
          ]))
    }
    return .element("div", id: id, [("class", "status")], children)
  }
}
