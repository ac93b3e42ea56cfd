import Tether
import TetherTerminal

/// A label that takes no room while its text is `nil`: error and status rows.
@MainActor
final class OptionalLabel: TerminalView {
  private let text: Property<String?>
  private let style: CellStyle

  init(_ text: Property<String?>, style: CellStyle) {
    self.text = text
    self.style = style
  }

  func preferredHeight(width: Int) -> Int? { text.value == nil ? 0 : 1 }

  func draw(in canvas: inout Canvas, frame: Rect) {
    guard let text = text.value else { return }
    canvas.draw(text, x: frame.x, y: frame.y, maxWidth: frame.width, style: style)
  }
}
