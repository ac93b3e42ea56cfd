import Articles
import Gallery
import Tether
import TetherTerminal

/// A grayscale picture a terminal can shade.
protocol ShadedImage {
  var width: Int { get }
  var height: Int { get }
  func gray(x: Int, y: Int) -> UInt8?
}

extension Thumbnail: ShadedImage {
  func gray(x: Int, y: Int) -> UInt8? { pixel(x: x, y: y) }
}

extension PhotoImage: ShadedImage {
  func gray(x: Int, y: Int) -> UInt8? { luminance(x: x, y: y) }
}

/// Draws a grayscale picture with shade blocks, two pixel rows per text row; shows the status
/// text while there is no picture.
@MainActor
final class ShadedImageView<Image: ShadedImage>: TerminalView {
  private static var shades: [Character] { [" ", "░", "▒", "▓", "█"] }
  private let image: Property<Image?>
  private let status: Property<String?>

  init(image: Property<Image?>, status: Property<String?> = Property(value: nil)) {
    self.image = image
    self.status = status
  }

  func preferredHeight(width: Int) -> Int? {
    guard let image = image.value else { return status.value == nil ? 0 : 1 }
    return (image.height + 1) / 2
  }

  func draw(in canvas: inout Canvas, frame: Rect) {
    guard let image = image.value else {
      canvas.draw(
        status.value ?? "", x: frame.x, y: frame.y, maxWidth: frame.width,
        style: CellStyle(dim: true))
      return
    }
    let shades = Self.shades
    for row in 0..<min(frame.height, (image.height + 1) / 2) {
      var line = ""
      for x in 0..<min(frame.width, image.width) {
        let top = Int(image.gray(x: x, y: row * 2) ?? 0)
        let bottom = Int(image.gray(x: x, y: row * 2 + 1) ?? UInt8(top))
        line.append(shades[((top + bottom) / 2) * (shades.count - 1) / 255])
      }
      canvas.draw(line, x: frame.x, y: frame.y + row, maxWidth: frame.width)
    }
  }
}
