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
      for child in element.children { child.write(to: &output) }
      output += "</\(element.tag)>"
    }
  }

  /// The tree with the element `id`'s attributes changed: each name set to its value, or
  /// removed for `nil`. The tree is unchanged when no element has that id.
  ///
  /// - Parameters:
  ///   - changes: The attributes to set or remove.
  ///   - id: The element.
  /// - Returns: The changed tree.
  func setting(_ changes: [(name: String, value: String?)], onElement id: String) -> HTMLNode {
    guard case .element(var element) = self else { return self }
    if element.id == id {
      for (name, value) in changes {
        let index = element.attributes.firstIndex { $0.name == name }
        switch (index, value) {
        case (let index?, let value?): element.attributes[index].value = value
        case (let index?, nil): element.attributes.remove(at: index)
        case (nil, let value?): element.attributes.append((name, value))
        case (nil, nil): break
        }
      }
      return .element(element)
    }
    var changed = false
    for index in element.children.indices {
      guard case .element = element.children[index] else { continue }
      let child = element.children[index].setting(changes, onElement: id)
      if child != element.children[index] {
        element.children[index] = child
        changed = true
        break
      }
    }
    return changed ? .element(element) : self
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
  /// Elements that have no closing tag.
  static let voidElements: Set<String> = ["img", "br", "hr", "input", "meta", "link"]

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
