import ExampleSupport
import Foundation

/// The bundled catalog's picture of a photo: a small landscape (sky, sun, hills, water) drawn
/// deterministically from the photo's id, so the showcase shows real images with no network.
///
/// The same pixels become a PNG for browsers (``png()``) and shaded cells in the terminal
/// (``luminance(x:y:)``).
public struct PhotoImage: Equatable, Sendable {
  /// One pixel.
  public struct RGB: Equatable, Sendable {
    /// Red, green and blue, 0…255.
    public var red, green, blue: UInt8
  }

  /// The default size served.
  public static let defaultWidth = 320
  /// The default size served.
  public static let defaultHeight = 200

  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
  /// Row-major pixels, `width × height`.
  public let pixels: [RGB]

  /// The picture of the photo with `photoID`.
  ///
  /// - Parameters:
  ///   - photoID: The photo's id: the seed of every choice.
  ///   - width: Columns, at least 1.
  ///   - height: Rows, at least 1.
  public init(photoID: Int, width: Int = defaultWidth, height: Int = defaultHeight) {
    let width = max(1, width)
    let height = max(1, height)
    var random = SeededGenerator(seed: UInt64(truncatingIfNeeded: photoID))
    let palettes: [(sky: RGB, horizon: RGB, hill: RGB, water: RGB)] = [
      (RGB(40, 70, 140), RGB(250, 180, 110), RGB(40, 60, 50), RGB(30, 60, 110)),
      (RGB(20, 24, 60), RGB(200, 90, 120), RGB(30, 30, 45), RGB(25, 30, 70)),
      (RGB(110, 170, 230), RGB(230, 240, 250), RGB(70, 120, 60), RGB(60, 120, 170)),
      (RGB(60, 40, 90), RGB(255, 150, 60), RGB(60, 35, 40), RGB(70, 50, 90)),
    ]
    let palette = palettes[Int(random.next() % UInt64(palettes.count))]
    let horizon = Double(height) * (0.55 + Double(random.next() % 20) / 100)
    let sunX = Double(random.next() % UInt64(width))
    let sunY = horizon * (0.3 + Double(random.next() % 40) / 100)
    let sunRadius = Double(height) * (0.06 + Double(random.next() % 6) / 100)
    let phase = Double(random.next() % 628) / 100
    let amplitude = Double(height) * (0.05 + Double(random.next() % 10) / 100)
    let frequency = 1.5 + Double(random.next() % 30) / 10
    var pixels: [RGB] = []
    pixels.reserveCapacity(width * height)
    for y in 0..<height {
      for x in 0..<width {
        let fx = Double(x)
        let fy = Double(y)
        let ridge =
          horizon - amplitude
          * (1 + sin(fx / Double(width) * frequency * 2 * .pi + phase)) / 2
        let color: RGB
        if fy >= horizon {
          // Water: the sky's horizon colour reflected, darker with depth.
          let depth = (fy - horizon) / max(1, Double(height) - horizon)
          color = palette.water.mixed(with: palette.horizon, amount: 0.35 * (1 - depth))
        } else if fy >= ridge {
          color = palette.hill
        } else {
          let dx = fx - sunX
          let dy = fy - sunY
          if dx * dx + dy * dy <= sunRadius * sunRadius {
            color = RGB(255, 236, 180)
          } else {
            color = palette.sky.mixed(with: palette.horizon, amount: fy / horizon)
          }
        }
        pixels.append(color)
      }
    }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The URL path the showcase's servers serve a photo's picture at.
  ///
  /// - Parameter photoID: The photo's id.
  /// - Returns: `/images/photos/<id>.png`.
  public static func path(forPhotoID photoID: Int) -> String {
    "/images/photos/\(photoID).png"
  }

  /// The photo id in a path made by ``path(forPhotoID:)``, or `nil` for any other path.
  ///
  /// - Parameter path: A URL path.
  /// - Returns: The id.
  public static func photoID(inPath path: String) -> Int? {
    let prefix = "/images/photos/"
    guard path.hasPrefix(prefix), path.hasSuffix(".png") else { return nil }
    return Int(path.dropFirst(prefix.count).dropLast(4))
  }

  /// The brightness of the pixel at (`x`, `y`), 0…255, or `nil` outside the image.
  ///
  /// - Parameters:
  ///   - x: The column.
  ///   - y: The row.
  /// - Returns: The luminance.
  public func luminance(x: Int, y: Int) -> UInt8? {
    guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
    let pixel = pixels[y * width + x]
    let value = (299 * Int(pixel.red) + 587 * Int(pixel.green) + 114 * Int(pixel.blue)) / 1000
    return UInt8(clamping: value)
  }

  /// The picture as a PNG file (8-bit RGB, stored deflate blocks: no compressor needed).
  ///
  /// - Returns: The file's bytes.
  public func png() -> [UInt8] {
    PNGEncoder.encode(
      width: width, height: height, colorType: .rgb,
      pixels: pixels.flatMap { [$0.red, $0.green, $0.blue] })
  }

}

extension PhotoImage.RGB {
  init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.init(red: red, green: green, blue: blue)
  }

  func mixed(with other: Self, amount: Double) -> Self {
    let t = min(1, max(0, amount))
    func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
      UInt8(clamping: Int((Double(a) * (1 - t) + Double(b) * t).rounded()))
    }
    return Self(mix(red, other.red), mix(green, other.green), mix(blue, other.blue))
  }
}
