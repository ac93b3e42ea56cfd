/// Which addresses a page's URL attributes (`href`, `src`, `action`, …) may carry: an address
/// from data — a profile's website, an API's link — must never run script in the page.
///
/// Allowed: a relative address (`/todos`, `?page=2`, `#top`, `//host/path`), and the schemes
/// `http`, `https`, `mailto` and `tel`; for an image's source also an inline raster image
/// (`data:image/png;…`, `jpeg`, `gif`, `webp`). Anything else — `javascript:`, `vbscript:`,
/// `data:text/html`, `file:` — is left out of the page unless the app marks that one address
/// as trusted (``Attribute/href(trusted:)``). The scheme is read as a browser reads it: spaces
/// and control characters around the address and tabs and newlines inside it do not hide one.
enum WebURLPolicy {
  /// The attributes whose value a browser follows or loads.
  static let urlAttributes: Set<String> = [
    "href", "src", "action", "formaction", "poster", "cite", "xlink:href", "background",
    "ping", "srcset",
  ]

  /// The attributes whose value a browser loads as an image.
  private static let imageAttributes: Set<String> = ["src", "poster", "srcset"]

  private static let navigationalSchemes: Set<String> = ["http", "https", "mailto", "tel"]

  /// Whether `value` may be written as attribute `name` (lowercased) without being trusted.
  static func allows(_ value: String, in name: String) -> Bool {
    guard urlAttributes.contains(name) else { return true }
    if name == "srcset" {
      // Candidates `url [descriptor]`, separated by commas.
      return value.split(separator: ",").allSatisfy { candidate in
        let url = candidate.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        return allowsAddress(url, image: true)
      }
    }
    return allowsAddress(value, image: imageAttributes.contains(name))
  }

  private static func allowsAddress(_ value: String, image: Bool) -> Bool {
    guard let scheme = scheme(of: value) else { return true }
    if navigationalSchemes.contains(scheme) { return true }
    guard image, scheme == "data" else { return false }
    let address = String(decoding: browserBytes(of: value), as: UTF8.self).lowercased()
    return ["png", "jpeg", "gif", "webp"].contains { address.hasPrefix("data:image/\($0);") }
  }

  /// The address's scheme, lowercased, as a browser parses it; `nil` for a relative address.
  static func scheme(of value: String) -> String? {
    var scheme: [UInt8] = []
    for byte in browserBytes(of: value) {
      switch byte {
      case UInt8(ascii: ":"):
        return scheme.isEmpty ? nil : String(decoding: scheme, as: UTF8.self)
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        scheme.append(byte | 0x20)
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
        UInt8(ascii: "."):
        // A scheme starts with a letter.
        guard !scheme.isEmpty else { return nil }
        scheme.append(byte)
      default:
        return nil
      }
    }
    return nil
  }

  /// The address as the URL parser sees it: C0 controls and spaces trimmed from both ends,
  /// tabs and newlines removed everywhere.
  private static func browserBytes(of value: String) -> [UInt8] {
    var bytes = Array(value.utf8)
    while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
    while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
    bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    return bytes
  }
}
