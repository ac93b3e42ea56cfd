import Tether

/// Builds ``Markup`` from Swift code: elements and text as statements, `if`, `if let`,
/// `switch` and `for` as in any Swift code, and ``ForEach(_:row:)`` for rows keyed by their id.
///
/// Each statement of a block keeps its place: content that an `if` shows or hides is numbered
/// by the `if`'s place, so the elements after it keep their ids either way.
@resultBuilder
@MainActor
public enum MarkupBuilder<Action> {
  /// An element or other markup.
  public static func buildExpression(_ markup: Markup<Action>) -> Markup<Action> {
    var single = markup
    single.isSingleExpression = markup.nodes.count == 1
    return single
  }

  /// Text.
  public static func buildExpression(_ text: String) -> Markup<Action> {
    Markup(nodes: [.text(text)], isSingleExpression: true)
  }

  /// A ``WebView`` placed in markup, rendered under the id of its place.
  static func buildExpression(_ view: any WebView) -> Markup<Action> {
    Markup(nodes: [.view(view)], isSingleExpression: true)
  }

  /// A block's statements, numbered by place.
  public static func buildBlock(_ components: Markup<Action>...) -> Markup<Action> {
    Markup(
      nodes: components.map { component in
        if component.isSingleExpression, component.nodes.count == 1 {
          component.nodes[0]
        } else {
          .list(component.nodes)
        }
      })
  }

  /// An `if` without `else`: its content while the condition holds, nothing otherwise.
  public static func buildOptional(_ component: Markup<Action>?) -> Markup<Action> {
    Markup(nodes: [.branch("a", component?.nodes ?? [])], isSingleExpression: true)
  }

  /// The first branch of an `if`/`else` or `switch`.
  public static func buildEither(first component: Markup<Action>) -> Markup<Action> {
    Markup(nodes: [.branch("a", component.nodes)], isSingleExpression: true)
  }

  /// The second branch of an `if`/`else` or `switch`.
  public static func buildEither(second component: Markup<Action>) -> Markup<Action> {
    Markup(nodes: [.branch("b", component.nodes)], isSingleExpression: true)
  }

  /// A `for` loop's passes, numbered in order (``ForEach(_:row:)`` keys them instead).
  public static func buildArray(_ components: [Markup<Action>]) -> Markup<Action> {
    Markup(nodes: [.list(components.map { .list($0.nodes) })], isSingleExpression: true)
  }

  /// `if #available`.
  public static func buildLimitedAvailability(_ component: Markup<Action>) -> Markup<Action> {
    component
  }
}

/// Rows of markup, one per element of `data`, each named by its element's id: a row keeps its
/// element's id (and with it its DOM node on the page) when rows before it come or go.
///
/// ```swift
/// ForEach(model.rows) { row in
///   li { row.title }
/// }
/// ```
@MainActor
public func ForEach<Data: Sequence, Action>(
  _ data: Data, @MarkupBuilder<Action> row: (Data.Element) -> Markup<Action>
) -> Markup<Action> where Data.Element: Identifiable {
  ForEach(data, id: \.id, row: row)
}

/// Rows of markup, one per element of `data`, each named by its `id` key path's value.
@MainActor
public func ForEach<Data: Sequence, ID: Hashable, Action>(
  _ data: Data, id: KeyPath<Data.Element, ID>,
  @MarkupBuilder<Action> row: (Data.Element) -> Markup<Action>
) -> Markup<Action> {
  var seen = Set<String>()
  var items: [(key: String, nodes: [Markup<Action>.Node])] = []
  for element in data {
    // Two rows with one key would share ids: the second is numbered apart.
    var key = HTMLNode.keySegment("\(element[keyPath: id])")
    if !seen.insert(key).inserted { key += "-\(items.count)" }
    items.append((key, row(element).nodes))
  }
  return Markup(nodes: [.keyed(items)])
}

extension HTMLNode {
  /// The part of a ``ForEach(_:row:)`` row's element id that names its row: `k`, then the key
  /// with every UTF-8 byte but ASCII letters and digits written `_` and two hex digits. A row
  /// that is one element has the id `<list's content id>.<this>`.
  public static func keySegment(_ key: String) -> String {
    "k" + idComponent(key)
  }
}

/// Content rendered again only when `key` changes: a list's row keyed by the row's value, so
/// that a render in which the row is unchanged — a keystroke elsewhere — costs a comparison,
/// not the row's markup, and the page's diff compares the very same tree.
///
/// ```swift
/// ForEach(model.rows) { row in
///   Cached(row) { item(row) }
/// }
/// ```
///
/// The key must hold everything the content shows: what `content` reads beside its key (a
/// property of the view model) would not render it again while the key is unchanged, so a
/// debug build stops at such a read, naming the content. Read it outside and put it in the key,
/// or show it in a ``Component(_:)`` (which observes its own reads). The content's gestures,
/// focus and fields are kept with it.
@MainActor
public func Cached<Key: Hashable, Action>(
  _ key: Key, @MarkupBuilder<Action> content: @escaping () -> Markup<Action>
) -> Markup<Action> {
  Markup(nodes: [.cached(AnyHashable(key), content)], isSingleExpression: true)
}

/// The debug build's check that ``Cached(_:content:)`` content reads nothing beside its key.
@MainActor
enum CachedContentCheck {
  /// Told the content's name and how many tracked values its build read: by default it stops
  /// a debug build (a test replaces it to see the check).
  static var failure: (String) -> Void = { message in assertionFailure(message) }

  static func readOutsideKey(_ name: String, _ reads: Int) {
    failure(
      "Cached content \(name) read \(reads) tracked value(s) beside its key: on a cache hit "
        + "the page would not follow them. Put what it shows in the key, or show it in a "
        + "Component.")
  }
}
