import Foundation
@_spi(HandBuilt) import TetherWeb

/// The page as a browser holds it: the app element it was served, with every message the
/// session sent applied in order, as the page's script applies them (``HTMLPatch``'s records,
/// read from the JSON on the wire). Fields hold their live values in their attributes — the
/// text typed, the box ticked — as a person sees them.
struct PageMirror {
  /// The app element as the page shows it.
  private(set) var tree: HTMLNode
  private(set) var path: String?
  private(set) var title: String?
  private(set) var focus: String?
  /// The newest resume token the page holds.
  private(set) var resumeToken: String?
  /// The newest gesture the session said it kept.
  private(set) var acknowledged = 0
  /// The newest edit the page made in each field, by id: a model's value for a field the
  /// page typed in since that value's edit does not replace the typing.
  private var edits: [String: Int] = [:]
  /// What went wrong applying a message, first first: a patch to an element the page does
  /// not have, a message that is not the wire format.
  private(set) var faults: [String] = []

  /// The page served as `document` (its element `app`), at `path`, titled `title`, with
  /// `focus` focused.
  init(document: String, path: String, title: String?, focus: String?) throws {
    tree = try HTMLReader.element("app", in: document)
    self.path = path
    self.title = title
    self.focus = focus
  }

  // MARK: What the person does

  /// The page types `text` into field `id` as its edit `edit`.
  mutating func type(_ text: String, into id: String, edit: Int) {
    edits[id] = edit
    setLiveValue(.text(text), of: id)
  }

  /// The page ticks (or unticks) box `id` as its edit `edit`.
  mutating func check(_ id: String, _ checked: Bool, edit: Int) {
    edits[id] = edit
    setLiveValue(.checked(checked), of: id)
  }

  /// The page chooses the option at `position` of picker or radio group `id`.
  mutating func choose(position: String, in id: String, edit: Int) {
    edits[id] = edit
    _ = tree.updateNode(id) { node in
      guard case .element(var element) = node else { return }
      if element.tag == "select" {
        // What a person sees chosen: the picker's value, and its option shown as selected.
        element.set("value", position)
        element.children = element.children.map { child in
          guard case .element(var option) = child, option.tag == "option" else { return child }
          option.set("selected", option[attribute: "value"] == position ? "" : nil)
          return .element(option)
        }
      } else {
        element.children = element.children.map { $0.markingRadio(position) }
      }
      node = .element(element)
    }
  }

  // MARK: What the session sends

  /// Applies one message of the session's.
  mutating func apply(_ json: String) {
    let message: WireMessage
    do {
      message = try JSONDecoder().decode(WireMessage.self, from: Data(json.utf8))
    } catch {
      faults.append("a message the page cannot read (\(error)): \(json.prefix(200))")
      return
    }
    for patch in message.p { apply(patch) }
    if let path = message.path { self.path = path }
    if let title = message.title { self.title = title }
    if let focus = message.f { self.focus = focus }
    if let token = message.r { resumeToken = token }
    if let kept = message.k { acknowledged = max(acknowledged, kept) }
  }

  private mutating func apply(_ patch: WirePatch) {
    let found: Bool
    do {
      switch patch {
      case .replace(let id, let html):
        let old = tree.find(id)
        let nodes = try HTMLReader.nodes(html).map { $0.keepingStreamRows(of: old) }
        found = tree.replaceNode(id, with: nodes)
      case .children(let id, let html):
        let nodes = try HTMLReader.nodes(html)
        found = tree.updateNode(id) { node in
          guard case .element(var element) = node else { return }
          // A stream's own children patch is its reset; around it, as the page's client
          // does, the rows the page shows stay.
          element.children =
            element[attribute: "data-stream"] != nil
            ? nodes : nodes.map { $0.keepingStreamRows(of: node) }
          node = .element(element)
        }
      case .stream(let parent, let html, let atStart, let limit):
        let row = try HTMLReader.nodes(html).first { $0.id != nil }
        found = tree.updateNode(parent) { node in
          guard case .element(var element) = node, let row else { return }
          if let index = element.children.firstIndex(where: { $0.id == row.id }) {
            element.children[index] = row
          } else if atStart {
            element.children.insert(row, at: 0)
          } else {
            element.children.append(row)
          }
          while limit > 0, element.children.count > limit {
            if atStart { element.children.removeLast() } else { element.children.removeFirst() }
          }
          node = .element(element)
        }
      case .text(let id, let text):
        found = tree.updateNode(id) { node in
          guard case .element(var element) = node else { return }
          element.children = text.isEmpty ? [] : [.text(text)]
          node = .element(element)
        }
      case .attribute(let id, let name, let value):
        found = tree.updateNode(id) { node in
          guard case .element(var element) = node else { return }
          element.set(name, value)
          node = .element(element)
        }
      case .insert(let parent, let after, let html):
        let nodes = try HTMLReader.nodes(html)
        found = tree.updateNode(parent) { node in
          guard case .element(var element) = node else { return }
          let index =
            after.isEmpty ? nil : element.children.firstIndex { $0.id == after }
          element.children.insert(contentsOf: nodes, at: index.map { $0 + 1 } ?? 0)
          node = .element(element)
        }
      case .remove(let id):
        found = tree.replaceNode(id, with: [])
      case .move(let parent, let child, let after):
        found = tree.updateNode(parent) { node in
          guard case .element(var element) = node,
            let from = element.children.firstIndex(where: { $0.id == child })
          else { return }
          let moved = element.children.remove(at: from)
          let index = after.isEmpty ? nil : element.children.firstIndex { $0.id == after }
          element.children.insert(moved, at: index.map { $0 + 1 } ?? 0)
          node = .element(element)
        }
      case .value(let id, let value, let acknowledged):
        found = tree.find(id) != nil
        // Typing newer than the model's value stays, as on a page.
        if (edits[id] ?? 0) <= acknowledged {
          setLiveValue(value, of: id)
          _ = tree.updateNode(id) { node in
            guard case .element(var element) = node else { return }
            element.set("data-ack", String(acknowledged))
            node = .element(element)
          }
        }
      }
    } catch {
      faults.append("a patch for \(patch.id) whose HTML the page cannot read: \(error)")
      return
    }
    if !found { faults.append("a patch for \(patch.id), an element the page does not have") }
  }

