import TetherTerminal

/// A screen's root view: its content, and the keys that send inputs. Each key maps to exactly
/// one view-model input; the view model decides what the input does. (A screen's appearance
/// input is its flow's, in `Screen(onAppear:)`, and runs in every view layer.)
@MainActor
final class Screenful: TerminalView {
  private let content: any TerminalView
  private let keys: [Key: () -> Void]

  init(_ content: any TerminalView, keys: [Key: () -> Void] = [:]) {
    self.content = content
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
}
