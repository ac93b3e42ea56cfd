/// Reads a page's message, a JSON object of the fields ``ClientWire`` names, straight from its
/// UTF-8 bytes.
///
/// Every message a page sends is read on a socket's event loop, and a click is a few dozen
/// bytes: Foundation's `JSONDecoder` (a decoder object, a value tree, `Codable`'s keyed
/// containers) cost more than the rest of the click's reading. This reads the one shape the
/// protocol has, in one pass, with no intermediate values.
///
/// It accepts JSON (RFC 8259) as `JSONDecoder` would read it into ``ClientWire``, with three
/// deliberate refusals, each a malformed message: a key given twice (which of the two would
/// count is not JSON's to say), a number field that is not a whole number (`1.0`, `1e3`: the
/// page sends integers), and values nested deeper than 32 levels under a key the protocol does
/// not know. Unknown keys are skipped, as `JSONDecoder` skips them. The fuzz target `web`
/// checks that whatever this accepts, `JSONDecoder` reads the same.
struct ClientWireReader: ~Copyable {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0

  /// The deepest nesting skipped under an unknown key.
  private static let maximumDepth = 32

  private init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Reads `text` as one message.
  ///
  /// - Throws: ``WebSessionError/malformed(_:)`` saying what was wrong, and where.
  static func read(_ text: String) throws(WebSessionError) -> ClientWire {
    var text = text
    let result = text.withUTF8 { buffer -> Result<ClientWire, WebSessionError> in
      var reader = ClientWireReader(buffer)
      do throws(WebSessionError) {
        return .success(try reader.message())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  // MARK: - The message

  private mutating func message() throws(WebSessionError) -> ClientWire {
    var type: String?
    var wire = ClientWire(type: "")
    var seen: UInt32 = 0  // the known keys given, one bit each
    try expect(UInt8(ascii: "{"))
    try object { reader, key throws(WebSessionError) in
      switch key {
      case "type": type = try reader.once(&seen, 0, key) { try $0.string(orNull: false) }
      case "id": wire.id = try reader.once(&seen, 1, key) { try $0.string(orNull: true) }
      case "key": wire.key = try reader.once(&seen, 2, key) { try $0.string(orNull: true) }
      case "path": wire.path = try reader.once(&seen, 3, key) { try $0.string(orNull: true) }
      case "token": wire.token = try reader.once(&seen, 4, key) { try $0.string(orNull: true) }
      case "value": wire.value = try reader.once(&seen, 5, key) { try $0.string(orNull: true) }
      case "secret": wire.secret = try reader.once(&seen, 6, key) { try $0.string(orNull: true) }
      case "shown": wire.shown = try reader.once(&seen, 7, key) { try $0.string(orNull: true) }
      case "event": wire.event = try reader.once(&seen, 8, key) { try $0.string(orNull: true) }
      case "checked": wire.checked = try reader.once(&seen, 9, key) { try $0.bool() }
      case "seq": wire.seq = try reader.once(&seen, 10, key) { try $0.integer() }
      case "ver": wire.ver = try reader.once(&seen, 11, key) { try $0.integer() }
      case "g": wire.g = try reader.once(&seen, 12, key) { try $0.integer() }
      case "files": wire.files = try reader.once(&seen, 13, key) { try $0.files() }
      default: try reader.skipValue(depth: 0)
      }
    }
    skipWhitespace()
    guard index == bytes.count else { throw failure("text after the message") }
    guard let type else { throw WebSessionError.malformed("a message needs a type") }
    wire.type = type
    return wire
  }

  private mutating func files() throws(WebSessionError) -> [WireFile]? {
    skipWhitespace()
    if literal("null") { return nil }
    try expect(UInt8(ascii: "["))
    var files: [WireFile] = []
    try array { reader throws(WebSessionError) in
      try reader.expect(UInt8(ascii: "{"))
      var name: String?
      var size: Int?
      var type: String?
      var seen: UInt32 = 0  // the known keys given, one bit each
      try reader.object { reader, key throws(WebSessionError) in
        switch key {
        case "name": name = try reader.once(&seen, 0, key) { try $0.string(orNull: false) }
        case "size":
          size = try reader.once(&seen, 1, key) { reader in
            guard let value = try reader.integer() else { throw reader.failure("a null size") }
            return value
          }
        case "type": type = try reader.once(&seen, 2, key) { try $0.string(orNull: true) }
        default: try reader.skipValue(depth: 1)
        }
      }
      guard let name, let size else {
        throw WebSessionError.malformed("a file needs a name and a size")
      }
      files.append(WireFile(name: name, size: size, type: type))
    }
    return files
  }

  /// Reads a known key's value with `read`, refusing a key the object gives twice. (`read`
  /// throws untyped: a one-line closure is not inferred as throwing `WebSessionError`.)
  private mutating func once<Value>(
    _ seen: inout UInt32, _ bit: Int, _ key: String,
    _ read: (inout ClientWireReader) throws -> Value
  ) throws(WebSessionError) -> Value {
    let mask: UInt32 = 1 << bit
    guard seen & mask == 0 else { throw failure("the key \(key) twice") }
    seen |= mask
    do {
      return try read(&self)
    } catch let error as WebSessionError {
      throw error
    } catch {
      throw failure("an unreadable value")
    }
  }

  // MARK: - Structure

  /// Reads an object's members after its `{`, calling `member` with each key, the reader
  /// placed at the key's value.
  private mutating func object(
    _ member: (inout ClientWireReader, String) throws(WebSessionError) -> Void
  ) throws(WebSessionError) {
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      return
    }
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key") }
      guard let key = try string(orNull: false) else { throw failure("expected a key") }
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      try member(&self, key)
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return
      default: throw failure("expected , or }")
      }
    }
  }

