/// One node of a rendered page: an element with a stable id, or text.
///
/// Every element a web view renders carries an `id` that stays the same from one render to the
/// next while the element means the same thing (a list row's id comes from its row's id), so a
/// change can travel as a patch to that element instead of a new page.
public enum HTMLNode: Equatable, Sendable {
  /// An element: tag, id, attributes in order, children.
  case element(Element)
  /// Text, escaped when written.
  case text(String)

  /// An element's parts.
  public struct Element: Equatable, Sendable {
    /// The tag name, such as `div` or `button`.
    public var tag: String
    /// The element's `id`, unique in the page.
    public var id: String
    /// Attributes other than `id`, in the order written.
    public var attributes: [(name: String, value: String)]
    /// The children.
    public var children: [HTMLNode]

    /// Creates an element.
    @_spi(HandBuilt)
    public init(
      _ tag: String, id: String, attributes: [(name: String, value: String)] = [],
      children: [HTMLNode] = []
    ) {
      self.tag = tag
      self.id = id
      self.attributes = attributes
      self.children = children
    }

    /// Equal when tag, id, attributes and children are.
    public static func == (lhs: Element, rhs: Element) -> Bool {
      lhs.tag == rhs.tag && lhs.id == rhs.id && lhs.children == rhs.children
        && lhs.attributes.elementsEqual(rhs.attributes) {
          $0.name == $1.name && $0.value == $1.value
        }
    }

    /// The value of attribute `name`, if present.
    public subscript(attribute name: String) -> String? {
      attributes.first { $0.name == name }?.value
    }
  }

  /// An element node.
  @_spi(HandBuilt)
  public static func element(
    _ tag: String, id: String, _ attributes: [(name: String, value: String)] = [],
    _ children: [HTMLNode] = []
  ) -> HTMLNode {
    .element(Element(tag, id: id, attributes: attributes, children: children))
  }

  /// The element's id, or `nil` for text.
  public var id: String? {
    if case .element(let element) = self { element.id } else { nil }
  }

  /// The node as HTML.
  public var html: String {
    var output = ""
    write(to: &output)
    return output
  }

  /// Appends the node's HTML to `output`.
  public func write(to output: inout String) {
    switch self {
    case .text(let text):
      output += HTMLEscaping.text(text)
    case .element(let element):
      output += "<\(element.tag) id=\"\(HTMLEscaping.attribute(element.id))\""
      for (name, value) in element.attributes {
        output += " \(name)=\"\(HTMLEscaping.attribute(value))\""
      }
      output += ">"
      guard !HTMLEscaping.voidElements.contains(element.tag) else { return }
      // A parser drops one newline right after `<textarea>`: a text that starts with one
      // keeps it only if another is written first.
      if element.tag == "textarea", case .text(let text)? = element.children.first,
        text.utf8.first == UInt8(ascii: "\n")
      {
        output += "\n"
      }
      if HTMLEscaping.rawTextElements.contains(element.tag) {
        // A style sheet's or a script's text is not HTML: entities would be read literally.
        for case .text(let text) in element.children {
          output += HTMLEscaping.rawText(text, in: element.tag)
        }
      } else {
        for child in element.children { child.write(to: &output) }
      }
      output += "</\(element.tag)>"
    }
  }

  /// Sets the element `id`'s attributes in place: each name to its value, or removed for
  /// `nil`. Nothing changes when no element has that id.
  /// This node with each radio input in it checked if its value is `chosen` and unchecked
  /// otherwise, and acknowledging edit `acknowledged`: what a radio group shows after a choice.
  func markingRadio(chosen: String, acknowledged: Int) -> HTMLNode {
    guard case .element(var element) = self else { return self }
    if element.tag == "input", element[attribute: "type"] == "radio" {
      element.attributes.removeAll { $0.name == "checked" || $0.name == "data-ack" }
      element.attributes.append(("data-ack", String(acknowledged)))
      if element[attribute: "value"] == chosen { element.attributes.append(("checked", "")) }
      return .element(element)
    }
    element.children = element.children.map {
      $0.markingRadio(chosen: chosen, acknowledged: acknowledged)
    }
    return .element(element)
  }

  mutating func setAttributes(
    _ changes: [(name: String, value: String?)], onElement id: String
  ) {
    updateElement(id) { node in
      guard case .element(var element) = node else { return }
      node = .text("")
      for (name, value) in changes {
        let index = element.attributes.firstIndex { $0.name == name }
        switch (index, value) {
        case (let index?, let value?): element.attributes[index].value = value
        case (let index?, nil): element.attributes.remove(at: index)
        case (nil, let value?): element.attributes.append((name, value))
        case (nil, nil): break
        }
      }
      node = .element(element)
    }
  }

  /// Changes the element `id` in place with `change`, and returns whether the tree has it.
  ///
  /// The search follows the ids markup gives (a child's id extends its parent's: `s1.2`,
  /// `s1.2.0`, `s1.2a.1`), so finding a field in a page of a thousand rows walks one branch,
  /// not the page; elements whose ids do not extend their parent's are searched after.
  /// The tree is changed in place: the elements on the way are not copied.
  ///
  /// - Parameters:
  ///   - id: The element.
  ///   - change: What to do to it.
  /// - Returns: Whether an element with that id was found (and changed).
  @discardableResult
  mutating func updateElement(_ id: String, _ change: (inout HTMLNode) -> Void) -> Bool {
    guard case .element(var element) = self else { return false }
    if element.id == id {
      change(&self)
      return true
    }
    // Let go of this node's reference, so the children are changed where they are.
    self = .text("")
    defer { self = .element(element) }
    for index in element.children.indices where element.children[index].mayContain(id) {
      if element.children[index].updateElement(id, change) { return true }
    }
    for index in element.children.indices where !element.children[index].mayContain(id) {
      if element.children[index].updateElement(id, change) { return true }
    }
    return false
  }

