import Tether

/// One change to a page the browser applies: the smallest description of how one render
/// differs from the last.
public enum HTMLPatch: Equatable, Sendable {
  /// Replace the element `id` (and everything in it) with `html`.
  case replace(id: String, html: String)
  /// Replace the children of element `id` with `html`.
  case children(id: String, html: String)
  /// Set the text of element `id`, whose only child is text.
  case text(id: String, text: String)
  /// Set attribute `name` of element `id`; `nil` removes it.
  case attribute(id: String, name: String, value: String?)
  /// Insert `html` into element `parent`, right after its child `after`, or first when `after`
  /// is `nil`: a row added to a list, without sending the others again.
  case insert(parent: String, after: String?, html: String)
  /// Remove the element `id`: a row deleted from a list.
  case remove(id: String)
  /// Move the child `id` of element `parent` right after its child `after`, or first when
  /// `after` is `nil`: a row moved in a list, without sending it or the others again.
  case move(parent: String, id: String, after: String?)
  /// Set the live value of the field `id` — what a person types or ticks — because the model
  /// changed it on purpose (a field cleared after submit). A page that has typed in the field
  /// since the model's newest acknowledged edit keeps its own text (TetherFlow's
  /// `FieldUpdate.applies(toFieldAt:)`).
  case value(id: String, value: FieldValue, acknowledged: Int)
  /// Put the row `html` (one element) into the stream list `parent` (``stream(_:_:row:)``):
  /// in place of the child with its id if there is one, else first (`atStart`) or last; then,
  /// past `limit` children, drop them from the other end.
  case stream(parent: String, html: String, atStart: Bool, limit: Int?)

  /// The live value of a field.
  public enum FieldValue: Equatable, Sendable {
    /// A text field's text.
    case text(String)
    /// Whether a checkbox is ticked.
    case checked(Bool)
  }

  /// The attributes of an `input` (or a `select`) that describe its live state — the text typed, the box
  /// ticked, the newest edit the server had seen. They are never patched as attributes (a
  /// browser shows the live value, not the attribute, once a person has typed): a change to
  /// `value` or `checked` travels as ``value(id:value:acknowledged:)``. They are rendered, so a
  /// whole page, or a replaced element, starts from the model's value.
  ///
  /// The session keeps the page's own edits in the tree it diffs against, so the echo of what
  /// was typed is no change at all, and only the model's own changes are sent.
  static let liveFieldAttributes: Set<String> = ["value", "checked", "data-ack"]

  /// The id of the element the patch changes.
  public var targetID: String {
    switch self {
    case .replace(let id, _), .children(let id, _), .text(let id, _), .attribute(let id, _, _),
      .value(let id, _, _), .insert(let id, _, _), .remove(let id), .move(let id, _, _),
      .stream(let id, _, _, _):
      id
    }
  }

  /// The patches that turn the page `old` into `new`, smallest first: an attribute or a text
  /// changes in place; keyed children added, removed or moved are inserted, removed or moved
  /// one by one (the fewest moves: the children in the longest run that kept its order stay);
  /// children whose ids changed otherwise are replaced together; an element whose tag or id
  /// changed is replaced whole.
  ///
  /// - Parameters:
  ///   - old: The page the browser has.
  ///   - new: The page just rendered.
  /// - Returns: The patches, in document order; empty when nothing changed.
  public static func diff(from old: HTMLNode, to new: HTMLNode) -> [HTMLPatch] {
    var patches: [HTMLPatch] = []
    diff(old, new, into: &patches)
    return patches
  }