  /// Reads an array's elements after its `[`, calling `element` at each.
  private mutating func array(
    _ element: (inout ClientWireReader) throws(WebSessionError) -> Void
  ) throws(WebSessionError) {
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      index += 1
      return
    }
    while true {
      try element(&self)
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return
      default: throw failure("expected , or ]")
      }
    }
  }

  /// Skips one value of any kind: a key the protocol does not know.
  private mutating func skipValue(depth: Int) throws(WebSessionError) {
    guard depth < Self.maximumDepth else { throw failure("values nested too deep") }
    skipWhitespace()
    switch peek() {
    case UInt8(ascii: "\""): _ = try string(orNull: false)
    case UInt8(ascii: "{"):
      index += 1
      try object { reader, _ throws(WebSessionError) in try reader.skipValue(depth: depth + 1) }
    case UInt8(ascii: "["):
      index += 1
      try array { reader throws(WebSessionError) in try reader.skipValue(depth: depth + 1) }
    case UInt8(ascii: "t"): try expectLiteral("true")
    case UInt8(ascii: "f"): try expectLiteral("false")
    case UInt8(ascii: "n"): try expectLiteral("null")
    default: try skipNumber()
    }
  }

  // MARK: - Values

  /// A string, or `nil` for `null` where `orNull` allows it.
  private mutating func string(orNull: Bool) throws(WebSessionError) -> String? {
    skipWhitespace()
    if orNull, literal("null") { return nil }
    try expect(UInt8(ascii: "\""))
    let start = index
    // Most strings have no escape: they are taken as they are.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw failure("a control character in a string") }
      index += 1
    }
    var utf8 = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: utf8, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try escape(into: &utf8)
      case 0..<0x20:
        index -= 1
        throw failure("a control character in a string")
      default:
        utf8.append(byte)
      }
    }
    throw failure("a string with no end")
  }

  /// Reads the escape after a `\` and appends what it stands for.
  private mutating func escape(into utf8: inout [UInt8]) throws(WebSessionError) {
    guard index < bytes.count else { throw failure("a string with no end") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
    case UInt8(ascii: "b"): utf8.append(0x08)
    case UInt8(ascii: "f"): utf8.append(0x0C)
    case UInt8(ascii: "n"): utf8.append(0x0A)
    case UInt8(ascii: "r"): utf8.append(0x0D)
    case UInt8(ascii: "t"): utf8.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hexQuad()
      if (0xD800..<0xDC00).contains(scalar) {
        // A high surrogate: its low half must follow, as `\uDC00`–`\uDFFF`.
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw failure("half of a surrogate pair") }
        index += 2
        let low = try hexQuad()
        guard (0xDC00..<0xE000).contains(low) else { throw failure("half of a surrogate pair") }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00..<0xE000).contains(scalar) {
        throw failure("half of a surrogate pair")
      }
      guard let unicode = Unicode.Scalar(scalar) else { throw failure("not a character") }
      utf8.append(contentsOf: String(Character(unicode)).utf8)
    default:
      index -= 1
      throw failure("an unknown escape")
    }
  }

  private mutating func hexQuad() throws(WebSessionError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw failure("a short \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("a \\u escape that is not hexadecimal")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  /// A whole number that fits an `Int`, or `nil` for `null`.
  private mutating func integer() throws(WebSessionError) -> Int? {
    skipWhitespace()
    if literal("null") { return nil }
    let negative = peek() == UInt8(ascii: "-")
    if negative { index += 1 }
    guard let first = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
      throw failure("expected a number")
    }
    var value = 0
    if first == UInt8(ascii: "0") {
      index += 1
    } else {
      while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        let digit = Int(byte - UInt8(ascii: "0"))
        let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
        // Accumulated negative, so `Int.min` fits.
        let (next, overflowed2) = times.subtractingReportingOverflow(digit)
        guard !overflowed, !overflowed2 else { throw failure("a number too large") }
        value = next
        index += 1
      }
    }
    if let byte = peek(),
      byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    {
      throw failure("a number that is not whole")
    }
    if negative { return value }
    let (positive, overflowed) = (0).subtractingReportingOverflow(value)
    guard !overflowed else { throw failure("a number too large") }
    return positive
  }

  /// `true`, `false` or `null` (`nil`).
  private mutating func bool() throws(WebSessionError) -> Bool? {
    skipWhitespace()
    if literal("true") { return true }
    if literal("false") { return false }
    if literal("null") { return nil }
    throw failure("expected true or false")
  }

  /// Skips a number of any form JSON allows.
  private mutating func skipNumber() throws(WebSessionError) {
    if peek() == UInt8(ascii: "-") { index += 1 }
    guard let first = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
      throw failure("expected a value")
    }
    if first == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
    if peek() == UInt8(ascii: ".") {
      index += 1
      guard skipDigits() else { throw failure("a number with no digits after its point") }
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard skipDigits() else { throw failure("a number with no digits in its exponent") }
    }
  }

  /// Skips decimal digits; whether there was one.
  @discardableResult
  private mutating func skipDigits() -> Bool {
    let start = index
    while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    return index > start
  }

  // MARK: - Bytes

  private func peek() -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }

  private mutating func skipWhitespace() {
    while let byte = peek(),
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    {
      index += 1
    }
  }

  private mutating func expect(_ byte: UInt8) throws(WebSessionError) {
    skipWhitespace()
    guard peek() == byte else {
      throw failure("expected \(Character(Unicode.Scalar(byte)))")
    }
    index += 1
  }

  /// Takes `word` if it is next.
  private mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      return false
    }
    index += count
    return true
  }

  private mutating func expectLiteral(_ word: StaticString) throws(WebSessionError) {
    guard literal(word) else { throw failure("expected a value") }
  }

  /// A malformed message's error, saying where.
  private func failure(_ what: String) -> WebSessionError {
    .malformed("not a message: \(what) at byte \(index)")
  }
}
