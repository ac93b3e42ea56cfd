import TetherFlow

/// A key the user pressed.
public enum Key: Equatable, Hashable, Sendable {
  /// A printable character (any script, emoji included).
  case character(Character)
  case up, down, left, right
  case home, end, pageUp, pageDown, delete
  case enter, tab, backspace, escape
  /// Shift-Tab.
  case backTab
  /// Control plus a letter, e.g. `.control("c")` for Ctrl-C.
  case control(Character)
  /// Alt (Meta) plus a character, sent as ESC and the character, e.g. `.alt("b")`.
  case alt(Character)
  /// Text pasted while the terminal's bracketed paste mode is on (the session turns it on):
  /// the text between the markers, taken as text, never as keys — a pasted line break does not
  /// press Enter. A paste larger than ``KeyParser/pasteChunk`` bytes arrives in several.
  case paste(String)
  /// An escape sequence this parser does not know, kept whole.
  case unknown([UInt8])
}

extension Key {
  /// The key in the vocabulary every view layer shares, if it has a place there: ↑/k, ↓/j,
  /// PageUp, PageDown, Home, End, Enter (activate), Esc (cancel), Tab and → (next), Shift-Tab
  /// and ← (previous).
  public var screenKey: ScreenKey? {
    switch self {
    case .tab, .right: .next
    case .backTab, .left: .previous
    case .up, .character("k"): .up
    case .down, .character("j"): .down
    case .pageUp: .pageUp
    case .pageDown: .pageDown
    case .home: .home
    case .end: .end
    case .enter: .activate
    case .escape: .cancel
    default: nil
    }
  }
}

/// A key and the bytes the terminal sent for it.
public struct KeyPress: Equatable, Hashable, Sendable {
  /// The key.
  public var key: Key
  /// The bytes it was read from: one byte, an escape sequence or a UTF-8 character.
  public var bytes: [UInt8]

  /// Creates a key press.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - bytes: The bytes it was read from.
  public init(key: Key, bytes: [UInt8]) {
    self.key = key
    self.bytes = bytes
  }
}

/// Turns the bytes a terminal sends in raw mode into keys.
///
/// One `read()` may carry several keys, or end in the middle of one (an escape sequence or a
/// multi-byte UTF-8 character): the parser keeps the unfinished part for the next ``feed(_:)``.
/// Arrow keys are understood in both encodings terminals use, `ESC [ A` (normal cursor mode)
/// and `ESC O A` (application cursor mode). A lone ESC cannot be told from the start of a
/// sequence until more bytes arrive or none do: call ``flush()`` when input has paused.
public struct KeyParser: Sendable {
  private var pending: [UInt8] = []
  /// Inside a bracketed paste whose end marker has not arrived yet.
  private var inPaste = false

  /// The most bytes of a paste held back waiting for its end marker: beyond it, what has
  /// arrived is reported as a ``Key/paste(_:)`` of its own (cut between two UTF-8 characters)
  /// and the paste goes on, so a paste with no end marker cannot grow memory without bound.
  public static let pasteChunk = 64 * 1024

  static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
  static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

  /// Creates a parser with nothing pending.
  public init() {}

  /// Whether bytes of an unfinished key are waiting.
  public var hasPending: Bool { !pending.isEmpty }

  /// Parses `bytes` (after anything pending) into keys.
  ///
  /// - Parameter bytes: What one `read()` returned.
  /// - Returns: The complete keys, in order.
  public mutating func feed(_ bytes: [UInt8]) -> [Key] {
    feedPresses(bytes).map(\.key)
  }

  /// Parses `bytes` (after anything pending) into keys, each with the bytes it was read from.
  ///
  /// Every byte fed is accounted for exactly once: the presses returned by this method and by
  /// ``flushPresses()``, concatenated, are the bytes fed, in order.
  ///
  /// - Parameter bytes: What one `read()` returned.
  /// - Returns: The complete key presses, in order.
  public mutating func feedPresses(_ bytes: [UInt8]) -> [KeyPress] {
    pending += bytes
    var presses: [KeyPress] = []
    var index = 0
    while index < pending.count {
      if inPaste {
        guard let (press, length) = pastePress(from: index) else { break }
        presses.append(press)
        index += length
        continue
      }
      if pending[index...].starts(with: Self.pasteStart) {
        // The start marker belongs to the paste's first press.
        guard let (press, length) = pastePress(from: index, marker: Self.pasteStart.count)
        else { break }
        presses.append(press)
        index += length
        continue
      }
      if Self.pasteStart.starts(with: pending[index...]) { break }  // maybe a paste's start
      guard let (key, length) = Self.parse(pending[index...]) else { break }
      presses.append(KeyPress(key: key, bytes: Array(pending[index..<(index + length)])))
      index += length
    }
    pending.removeFirst(index)
    return presses
  }

