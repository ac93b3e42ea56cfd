import TetherTerminal

/// `KeyParser` on any byte stream, cut into chunks at any points.
///
/// Input: byte 0 seeds the chunk sizes; the rest is the stream.
/// Properties:
/// - every byte is accounted for: the presses' bytes, concatenated, are the stream;
/// - where the stream is cut does not change the keys (chunked equals all at once);
/// - each press's bytes, parsed alone, give the same key;
/// - a key with a canonical encoding (not `.unknown`) parses back from it.
enum KeyStreamProperties {
  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    guard let seed = input.first else { return }
    let stream = Array(input.dropFirst())

    var whole = KeyParser()
    let all = whole.feedPresses(stream) + whole.flushPresses()
    try require(whole.hasPending == false, "bytes still pending after flush")
    try require(
      all.flatMap(\.bytes) == stream,
      "the presses' bytes \(all.flatMap(\.bytes)) are not the stream \(stream)")

    var chunked = KeyParser()
    var presses: [KeyPress] = []
    var state = UInt32(seed) | 1
    var index = 0
    while index < stream.count {
      state = state &* 1_103_515_245 &+ 12_345
      let size = Int((state >> 16) % 8) + 1
      let end = min(stream.count, index + size)
      presses += chunked.feedPresses(Array(stream[index..<end]))
      index = end
    }
    presses += chunked.flushPresses()
    try require(presses == all, "chunked parse \(presses) differs from whole parse \(all)")

    for press in all {
      var alone = KeyParser()
      let keys = alone.feed(press.bytes) + alone.flush()
      try require(keys == [press.key], "\(press.bytes) alone parses as \(keys), not \(press.key)")
      if let canonical = canonicalBytes(press.key) {
        var parser = KeyParser()
        let again = parser.feed(canonical) + parser.flush()
        try require(
          again == [press.key], "\(press.key) encoded as \(canonical) parses as \(again)")
      }
    }
  }

  /// The bytes a terminal sends for `key` in normal cursor mode, or `nil` for `.unknown`.
  static func canonicalBytes(_ key: Key) -> [UInt8]? {
    let escape: UInt8 = 0x1B
    switch key {
    case .character(let character): return Array(String(character).utf8)
    case .up: return [escape, 0x5B, 0x41]
    case .down: return [escape, 0x5B, 0x42]
    case .right: return [escape, 0x5B, 0x43]
    case .left: return [escape, 0x5B, 0x44]
    case .home: return [escape, 0x5B, 0x48]
    case .end: return [escape, 0x5B, 0x46]
    case .pageUp: return [escape, 0x5B, 0x35, 0x7E]
    case .pageDown: return [escape, 0x5B, 0x36, 0x7E]
    case .delete: return [escape, 0x5B, 0x33, 0x7E]
    case .enter: return [0x0D]
    case .tab: return [0x09]
    case .backspace: return [0x7F]
    case .escape: return [escape]
    case .backTab: return [escape, 0x5B, 0x5A]
    case .alt(let character):
      guard let value = character.asciiValue else { return nil }
      return [escape, value]
    case .paste(let text): return Array("\u{1B}[200~\(text)\u{1B}[201~".utf8)
    case .control(let letter):
      guard let value = letter.asciiValue, (0x61...0x7A).contains(value) else { return nil }
      return [value - 0x60]
    case .unknown: return nil
    }
  }
}
