@_spi(HandBuilt) import TetherWeb

/// Reads HTML as a browser's parser reads the library's own writing (``HTMLNode/write(to:)``):
/// a served page and the HTML in a patch, turned back into nodes the way a page would hold
/// them, so a test page applies what it is sent instead of trusting the tree it came from.
///
/// It reads double- and single-quoted, unquoted and bare attributes, void elements, the raw
/// text of `script` and `style`, the newline a parser drops after `<textarea>`, comments, a
/// doctype, and character references (named `amp`, `lt`, `gt`, `quot`, `apos`, `nbsp`, and
/// numeric ones). An element the writer gave no `id` gets the empty id, as ``HTMLNode`` has it.
/// It is not a general HTML parser: it does not repair misnested tags, and an end tag closes
/// the nearest open element of its name.
struct HTMLReader {
  /// Why the text could not be read.
  struct Failure: Error, CustomStringConvertible {
    let reason: String
    var description: String { "unreadable HTML: \(reason)" }
  }

  private let bytes: [UInt8]
  private var position = 0

  private init(_ html: String) {
    bytes = Array(html.utf8)
  }

  /// The nodes `html` holds at its top level, in order.
  static func nodes(_ html: String) throws(Failure) -> [HTMLNode] {
    var reader = HTMLReader(html)
    return try reader.readChildren(closing: nil)
  }

  /// The element with id `id` anywhere in `html` (a served document's `app`).
  static func element(_ id: String, in html: String) throws(Failure) -> HTMLNode {
    for node in try nodes(html) {
      if let found = node.find(id) { return found }
    }
    throw Failure(reason: "no element with id \(id)")
  }

  // MARK: Reading

  private mutating func readChildren(closing tag: String?) throws(Failure) -> [HTMLNode] {
    var children: [HTMLNode] = []
    var text: [UInt8] = []
    func flushText() {
      if !text.isEmpty {
        children.append(.text(Self.decoded(text)))
        text.removeAll()
      }
    }
    while position < bytes.count {
      let byte = bytes[position]
      guard byte == UInt8(ascii: "<") else {
        text.append(byte)
        position += 1
        continue
      }
      if starts(with: "<!--") {
        flushText()
        skip(past: "-->")
      } else if starts(with: "<!") || starts(with: "<?") {
        flushText()
        skip(past: ">")
      } else if starts(with: "</") {
        flushText()
        let name = peekEndTagName()
        // An end tag for another element ends this one too (a missing end tag); one for
        // nothing open is dropped, as a parser drops it.
        if name == tag || tag != nil { return children }
        skip(past: ">")
      } else if position + 1 < bytes.count, Self.isNameStart(bytes[position + 1]) {
        flushText()
        children.append(try readElement())
      } else {
        text.append(byte)
        position += 1
      }
    }
    flushText()
    return children
  }

