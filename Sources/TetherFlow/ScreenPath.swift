/// A navigation stack's path: the path components of its screens, such as
/// `/gallery/photo/230200335`. Components are percent-encoded in ``description`` and decoded by
/// ``init(parsing:)``, so any text (a user's name) can be one component.
public struct ScreenPath: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The components, decoded.
  public var components: [String]

  /// Creates a path from decoded components.
  ///
  /// - Parameter components: The components; empty ones are dropped.
  public init(_ components: [String] = []) {
    self.components = components.filter { !$0.isEmpty }
  }

  /// Parses a URL path such as `/gallery/photo/230200335`. A query or fragment is ignored,
  /// empty segments are dropped, and a segment that is not valid percent-encoding is kept as
  /// written.
  ///
  /// - Parameter text: The path.
  public init(parsing text: String) {
    let pathOnly = Substring(text).prefix { $0 != "?" && $0 != "#" }
    self.init(pathOnly.split(separator: "/").map { Self.decode($0) })
  }

  /// The path as a URL path: `/` and the percent-encoded components joined by `/`.
  public var description: String {
    "/" + components.map(Self.encode).joined(separator: "/")
  }

  /// Letters, digits and `-._~` stay; every other byte is `%XX`.
  static func encode(_ component: String) -> String {
    var result = ""
    for byte in component.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        result.unicodeScalars.append("%")
        result.unicodeScalars.append(hex[Int(byte >> 4)])
        result.unicodeScalars.append(hex[Int(byte & 0x0F)])
      }
    }
    return result
  }

  /// Decodes `%XX` escapes; returns the segment unchanged if an escape is malformed or the
  /// bytes are not UTF-8.
  static func decode(_ segment: Substring) -> String {
    guard segment.contains("%") else { return String(segment) }
    var bytes: [UInt8] = []
    var iterator = segment.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return String(segment) }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self) ?? String(segment)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

extension ScreenPath: ExpressibleByStringInterpolation {
  /// A path written as a URL path, parsed as ``init(parsing:)`` parses it: a test writes
  /// `#expect(stack.path == "/gallery/photo/\(photo.id)")`.
  ///
  /// - Parameter value: The path.
  public init(stringLiteral value: String) {
    self.init(parsing: value)
  }
}