  private static func diff(_ old: HTMLNode, _ new: HTMLNode, into patches: inout [HTMLPatch]) {
    guard old != new else { return }
    guard case .element(let before) = old, case .element(let after) = new else { return }
    guard before.tag == after.tag, before.id == after.id else {
      patches.append(.replace(id: before.id, html: new.html))
      return
    }
    let isField = after.tag == "input" || after.tag == "textarea" || after.tag == "select"
    let live = isField ? liveFieldAttributes : []
    if after.tag == "textarea" {
      // Its text is its live value: a change travels as a value, never as content (a browser
      // shows what was typed, not the content, once a person has typed).
      let acknowledged = after[attribute: "data-ack"].flatMap { Int($0) } ?? 0
      let text = after.children.first.map(\.visibleText) ?? ""
      if text != (before.children.first.map(\.visibleText) ?? "") {
        patches.append(.value(id: after.id, value: .text(text), acknowledged: acknowledged))
      }
    } else if after.tag == "input" || after.tag == "select" {
      // A picker's value is its chosen option's position.
      let acknowledged = after[attribute: "data-ack"].flatMap { Int($0) } ?? 0
      if after[attribute: "type"] == "checkbox" || after[attribute: "type"] == "radio" {
        let checked = after[attribute: "checked"] != nil
        if checked != (before[attribute: "checked"] != nil) {
          patches.append(.value(id: after.id, value: .checked(checked), acknowledged: acknowledged))
        }
      } else if let text = after[attribute: "value"], text != before[attribute: "value"] ?? "" {
        patches.append(.value(id: after.id, value: .text(text), acknowledged: acknowledged))
      }
    }
    for (name, value) in after.attributes
    where before[attribute: name] != value && !live.contains(name) {
      patches.append(.attribute(id: after.id, name: name, value: value))
    }
    for (name, _) in before.attributes where after[attribute: name] == nil && !live.contains(name) {
      patches.append(.attribute(id: after.id, name: name, value: nil))
    }
    guard after.tag != "textarea", before.children != after.children else { return }
    if case .text(let text) = after.children.first, after.children.count == 1,
      before.children.count <= 1, before.children.allSatisfy({ $0.id == nil })
    {
      patches.append(.text(id: after.id, text: text))
      return
    }
    let sameShape =
      before.children.count == after.children.count
      && zip(before.children, after.children).allSatisfy { $0.id == $1.id && $0.id != nil }
    if !sameShape, let keyed = keyedChanges(from: before, to: after) {
      patches += keyed.patches
      for (oldChild, newChild) in keyed.kept { diff(oldChild, newChild, into: &patches) }
      return
    }
    guard sameShape else {
      var html = ""
      for child in after.children { child.write(to: &html) }
      patches.append(.children(id: after.id, html: html))
      return
    }
    for (oldChild, newChild) in zip(before.children, after.children) {
      diff(oldChild, newChild, into: &patches)
    }
  }

  /// Inserts, removals and moves that turn `before`'s children into `after`'s when every child
  /// is an element with a unique id and most of them stay; `nil` otherwise. Returns the patches
  /// and the kept pairs to diff in turn.
  private static func keyedChanges(
    from before: HTMLNode.Element, to after: HTMLNode.Element
  ) -> (patches: [HTMLPatch], kept: [(HTMLNode, HTMLNode)])? {
    let oldIDs = before.children.map(\.id)
    let newIDs = after.children.map(\.id)
    guard !oldIDs.isEmpty, !newIDs.isEmpty,
      oldIDs.allSatisfy({ $0 != nil }), newIDs.allSatisfy({ $0 != nil })
    else { return nil }
    let oldSet = Set(oldIDs.compactMap { $0 })
    let newSet = Set(newIDs.compactMap { $0 })
    guard oldSet.count == oldIDs.count, newSet.count == newIDs.count else { return nil }
    let keptOld = before.children.filter { newSet.contains($0.id ?? "") }
    let keptNew = after.children.filter { oldSet.contains($0.id ?? "") }
    // Only worth it when most children stay: otherwise one replacement is smaller.
    guard keptNew.count * 2 >= after.children.count else { return nil }
    var patches: [HTMLPatch] = []
    for child in before.children where !newSet.contains(child.id ?? "") {
      patches.append(.remove(id: child.id ?? ""))
    }
    // The kept children that stay where they are: the longest run of them in the old order;
    // every other kept child moves, each right after the child before it in the new order.
    let oldPosition = Dictionary(
      uniqueKeysWithValues: keptOld.enumerated().map { ($1.id ?? "", $0) })
    let staying = longestIncreasingSubsequence(keptNew.map { oldPosition[$0.id ?? ""] ?? 0 })
    var keptIndex = 0
    var previous: String?
    for child in after.children {
      let id = child.id ?? ""
      if !oldSet.contains(id) {
        patches.append(.insert(parent: after.id, after: previous, html: child.html))
      } else {
        if !staying[keptIndex] {
          patches.append(.move(parent: after.id, id: id, after: previous))
        }
        keptIndex += 1
      }
      previous = id
    }
    let oldByID = Dictionary(uniqueKeysWithValues: keptOld.map { ($0.id ?? "", $0) })
    return (patches, keptNew.compactMap { new in oldByID[new.id ?? ""].map { ($0, new) } })
  }
}
