import TetherWeb

/// A CSS selector, for finding elements of a rendered `HTMLNode` tree in tests.
///
/// It reads what page tests use: type (`li`), class (`.completed`), id (`#app`), attribute
/// (`[hidden]`, `[type="checkbox"]`), `:nth-of-type(n)`, `:first-of-type`, `:last-of-type`,
/// `:checked`, `:disabled`, `:not(simple selector)`, the descendant (` `) and child (`>`)
/// combinators, and lists (`a, b`).
public struct HTMLSelector: Sendable, CustomStringConvertible {
  /// Why a selector could not be read.
  public struct ParseError: Error, Equatable, CustomStringConvertible {
    /// The selector.
    public let selector: String
    /// What was wrong.
    public let reason: String

    /// The selector and what was wrong with it.
    public var description: String { "selector \(selector): \(reason)" }
  }

  fileprivate enum Combinator: Sendable { case descendant, child }

  fileprivate struct Compound: Sendable {
    var tag: String?
    var simple: [Simple] = []
  }

  fileprivate indirect enum Simple: Sendable {
    case id(String)
    case `class`(String)
    case attribute(String, value: String?)
    case nthOfType(Int)
    case lastOfType
    case checked
    case disabled
    case not(Compound)
  }

  /// One complex selector: compounds, each with the combinator that joins it to the one
  /// before it (the first one's is ignored).
  fileprivate typealias Complex = [(combinator: Combinator, compound: Compound)]

  private let alternatives: [Complex]
  /// The selector as written.
  public let description: String

  /// Reads `text`.
  ///
  /// - Throws: ``ParseError`` for a selector this reader does not know.
  public init(_ text: String) throws(ParseError) {
    description = text
    var parser = Parser(text: Array(text.unicodeScalars), source: text)
    alternatives = try parser.selectorList()
  }

  /// Every element in `tree` that matches, in document order.
  public func matches(in tree: HTMLNode) -> [HTMLNode.Element] {
    var found: [HTMLNode.Element] = []
    var ancestors: [Located] = []
    visit(tree, position: (1, true), ancestors: &ancestors, found: &found)
    return found
  }

  /// An element with its place among its parent's children of the same tag.
  fileprivate struct Located {
    var element: HTMLNode.Element
    var index: Int
    var isLastOfType: Bool
  }

  private func visit(
    _ node: HTMLNode, position: (index: Int, isLast: Bool), ancestors: inout [Located],
    found: inout [HTMLNode.Element]
  ) {
    guard case .element(let element) = node else { return }
    let located = Located(element: element, index: position.index, isLastOfType: position.isLast)
    if alternatives.contains(where: { Self.matches($0, located, ancestors: ancestors[...]) }) {
      found.append(element)
    }
    ancestors.append(located)
    var counts: [String: Int] = [:]
    var totals: [String: Int] = [:]
    for case .element(let child) in element.children { totals[child.tag, default: 0] += 1 }
    for child in element.children {
      guard case .element(let childElement) = child else { continue }
      counts[childElement.tag, default: 0] += 1
      let index = counts[childElement.tag, default: 1]
      visit(
        child, position: (index, index == totals[childElement.tag]), ancestors: &ancestors,
        found: &found)
    }
    ancestors.removeLast()
  }

  private static func matches(
    _ complex: Complex, _ element: Located, ancestors: ArraySlice<Located>
  ) -> Bool {
    guard let last = complex.last, matches(last.compound, element) else { return false }
    let rest = complex.dropLast()
    guard !rest.isEmpty else { return true }
    switch last.combinator {
    case .child:
      guard let parent = ancestors.last else { return false }
      return matches(Array(rest), parent, ancestors: ancestors.dropLast())
    case .descendant:
      var remaining = ancestors
      while let ancestor = remaining.popLast() {
        if matches(Array(rest), ancestor, ancestors: remaining) { return true }
      }
      return false
    }
  }

  private static func matches(_ compound: Compound, _ located: Located) -> Bool {
    let element = located.element
    if let tag = compound.tag, tag != "*", tag != element.tag { return false }
    return compound.simple.allSatisfy { simple in
      switch simple {
      case .id(let id): element.id == id
      case .class(let name):
        (element[attribute: "class"] ?? "").split(separator: " ").contains { $0 == name }
      case .attribute(let name, let value):
        if name == "id" {
          value == nil || element.id == value
        } else {
          value.map { element[attribute: name] == $0 } ?? (element[attribute: name] != nil)
        }
      case .nthOfType(let index): located.index == index
      case .lastOfType: located.isLastOfType
      case .checked: element[attribute: "checked"] != nil
      case .disabled: element[attribute: "disabled"] != nil
      case .not(let inner): !matches(inner, located)
      }
    }
  }

  private struct Parser {
    let text: [Unicode.Scalar]
    let source: String
    var position = 0

    init(text: [Unicode.Scalar], source: String) {
      self.text = text
      self.source = source
    }