  private mutating func setLiveValue(_ value: HTMLPatch.FieldValue, of id: String) {
    _ = tree.updateNode(id) { node in
      guard case .element(var element) = node else { return }
      switch value {
      case .text(let text):
        if element.tag == "textarea" {
          element.children = text.isEmpty ? [] : [.text(text)]
        } else {
          element.set("value", text)
        }
      case .checked(let checked):
        element.set("checked", checked ? "" : nil)
      }
      node = .element(element)
    }
  }

  // MARK: Comparing

  /// The tree as a page and its session must agree on it: attributes by name, adjacent texts
  /// joined, empty ones
  /// dropped, and fields without their live state (the text typed, the box ticked, the option
  /// chosen, the edit acknowledged), which a page holds apart from its attributes.
  static func comparable(_ node: HTMLNode) -> HTMLNode {
    guard case .element(var element) = node else { return node }
    let isField = ["input", "select", "textarea", "option"].contains(element.tag)
    if isField {
      element.attributes.removeAll {
        ["value", "checked", "data-ack", "selected"].contains($0.name)
          && !(element.tag == "option" && $0.name == "value")
      }
    }
    // A page keeps attributes by name; their order is the writer's, not the page's.
    element.attributes.sort { $0.name < $1.name }
    // A text area's content is its live value; a stream's rows are the page's alone (its
    // session keeps the list empty).
    if element.tag == "textarea" || element[attribute: "data-stream"] != nil {
      element.children = []
      return .element(element)
    }
    var children: [HTMLNode] = []
    for child in element.children {
      switch child {
      case .text(let text):
        guard !text.isEmpty else { continue }
        if case .text(let previous)? = children.last {
          children[children.count - 1] = .text(previous + text)
        } else {
          children.append(child)
        }
      case .element:
        children.append(comparable(child))
      }
    }
    element.children = children
    return .element(element)
  }

  /// Where `page` and `kept` first differ, or `nil` when they agree.
  static func difference(page: HTMLNode, kept: HTMLNode) -> String? {
    let page = comparable(page)
    let kept = comparable(kept)
    guard page != kept else { return nil }
    return firstDifference(page, kept, at: "#app") ?? "the trees differ"
  }

  private static func firstDifference(_ page: HTMLNode, _ kept: HTMLNode, at place: String)
    -> String?
  {
    guard page != kept else { return nil }
    guard case .element(let a) = page, case .element(let b) = kept else {
      return
        "\(place): the page shows \(page.html.prefix(120)), the session \(kept.html.prefix(120))"
    }
    if a.tag != b.tag || a.id != b.id
      || !a.attributes.elementsEqual(
        b.attributes, by: { $0.name == $1.name && $0.value == $1.value })
      || a.children.count != b.children.count
    {
      return "\(place): the page shows \(HTMLNode.element(a).html.prefix(200)), "
        + "the session \(HTMLNode.element(b).html.prefix(200))"
    }
    for (index, (left, right)) in zip(a.children, b.children).enumerated() {
      let id = right.id.map { $0.isEmpty ? "[\(index)]" : "#\($0)" } ?? "[\(index)]"
      if let found = firstDifference(left, right, at: place + " > " + id) { return found }
    }
    return nil
  }
}

/// A message of the session's as the page reads it off the wire.
private struct WireMessage: Decodable {
  var p: [WirePatch]
  var f: String?
  var path: String?
  var title: String?
  var r: String?
  var k: Int?
  var n: Int?
}

