/// The page as its session knows it: the tree it was last sent (with the edits the page made
/// since), the path in its address bar, its title and the element it focuses — what each render
/// is compared with, so only the difference travels.
@MainActor
final class KeptPage {
  /// The tree the page shows, or `nil` when it must be sent whole (a page that reconnected).
  private(set) var tree: HTMLNode?
  private(set) var path: String?
  private(set) var title: String?
  /// The element the page was last told to focus.
  private(set) var focus: String?
  /// The digest of the tree a reconnecting page says it shows, until the next render is
  /// compared with it.
  private var shown: String?

  /// Attributes whose values are the session's own, not the app's: a checkbox's version
  /// (TetherFlow's `FieldBinding.version`) starts at a random number in every session, so a
  /// session rebuilt from a page's token renders other values than the page was served.
  /// The digest leaves them out, and a page whose digest matches is sent them as a patch.
  static let perSessionAttributes: Set<String> = ["data-version"]

  /// What a page says it shows (``ClientMessage/hello(secret:token:shown:)``): the digest of
  /// the tree without ``perSessionAttributes``.
  static func shownDigest(of tree: HTMLNode) -> String {
    tree.removingAttributes(perSessionAttributes).digest
  }

  /// The page was served `tree`, at `path`, titled `title`, focusing `focus`.
  func served(_ tree: HTMLNode, path: String, title: String, focus: String?) {
    self.tree = tree
    self.path = path
    self.title = title
    self.focus = focus
  }

  /// The page reconnected: it is sent the whole app unless it says it shows (`shown`, the
  /// digest of what it was served) exactly the next render.
  func reconnected(shown: String?) {
    tree = nil
    path = nil
    title = nil
    focus = nil
    self.shown = shown
  }

  /// The patches that turn the page into `new`, which it then shows; `redrawn` when that is
  /// the whole app. A page that said it shows this very render (it was served it, by this
  /// server or another) keeps its elements, its focus and its address.
  func update(to new: HTMLNode, path: String, title: String, focus: String?)
    -> (patches: [HTMLPatch], redrawn: Bool)
  {
    if tree == nil, let shown {
      self.shown = nil
      if Self.shownDigest(of: new) == shown {
        served(
          new.removingAttributes(Self.perSessionAttributes), path: path, title: title, focus: focus)
      }
    }
    defer { tree = new }
    guard let tree else { return ([.replace(id: "app", html: new.html)], true) }
    return (HTMLPatch.diff(from: tree, to: new), false)
  }

  /// The patches for component `name` rendered again alone as `node`; `nil` when the page
  /// does not show it where the session thought (the whole page must be rendered).
  func component(_ name: String, renderedAs node: HTMLNode) -> [HTMLPatch]? {
    var before: HTMLNode?
    let found =
      tree?.updateElement(name) { kept in
        before = kept
        kept = node
      } ?? false
    guard found, let before else { return nil }
    return HTMLPatch.diff(from: before, to: node)
  }

  /// What the page is told with an update: the path, title and focus that changed since it
  /// was last told (focus again whenever the app was redrawn), which it then shows.
  func tell(path: String, title: String, focus: String?, redrawn: Bool)
    -> (path: String?, title: String?, focus: String?)
  {
    let told = (
      path: path != self.path ? path : nil, title: title != self.title ? title : nil,
      focus: focus.flatMap { $0 != self.focus || redrawn ? $0 : nil }
    )
    self.path = path
    self.title = title
    self.focus = focus
    return told
  }

  /// Records what the page shows after its edit number `sequence` of field `id`: the field's
  /// live attributes, so the model taking the edit is no change to send (no echo of typing).
  func pageEdited(
    _ attributes: [(name: String, value: String?)], on id: String, edit sequence: Int
  ) {
    tree?.updateElement(id) { node in
      guard case .element(var element) = node else { return }
      node = .text("")
      var changes = attributes + [("data-ack", "\(sequence)")]
      if element.tag == "textarea", let text = changes.first(where: { $0.name == "value" })?.value {
        // A text area's text is its content.
        element.children = [.text(text)]
        changes.removeAll { $0.name == "value" }
      }
      if element.tag == "fieldset", let chosen = changes.first(where: { $0.name == "value" })?.value
      {
        // A radio group's choice is which of its radios is checked; each carries the edit
        // number, and the group itself has no value.
        element.children = element.children.map { child in
          child.markingRadio(chosen: chosen, acknowledged: sequence)
        }
        node = .element(element)
        return
      }
      if element.tag == "select", let chosen = changes.first(where: { $0.name == "value" })?.value {
        // A picker's choice is also which option is marked selected.
        element.children = element.children.map { child in
          guard case .element(var option) = child else { return child }
          option.attributes.removeAll { $0.name == "selected" }
          if option.attributes.contains(where: { $0.name == "value" && $0.value == chosen }) {
            option.attributes.append(("selected", ""))
          }
          return .element(option)
        }
      }
      node = .element(element)
      node.setAttributes(changes, onElement: id)
    }
  }
}
