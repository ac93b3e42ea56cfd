import TetherTerminal

/// A screen's root view: its content, an input sent when the screen appears, and the keys that
/// send inputs. Each key maps to exactly one view-model input; the view model decides what the
/// input does.
@MainActor
final class Screenful: TerminalView {
  private let content: any TerminalView
  private let onAppear: () -> Void
  private let keys: [Key: () -> Void]

  init(
    _ content: any TerminalView, onAppear: @escaping () -> Void = {}, keys: [Key: () -> Void] = [:]
  ) {
    self.content = content
    self.onAppear = onAppear
    self.keys = keys
  }

  func preferredHeight(width: Int) -> Int? { nil }
  func draw(in canvas: inout Canvas, frame: Rect) { content.draw(in: &canvas, frame: frame) }

  func handle(_ key: Key) -> Bool {
    if content.handle(key) { return true }
    guard let action = keys[key] else { return false }
    action()
    return true
  }

  func didAppear() {
    content.didAppear()
    onAppear()
  }
}

/// Runs a view-model input that is `async` from a key or an appearance.
@MainActor
func send(_ input: @escaping @MainActor () async -> Void) -> () -> Void {
  { Task { await input() } }
}