  /// The paste press starting at `start` (after `marker` bytes of start marker, if any): up to
  /// and with its end marker, or a chunk of ``pasteChunk`` bytes, or `nil` to wait for more.
  private mutating func pastePress(from start: Int, marker: Int = 0) -> (KeyPress, Int)? {
    let textStart = start + marker
    let rest = pending[textStart...]
    if let end = Self.firstRange(of: Self.pasteEnd, in: rest) {
      inPaste = false
      let text = String(decoding: pending[textStart..<end], as: UTF8.self)
      let length = end + Self.pasteEnd.count - start
      return (KeyPress(key: .paste(text), bytes: Array(pending[start..<(start + length)])), length)
    }
    // Keep back what could be the start of the end marker, and wait, up to a chunk.
    guard rest.count > Self.pasteChunk else {
      // A start marker with nothing after it yet: report nothing until text arrives.
      return nil
    }
    var cut = textStart + Self.pasteChunk
    while cut > textStart, (0x80...0xBF).contains(pending[cut]) { cut -= 1 }
    inPaste = true
    let text = String(decoding: pending[textStart..<cut], as: UTF8.self)
    return (KeyPress(key: .paste(text), bytes: Array(pending[start..<cut])), cut - start)
  }

  private static func firstRange(of marker: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.count >= marker.count else { return nil }
    var index = bytes.startIndex
    while index <= bytes.endIndex - marker.count {
      if bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) {
        return index
      }
      index += 1
    }
    return nil
  }

  /// Ends whatever is pending after input paused: a lone ESC is the Escape key; a paste whose
  /// end marker has not come is ended, with the text that came; an unfinished sequence or
  /// character is reported as ``Key/unknown(_:)``.
  ///
  /// - Returns: The keys completed by the pause.
  public mutating func flush() -> [Key] {
    flushPresses().map(\.key)
  }

  /// Like ``flush()``, with the bytes each key was read from.
  ///
  /// - Returns: The key presses completed by the pause.
  public mutating func flushPresses() -> [KeyPress] {
    if inPaste || pending.starts(with: Self.pasteStart) {
      // A pause ends a paste: what has arrived is pasted text. (A terminal sends a paste in
      // one burst; a start marker never followed by its end must not swallow every later key.)
      let marker = inPaste ? 0 : Self.pasteStart.count
      inPaste = false
      defer { pending = [] }
      guard pending.count > marker else { return [KeyPress(key: .paste(""), bytes: pending)] }
      let text = String(decoding: pending.dropFirst(marker), as: UTF8.self)
      return [KeyPress(key: .paste(text), bytes: pending)]
    }
    defer { pending = [] }
    guard let first = pending.first else { return [] }
    if pending.count == 1, first == 0x1B { return [KeyPress(key: .escape, bytes: [0x1B])] }
    if first == 0x1B, pending.count == 2 {
      // ESC and one more byte that could have started a sequence: Escape, then that byte.
      var parser = KeyParser()
      let rest = parser.feedPresses([pending[1]]) + parser.flushPresses()
      return [KeyPress(key: .escape, bytes: [0x1B])] + rest
    }
    return [KeyPress(key: .unknown(pending), bytes: pending)]
  }

  /// The key at the start of `bytes` and its length, or `nil` if more bytes are needed.
  private static func parse(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x1B: return parseEscape(bytes)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
    case 0x00, 0x1C...0x1F: return (.unknown([first]), 1)
    default: return parseUTF8(bytes)
    }
  }

  private static func parseEscape(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let kind = bytes[start + 1]
    if kind == UInt8(ascii: "O") {
      guard bytes.count >= 3 else { return nil }
      let key: Key =
        switch bytes[start + 2] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: .unknown(Array(bytes.prefix(3)))
        }
      return (key, 3)
    }
    guard kind == UInt8(ascii: "[") else {
      // ESC and a printable ASCII character: Alt with it (what Meta sends). ESC followed by
      // anything else: Escape, then that byte on its own.
      if (0x21...0x7E).contains(kind) { return (.alt(Character(Unicode.Scalar(kind))), 2) }
      return (.escape, 1)
    }
    // CSI: parameters and intermediates (0x20...0x3F), then a final byte (0x40...0x7E).
    var index = start + 2
    while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
    guard index < bytes.endIndex else { return nil }
    let length = index - start + 1
    let sequence = Array(bytes[start..<(index + 1)])
    let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
    let key: Key =
      switch (bytes[index], parameters) {
      case (UInt8(ascii: "A"), _): .up
      case (UInt8(ascii: "B"), _): .down
      case (UInt8(ascii: "C"), _): .right
      case (UInt8(ascii: "D"), _): .left
      case (UInt8(ascii: "H"), _): .home
      case (UInt8(ascii: "F"), _): .end
      case (UInt8(ascii: "Z"), ""): .backTab
      case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): .home
      case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): .end
      case (UInt8(ascii: "~"), "3"): .delete
      case (UInt8(ascii: "~"), "5"): .pageUp
      case (UInt8(ascii: "~"), "6"): .pageDown
      default: .unknown(sequence)
      }
    return (key, length)
  }

  private static func parseUTF8(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let first = bytes[bytes.startIndex]
    let length: Int =
      switch first {
      case 0x00..<0x80: 1
      case 0xC0..<0xE0: 2
      case 0xE0..<0xF0: 3
      case 0xF0..<0xF8: 4
      default: 0
      }
    guard length > 0 else { return (.unknown([first]), 1) }
    guard bytes.count >= length else { return nil }
    let slice = bytes.prefix(length)
    guard let text = String(validating: slice, as: UTF8.self), let character = text.first else {
      return (.unknown(Array(slice)), length)
    }
    return (.character(character), length)
  }
}
