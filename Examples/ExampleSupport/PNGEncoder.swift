import Foundation

/// A PNG writer for the examples' generated pictures: 8-bit RGB or grayscale, in stored
/// (uncompressed) deflate blocks, so no compressor is needed. Browsers show the result; the
/// files are a little larger than compressed ones.
public enum PNGEncoder {
  /// How the pixel bytes are laid out.
  public enum ColorType: UInt8, Sendable {
    /// One byte per pixel.
    case grayscale = 0
    /// Three bytes per pixel: red, green, blue.
    case rgb = 2

    var bytesPerPixel: Int { self == .rgb ? 3 : 1 }
  }

  /// A PNG file of `width × height` pixels.
  ///
  /// - Parameters:
  ///   - width: Columns, at least 1.
  ///   - height: Rows, at least 1.
  ///   - colorType: The layout of `pixels`.
  ///   - pixels: Row-major bytes, `width × height × bytes per pixel` of them; missing bytes are
  ///     black, extra ones ignored.
  /// - Returns: The file's bytes.
  public static func encode(width: Int, height: Int, colorType: ColorType, pixels: [UInt8])
    -> [UInt8]
  {
    let width = max(1, width)
    let height = max(1, height)
    let rowBytes = width * colorType.bytesPerPixel
    var raw: [UInt8] = []
    raw.reserveCapacity(height * (rowBytes + 1))
    for y in 0..<height {
      raw.append(0)  // filter: none
      let start = min(pixels.count, y * rowBytes)
      let end = min(pixels.count, start + rowBytes)
      raw += pixels[start..<end]
      raw += repeatElement(0, count: rowBytes - (end - start))
    }
    var header: [UInt8] = []
    header.appendBigEndian(UInt32(width))
    header.appendBigEndian(UInt32(height))
    // 8 bits, colour type, deflate, adaptive filters, no interlace.
    header += [8, colorType.rawValue, 0, 0, 0]
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    appendChunk("IHDR", header, to: &file)
    appendChunk("IDAT", zlibStored(raw), to: &file)
    appendChunk("IEND", [], to: &file)
    return file
  }

  static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
    file.appendBigEndian(UInt32(data.count))
    let body = Array(type.utf8) + data
    file += body
    file.appendBigEndian(crc32(body))
  }

  /// A zlib stream of stored deflate blocks (at most 65,535 bytes each).
  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var start = 0
    repeat {
      let end = min(data.count, start + 65_535)
      let length = UInt16(end - start)
      out.append(end == data.count ? 1 : 0)
      out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
      out += data[start..<end]
      start = end
    } while start < data.count
    out.appendBigEndian(adler32(data))
    return out
  }

  /// The CRC-32 a PNG chunk ends with.
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// The Adler-32 a zlib stream ends with.
  public static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return b << 16 | a
  }

  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }
}

extension [UInt8] {
  mutating func appendBigEndian(_ value: UInt32) {
    append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
  }
}