  /// Whether this element's id is one that `id` extends: `id` begins with it, and goes on with
  /// `.` or a branch letter, not a digit (`s1.1` may contain `s1.1.0`, not `s1.10`).
  private func mayContain(_ id: String) -> Bool {
    guard case .element(let element) = self, !element.id.isEmpty else { return false }
    let own = element.id.utf8
    let target = id.utf8
    guard target.count > own.count, target.starts(with: own) else { return false }
    let next = target[target.index(target.startIndex, offsetBy: own.count)]
    return !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next)
  }

  /// A digest of the node's HTML: 16 hex digits of its 64-bit FNV-1a hash. The same tree has
  /// the same digest in every process (no per-process seed), so a page served by one server
  /// can tell another what it shows (``ClientMessage/hello(secret:token:shown:)``). It is no
  /// proof of anything: a page that lies about it only gets a wrong page.
  public var digest: String { Self.digest(ofHTML: html) }

  /// The digest of a node whose HTML is `html`.
  static func digest(ofHTML html: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in html.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The tree without the attributes `names`, everywhere in it.
  func removingAttributes(_ names: Set<String>) -> HTMLNode {
    guard case .element(var element) = self else { return self }
    element.attributes.removeAll { names.contains($0.name) }
    element.children = element.children.map { $0.removingAttributes(names) }
    return .element(element)
  }

  /// Every text in the tree, in document order, joined by spaces: what a reader sees.
  public var visibleText: String {
    switch self {
    case .text(let text): text
    case .element(let element):
      element.children.map(\.visibleText).filter { !$0.isEmpty }.joined(separator: " ")
    }
  }
}

/// HTML escaping for text and attribute values, the one writer every page, patch and error
/// page goes through.
///
/// It works on UTF-8 bytes, not on `Character`s: a grapheme may *contain* `<` or `"` (a
/// Prepend scalar before it, a combining mark after it) without being equal to either, and an
/// HTML parser reads scalars, not graphemes. Every `&`, `<`, `>` (and, in an attribute, `"`)
/// becomes an entity wherever it stands, and a carriage return a character reference (a parser
/// would read it as a line feed); every other byte is copied as it is.
public enum HTMLEscaping {
  /// Elements that have no closing tag (the HTML standard's void elements).
  static let voidElements: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
  ]

  /// Elements whose text a parser reads raw, up to the first `</` and their own tag name:
  /// their text is written unescaped, with that one sequence made harmless.
  static let rawTextElements: Set<String> = ["script", "style"]

  /// `text` safe as the content of raw-text element `tag` (`style` or `script`): every `<`
  /// that would start `</style` (or `</script`, or `<!--` in a script) is written as an escape
  /// the element's own language reads as `<` — `\3c ` in CSS, `<\/`, `<\!--` in JavaScript
  /// (inside the strings and regular expressions where such text can stand) — so the text
  /// cannot end the element early, in any letter case.
  static func rawText(_ text: String, in tag: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "<")) else { return text }
    if tag == "style" {
      // In CSS `<` stands only in strings, comments and URLs, where the escape reads as it.
      return text.replacing("<", with: "\\3c ")
    }
    var output = ""
    var rest = Substring(text)
    while let index = rest.firstIndex(of: "<") {
      output += rest[..<index]
      let after = rest[rest.index(after: index)...]
      if after.hasPrefix("/") {
        output += "<\\/"
        rest = after.dropFirst()
      } else if after.hasPrefix("!--") {
        output += "<\\!--"
        rest = after.dropFirst(3)
      } else {
        output += "<"
        rest = after
      }
    }
    return output + rest
  }

  /// `text` safe between tags.
  public static func text(_ text: String) -> String {
    escaped(text, quotes: false)
  }

  /// `value` safe inside a double-quoted attribute (the only kind the writer makes).
  public static func attribute(_ value: String) -> String {
    escaped(value, quotes: true)
  }

  private static func escaped(_ input: String, quotes: Bool) -> String {
    let utf8 = input.utf8
    guard utf8.contains(where: { needsEscaping($0, quotes: quotes) }) else { return input }
    var output: [UInt8] = []
    output.reserveCapacity(utf8.count + 16)
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
      case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
      case UInt8(ascii: "\""):
        if quotes { output.append(contentsOf: "&quot;".utf8) } else { output.append(byte) }
      // A parser reads a raw CR as a line feed: as a reference it stays what it was.
      case 0x0D: output.append(contentsOf: "&#13;".utf8)
      default: output.append(byte)
      }
    }
    // Only ASCII bytes were replaced, by ASCII: the rest is the input's own valid UTF-8.
    return String(decoding: output, as: UTF8.self)
  }

  private static func needsEscaping(_ byte: UInt8, quotes: Bool) -> Bool {
    switch byte {
    case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0x0D: true
    case UInt8(ascii: "\""): quotes
    default: false
    }
  }
}
