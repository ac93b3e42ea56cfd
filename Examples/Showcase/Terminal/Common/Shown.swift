import Tether
import TetherTerminal

/// A view drawn only while `isShown` is `true`; it takes no rows and no keys otherwise.
@MainActor
final class Shown: TerminalView {
  private let isShown: Property<Bool>
  private let content: any TerminalView

  init(when isShown: Property<Bool>, _ content: any TerminalView) {
    self.isShown = isShown
    self.content = content
  }

  func preferredHeight(width: Int) -> Int? {
    isShown.value ? content.preferredHeight(width: width) : 0
  }

  func draw(in canvas: inout Canvas, frame: Rect) {
    if isShown.value { content.draw(in: &canvas, frame: frame) }
  }

  func handle(_ key: Key) -> Bool {
    isShown.value && content.handle(key)
  }
}