    private var current: Unicode.Scalar? { position < text.count ? text[position] : nil }

    private func fail(_ reason: String) -> ParseError {
      ParseError(selector: source, reason: reason)
    }

    private mutating func skipSpaces() -> Bool {
      var skipped = false
      while let scalar = current, scalar == " " || scalar == "\n" || scalar == "\t" {
        position += 1
        skipped = true
      }
      return skipped
    }

    mutating func selectorList() throws(ParseError) -> [Complex] {
      var list: [Complex] = []
      repeat {
        _ = skipSpaces()
        list.append(try complex())
        if current == "," { position += 1 } else { break }
      } while true
      guard current == nil else { throw fail("unexpected \"\(current.map(String.init) ?? "")\"") }
      return list
    }

    private mutating func complex() throws(ParseError) -> Complex {
      var parts: Complex = [(.descendant, try compound())]
      while true {
        let spaced = skipSpaces()
        guard let scalar = current, scalar != ",", scalar != ")" else { break }
        var combinator = Combinator.descendant
        if scalar == ">" {
          position += 1
          _ = skipSpaces()
          combinator = .child
        } else if !spaced {
          throw fail("unexpected \"\(scalar)\"")
        }
        parts.append((combinator, try compound()))
      }
      return parts
    }

    private mutating func name() -> String {
      var output = ""
      while let scalar = current,
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
          || scalar == "_" || scalar == "*"
      {
        output.unicodeScalars.append(scalar)
        position += 1
      }
      return output
    }

    private mutating func compound() throws(ParseError) -> Compound {
      var compound = Compound()
      let tag = name()
      if !tag.isEmpty { compound.tag = tag.lowercased() }
      while let scalar = current {
        switch scalar {
        case "#":
          position += 1
          compound.simple.append(.id(try identifier()))
        case ".":
          position += 1
          compound.simple.append(.class(try identifier()))
        case "[":
          position += 1
          compound.simple.append(try attribute())
        case ":":
          position += 1
          compound.simple.append(try pseudoClass())
        default:
          guard compound.tag != nil || !compound.simple.isEmpty else {
            throw fail("expected a selector at \"\(scalar)\"")
          }
          return compound
        }
      }
      guard compound.tag != nil || !compound.simple.isEmpty else {
        throw fail("expected a selector at the end")
      }
      return compound
    }

    /// An id or class name: anything up to the next character that starts another part
    /// (a `.` starts a class: ids with dots, which the library writes, are found by class).
    private mutating func identifier() throws(ParseError) -> String {
      var output = ""
      while let scalar = current, !" \n\t[:>,)#".unicodeScalars.contains(scalar),
        scalar != ".", scalar != "]"
      {
        output.unicodeScalars.append(scalar)
        position += 1
      }
      guard !output.isEmpty else { throw fail("an empty name") }
      return output
    }

    private mutating func attribute() throws(ParseError) -> Simple {
      _ = skipSpaces()
      let attribute = name().lowercased()
      guard !attribute.isEmpty else { throw fail("an attribute needs a name") }
      _ = skipSpaces()
      if current == "]" {
        position += 1
        return .attribute(attribute, value: nil)
      }
      guard current == "=" else { throw fail("only [name] and [name=value] are read") }
      position += 1
      _ = skipSpaces()
      var value = ""
      if let quote = current, quote == "\"" || quote == "'" {
        position += 1
        while let scalar = current, scalar != quote {
          value.unicodeScalars.append(scalar)
          position += 1
        }
        guard current == quote else { throw fail("an unclosed quote") }
        position += 1
      } else {
        value = name()
      }
      _ = skipSpaces()
      guard current == "]" else { throw fail("an unclosed [") }
      position += 1
      return .attribute(attribute, value: value)
    }

    private mutating func pseudoClass() throws(ParseError) -> Simple {
      let pseudo = name().lowercased()
      switch pseudo {
      case "checked": return .checked
      case "disabled": return .disabled
      case "first-of-type": return .nthOfType(1)
      case "last-of-type": return .lastOfType
      case "nth-of-type":
        guard current == "(" else { throw fail(":nth-of-type needs (n)") }
        position += 1
        let digits = name()
        guard let index = Int(digits), index > 0, current == ")" else {
          throw fail(":nth-of-type takes a positive number")
        }
        position += 1
        return .nthOfType(index)
      case "not":
        guard current == "(" else { throw fail(":not needs (selector)") }
        position += 1
        let inner = try compound()
        guard current == ")" else { throw fail(":not takes one compound selector") }
        position += 1
        return .not(inner)
      default:
        throw fail("the pseudo-class :\(pseudo) is not read")
      }
    }
  }
}

extension HTMLNode {
  /// The elements matching `selector`, in document order.
  ///
  /// - Throws: ``HTMLSelector/ParseError`` for a selector that cannot be read.
  public func select(_ selector: String) throws(HTMLSelector.ParseError) -> [HTMLNode.Element] {
    try HTMLSelector(selector).matches(in: self)
  }
}
