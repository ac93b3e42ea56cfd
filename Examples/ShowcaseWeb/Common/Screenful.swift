import TetherWeb

/// A screen's root view: its content, and the input sent when the screen first appears.
@MainActor
final class Screenful: WebView {
  private let content: any WebView
  private let onAppear: () -> Void

  init(_ content: any WebView, onAppear: @escaping () -> Void = {}) {
    self.content = content
    self.onAppear = onAppear
  }

  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    content.render(id: id, in: context)
  }

  func handle(key: WebKey) -> Bool { content.handle(key: key) }

  var restorationKey: String? { content.restorationKey }

  func restore(_ key: String) { content.restore(key) }

  func didAppear() {
    content.didAppear()
    onAppear()
  }
}

/// Runs a view-model input that is `async` from a click or an appearance.
@MainActor
func send(_ input: @escaping @MainActor () async -> Void) -> () -> Void {
  { Task { await input() } }
}