/// One patch record: its kind, then its fields in order (``ServerMessage/json``).
private enum WirePatch: Decodable {
  case replace(id: String, html: String)
  case children(id: String, html: String)
  case text(id: String, text: String)
  case attribute(id: String, name: String, value: String?)
  case insert(parent: String, after: String, html: String)
  case remove(id: String)
  case move(parent: String, child: String, after: String)
  case value(id: String, value: HTMLPatch.FieldValue, acknowledged: Int)
  case stream(parent: String, html: String, atStart: Bool, limit: Int)

  var id: String {
    switch self {
    case .replace(let id, _), .children(let id, _), .text(let id, _), .attribute(let id, _, _),
      .insert(let id, _, _), .remove(let id), .move(let id, _, _), .value(let id, _, _),
      .stream(let id, _, _, _):
      id
    }
  }

  init(from decoder: any Decoder) throws {
    var record = try decoder.unkeyedContainer()
    let kind = try record.decode(String.self)
    let id = try record.decode(String.self)
    switch kind {
    case "r": self = .replace(id: id, html: try record.decode(String.self))
    case "c": self = .children(id: id, html: try record.decode(String.self))
    case "t": self = .text(id: id, text: try record.decode(String.self))
    case "a":
      let name = try record.decode(String.self)
      var value: String?
      if !record.isAtEnd, try !record.decodeNil() { value = try record.decode(String.self) }
      self = .attribute(id: id, name: name, value: value)
    case "i":
      let after = try record.decode(String.self)
      self = .insert(parent: id, after: after, html: try record.decode(String.self))
    case "d": self = .remove(id: id)
    case "m":
      let child = try record.decode(String.self)
      self = .move(parent: id, child: child, after: try record.decode(String.self))
    case "v":
      let value: HTMLPatch.FieldValue
      if let checked = try? record.decode(Bool.self) {
        value = .checked(checked)
      } else {
        value = .text(try record.decode(String.self))
      }
      self = .value(id: id, value: value, acknowledged: try record.decode(Int.self))
    case "s":
      let html = try record.decode(String.self)
      let atStart = try record.decode(Int.self) == 1
      self = .stream(parent: id, html: html, atStart: atStart, limit: try record.decode(Int.self))
    default:
      throw DecodingError.dataCorruptedError(
        in: record, debugDescription: "unknown patch kind \(kind)")
    }
  }
}

extension HTMLNode {
  /// This node with the rows of each stream list that `old` shows with the same id: a redraw
  /// of what holds a stream keeps its rows, which are the page's.
  fileprivate func keepingStreamRows(of old: HTMLNode?) -> HTMLNode {
    guard let old, case .element(var element) = self else { return self }
    if element[attribute: "data-stream"] != nil {
      if case .element(let kept)? = old.find(element.id) { element.children = kept.children }
      return .element(element)
    }
    element.children = element.children.map { $0.keepingStreamRows(of: old) }
    return .element(element)
  }
}

extension HTMLNode.Element {
  /// Sets attribute `name` to `value`, or removes it for `nil`.
  fileprivate mutating func set(_ name: String, _ value: String?) {
    if let index = attributes.firstIndex(where: { $0.name == name }) {
      if let value { attributes[index].value = value } else { attributes.remove(at: index) }
    } else if let value {
      attributes.append((name, value))
    }
  }
}

extension HTMLNode {
  /// Changes the element `id` in place; `false` when the tree has no such element.
  fileprivate mutating func updateNode(_ id: String, _ change: (inout HTMLNode) -> Void) -> Bool {
    guard case .element(var element) = self else { return false }
    if element.id == id {
      change(&self)
      return true
    }
    for index in element.children.indices {
      if element.children[index].updateNode(id, change) {
        self = .element(element)
        return true
      }
    }
    return false
  }

  /// Replaces the element `id` with `nodes`; `false` when the tree has no such element
  /// below this one.
  fileprivate mutating func replaceNode(_ id: String, with nodes: [HTMLNode]) -> Bool {
    guard case .element(var element) = self else { return false }
    if element.id == id {
      // The root itself: only a replacement by one element keeps a page.
      guard let first = nodes.first else { return false }
      self = first
      return true
    }
    for index in element.children.indices {
      if element.children[index].id == id {
        element.children.replaceSubrange(index...index, with: nodes)
        self = .element(element)
        return true
      }
      if element.children[index].replaceNode(id, with: nodes) {
        self = .element(element)
        return true
      }
    }
    return false
  }

  /// A radio (or a label around one) marked chosen when its value is `position`.
  fileprivate func markingRadio(_ position: String) -> HTMLNode {
    guard case .element(var element) = self else { return self }
    if element.tag == "input", element[attribute: "type"] == "radio" {
      element.set("checked", element[attribute: "value"] == position ? "" : nil)
    } else {
      element.children = element.children.map { $0.markingRadio(position) }
    }
    return .element(element)
  }
}
