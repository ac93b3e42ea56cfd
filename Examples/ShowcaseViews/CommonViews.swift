import Articles
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

/// A view that runs an action when its screen appears, and handles a few keys.
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

/// An error row: the message and the key that retries.
@MainActor
func errorRow(_ message: Property<String?>, retryKey: Character = "r") -> OptionalLabel {
  OptionalLabel(
    message.map { $0.map { "⚠ \($0) — press \(retryKey) to retry" } },
    style: CellStyle(bold: true, foreground: .red))
}

/// Draws a grayscale thumbnail with shade blocks, two pixel rows per text row; shows the status
/// text while there is no image.
@MainActor
final class ThumbnailView: TerminalView {
  private static let shades: [Character] = [" ", "░", "▒", "▓", "█"]
  private let image: Property<Thumbnail?>
  private let status: Property<String?>

  init(image: Property<Thumbnail?>, status: Property<String?>) {
    self.image = image
    self.status = status
  }

  func preferredHeight(width: Int) -> Int? {
    guard let image = image.value else { return 1 }
    return (image.height + 1) / 2
  }

  func draw(in canvas: inout Canvas, frame: Rect) {
    guard let image = image.value else {
      canvas.draw(
        status.value ?? "", x: frame.x, y: frame.y, maxWidth: frame.width,
        style: CellStyle(dim: true))
      return
    }
    for row in 0..<min(frame.height, (image.height + 1) / 2) {
      var line = ""
      for x in 0..<min(frame.width, image.width) {
        let top = Int(image.pixel(x: x, y: row * 2) ?? 0)
        let bottom = Int(image.pixel(x: x, y: row * 2 + 1) ?? UInt8(top))
        line.append(Self.shades[((top + bottom) / 2) * (Self.shades.count - 1) / 255])
      }
      canvas.draw(line, x: frame.x, y: frame.y + row, maxWidth: frame.width)
    }
  }
}
