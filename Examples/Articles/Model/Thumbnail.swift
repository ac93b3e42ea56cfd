import ExampleSupport
import Foundation

/// A small grayscale image: an article's thumbnail. Its wire format is binary PGM (`P5`), the
/// simplest standard image format, so a server can send real images and a terminal can draw
/// them.
public struct Thumbnail: Equatable, Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Row-major gray levels, 0 (black) to 255 (white).
  public let pixels: [UInt8]

  /// Creates an image; `nil` if `pixels` does not hold `width × height` values.
  ///
  /// - Parameters:
  ///   - width: Width in pixels, at least 1.
  ///   - height: Height in pixels, at least 1.
  ///   - pixels: Row-major gray levels.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width > 0, height > 0, pixels.count == width * height else { return nil }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The gray level at `(x, y)`, or `nil` outside the image.
  ///
  /// - Parameters:
  ///   - x: The column.
  ///   - y: The row.
  /// - Returns: The gray level.
  public func pixel(x: Int, y: Int) -> UInt8? {
    guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
    return pixels[y * width + x]
  }

  /// The image as binary PGM.
  public var pgmData: Data {
    Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels)
  }

  /// Parses binary PGM (`P5`, 8-bit).
  ///
  /// - Parameter data: The file's bytes.
  /// - Throws: ``ServiceError/malformedResponse(_:)`` naming what is wrong.
  public init(pgm data: Data) throws(ServiceError) {
    let bytes = [UInt8](data)
    var index = 0
    func token() -> String? {
      // Skip whitespace and comments, then read one token.
      while index < bytes.count {
        if bytes[index] == UInt8(ascii: "#") {
          while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        } else if bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) {
          index += 1
        } else {
          break
        }
      }
      let start = index
      while index < bytes.count, bytes[index] > 0x20 { index += 1 }
      return start < index ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }
    guard token() == "P5" else { throw .malformedResponse("the thumbnail is not a PGM image") }
    guard let width = token().flatMap(Int.init), let height = token().flatMap(Int.init),
      let maximum = token().flatMap(Int.init), width > 0, height > 0, width * height <= 1 << 20,
      maximum == 255
    else { throw .malformedResponse("the thumbnail's PGM header is invalid") }
    index += 1  // the single whitespace after the header
    guard bytes.count - index >= width * height,
      let image = Thumbnail(
        width: width, height: height, pixels: Array(bytes[index..<(index + width * height)]))
    else { throw .malformedResponse("the thumbnail has fewer pixels than its header says") }
    self = image
  }

  /// A 1×1 mid-gray image.
  public static let placeholder = Thumbnail(checkedWidth: 1, height: 1, pixels: [128])

  private init(checkedWidth width: Int, height: Int, pixels: [UInt8]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The image as a grayscale PNG file, for view layers that show files (browsers do not
  /// show PGM).
  ///
  /// - Returns: The file's bytes.
  public func png() -> [UInt8] {
    PNGEncoder.encode(width: width, height: height, colorType: .grayscale, pixels: pixels)
  }

  /// A deterministic image for `name`: a diagonal gradient with a pattern seeded by the name.
  ///
  /// - Parameters:
  ///   - name: Any text; equal names give equal images.
  ///   - width: Width in pixels.
  ///   - height: Height in pixels.
  /// - Returns: The image.
  public static func generated(for name: String, width: Int = 24, height: Int = 12) -> Thumbnail {
    var random = SeededGenerator(seed: StableHash.fnv1a(name))
    let phase = Int(random.next() % 64)
    let stripes = 2 + Int(random.next() % 5)
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height)
    for y in 0..<height {
      for x in 0..<width {
        let gradient = (x + y * 2 + phase) * 255 / (width + height * 2 + 64)
        let stripe = (x / stripes + y / 2) % 2 == 0 ? 40 : 0
        pixels.append(UInt8(min(255, gradient + stripe)))
      }
    }
    return Thumbnail(width: width, height: height, pixels: pixels)
      ?? Thumbnail.placeholder
  }
}
