import Tether

/// A one-row label that takes no room while its text is `nil`: error and status rows. The web
/// layer's `OptionalLabel` is its counterpart.
@MainActor
public final class OptionalLabel: TerminalView {
  private let text: Property<String?>
  private let style: CellStyle

  /// Creates the label.
  ///
  /// - Parameters:
  ///   - text: The text, or `nil` for none.
  ///   - style: How it is drawn.
  public init(_ text: Property<String?>, style: CellStyle = .plain) {
    self.text = text
    self.style = style
  }

  /// One row with text, none without.
  public func preferredHeight(width: Int) -> Int? { text.value == nil ? 0 : 1 }

  /// Draws the text, truncated to the frame's width.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    guard let text = text.value else { return }
    canvas.draw(text, x: frame.x, y: frame.y, maxWidth: frame.width, style: style)
  }
}