  private mutating func readElement() throws(Failure) -> HTMLNode {
    position += 1  // <
    let tag = readName().lowercased()
    var id = ""
    var attributes: [(name: String, value: String)] = []
    while true {
      skipWhitespace()
      guard position < bytes.count else { throw Failure(reason: "<\(tag) is not closed") }
      if bytes[position] == UInt8(ascii: ">") {
        position += 1
        break
      }
      if starts(with: "/>") {
        position += 2
        return .element(HTMLNode.Element(tag, id: id, attributes: attributes))
      }
      let name = readName().lowercased()
      guard !name.isEmpty else {
        throw Failure(
          reason: "unexpected \(Character(Unicode.Scalar(bytes[position]))) in <\(tag)>")
      }
      skipWhitespace()
      var value = ""
      if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
        position += 1
        skipWhitespace()
        value = try readAttributeValue()
      }
      if name == "id" {
        id = value
      } else if !attributes.contains(where: { $0.name == name }) {
        attributes.append((name, value))
      }
    }
    let element = HTMLNode.Element(tag, id: id, attributes: attributes)
    if Self.voidElements.contains(tag) { return .element(element) }
    var children: [HTMLNode]
    if tag == "script" || tag == "style" || tag == "textarea" || tag == "title" {
      let raw = readRaw(until: tag)
      var text =
        tag == "script" || tag == "style" ? String(decoding: raw, as: UTF8.self) : Self.decoded(raw)
      if tag == "textarea", text.utf8.first == UInt8(ascii: "\n") { text.removeFirst() }
      children = text.isEmpty ? [] : [.text(text)]
    } else {
      children = try readChildren(closing: tag)
    }
    // The end tag, if this element has one here.
    if starts(with: "</") {
      let name = peekEndTagName()
      if name == tag { skip(past: ">") }
    }
    var closed = element
    closed.children = children
    return .element(closed)
  }

  private mutating func readAttributeValue() throws(Failure) -> String {
    guard position < bytes.count else { throw Failure(reason: "an attribute has no value") }
    let quote = bytes[position]
    var raw: [UInt8] = []
    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
      position += 1
      while position < bytes.count, bytes[position] != quote {
        raw.append(bytes[position])
        position += 1
      }
      guard position < bytes.count else {
        throw Failure(reason: "an attribute's quote is not closed")
      }
      position += 1
    } else {
      while position < bytes.count, !Self.isWhitespace(bytes[position]),
        bytes[position] != UInt8(ascii: ">")
      {
        raw.append(bytes[position])
        position += 1
      }
    }
    return Self.decoded(raw)
  }

  /// The bytes up to the end tag `tag` (in any letter case), not consumed.
  private mutating func readRaw(until tag: String) -> [UInt8] {
    let start = position
    let end = Array("</\(tag)".utf8)
    while position < bytes.count {
      if bytes[position] == UInt8(ascii: "<"), position + end.count <= bytes.count,
        zip(bytes[position..<(position + end.count)], end).allSatisfy({
          Self.lowercased($0) == $1
        })
      {
        break
      }
      position += 1
    }
    return Array(bytes[start..<position])
  }

  private mutating func readName() -> String {
    let start = position
    while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private func peekEndTagName() -> String {
    var index = position + 2
    var name: [UInt8] = []
    while index < bytes.count, Self.isNameByte(bytes[index]) {
      name.append(Self.lowercased(bytes[index]))
      index += 1
    }
    return String(decoding: name, as: UTF8.self)
  }

  private func starts(with prefix: String) -> Bool {
    let prefix = Array(prefix.utf8)
    guard position + prefix.count <= bytes.count else { return false }
    return bytes[position..<(position + prefix.count)].elementsEqual(prefix)
  }

  private mutating func skip(past marker: String) {
    let marker = Array(marker.utf8)
    while position < bytes.count {
      if starts(with: String(decoding: marker, as: UTF8.self)) {
        position += marker.count
        return
      }
      position += 1
    }
  }

  private mutating func skipWhitespace() {
    while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
  }

  // MARK: Bytes

  /// The HTML standard's void elements: they have no content and no end tag.
  private static let voidElements: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
  ]

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
  }

  private static func isNameStart(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lowercased(byte))
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    !isWhitespace(byte) && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/")
      && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "\"")
      && byte != UInt8(ascii: "'")
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
  }

  /// `raw` with its character references read; a reference that is not one stays as it is.
  static func decoded(_ raw: [UInt8]) -> String {
    guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
    let text = String(decoding: raw, as: UTF8.self)
    var output = ""
    var rest = Substring(text)
    while let ampersand = rest.firstIndex(of: "&") {
      output += rest[..<ampersand]
      let after = rest[rest.index(after: ampersand)...]
      guard let semicolon = after.prefix(12).firstIndex(of: ";"),
        let scalar = reference(String(after[..<semicolon]))
      else {
        output += "&"
        rest = after
        continue
      }
      output.unicodeScalars.append(scalar)
      rest = after[after.index(after: semicolon)...]
    }
    return output + rest
  }

  private static func reference(_ name: String) -> Unicode.Scalar? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    case "nbsp": return "\u{A0}"
    default:
      guard name.hasPrefix("#") else { return nil }
      let digits = name.dropFirst()
      let number: UInt32? =
        digits.hasPrefix("x") || digits.hasPrefix("X")
        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
      return number.flatMap(Unicode.Scalar.init)
    }
  }
}

extension HTMLNode {
  /// The element with id `id` in this tree, this one included.
  func find(_ id: String) -> HTMLNode? {
    guard case .element(let element) = self else { return nil }
    if element.id == id { return self }
    for child in element.children {
      if let found = child.find(id) { return found }
    }
    return nil
  }
}
