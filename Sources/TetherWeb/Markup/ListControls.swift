import Tether
import TetherFlow

/// A list of rows a person moves through and chooses from: focusable row buttons with one
/// selected, as in the terminal. Clicking a row selects and chooses it; ↑/↓, Home and End move
/// the selection, Enter chooses.
///
/// ```swift
/// list(model.rows, onChoose: { .open(row: $0) }) { row in
///   span(.class("title")) { row.title }
///   span(.class("detail")) { row.date }
/// }
/// ```
///
/// The selection is the page's, kept from render to render: TetherFlow's `ListSelection`, the
/// terminal's rule, which follows the selected row by identity through each change of `rows`
/// and passes a deleted row's selection to its neighbour. It is found while rendering — the
/// session offers the list its keys and carries its selected row in the page's resume token,
/// so a session rebuilt on another server selects the same row — with nothing for the screen
/// to declare.
///
/// A row is inside a `<button>`, so it is phrasing content (`span`, `strong`, `em`, `small`,
/// text) that sends nothing of its own: the list sends `onChoose`'s and `onSelect`'s actions,
/// each with the row's position in `rows` (the position a view model's `userSelected(row:)`
/// takes).
///
/// - Parameters:
///   - rows: The rows, read where the body reads them.
///   - label: What a screen reader announces for the list; `nil` names it by the screen's
///     title, the page's `<h1>`.
///   - attributes: Other attributes of the list.
///   - onSelect: The action to send when the selection moves, if any.
///   - onChoose: The action to send when a row is chosen.
///   - row: A row's content.
/// - Returns: The list: a `div` with `role="listbox"` of `button`s with `role="option"`.
@MainActor
public func list<Action, Row: Identifiable & Equatable>(
  _ rows: [Row], label: String? = nil, _ attributes: Attribute...,
  onSelect: ((Int) -> Action)? = nil, onChoose: @escaping (Int) -> Action,
  @MarkupBuilder<Never> row: @escaping (Row) -> Markup<Never>
) -> Markup<Action> {
  let extra = attributes
  return Markup(
    nodes: [
      .control { name, context, dispatch in
        let state = context.store.control(name) { ListState<Row>() }
        // This render's rows and actions: the selection follows the rows by identity.
        if state.rows.value != rows { state.rows.value = rows }
        state.choose = { dispatch(onChoose($0)) }
        state.select = onSelect.map { onSelect in { dispatch(onSelect($0)) } }
        state.view.content = .markup(row)
        state.view.attributes = withAttributes(
          label.map { listAttributes + [("aria-label", $0)] } ?? titledListAttributes, extra)
        if let key = context.store.takeSelection(name) { state.view.restore(key) }
        return state.view.render(id: name, in: context)
      }
    ], isSingleExpression: true)
}

/// `base` with the app's `extra` attributes: a class joins the list's own, another attribute
/// replaces one of the same name; the library's own and a flag that is off are left out.
private func withAttributes(
  _ base: [(name: String, value: String)], _ extra: [Attribute]
) -> [(name: String, value: String)] {
  guard !extra.isEmpty else { return base }
  var output = base
  for attribute in extra where attribute.isAllowed {
    guard let value = attribute.value else { continue }
    if let index = output.firstIndex(where: { $0.name == attribute.name }) {
      output[index].value = attribute.name == "class" ? output[index].value + " " + value : value
    } else {
      output.append((attribute.name, value))
    }
  }
  return output
}

/// A markup list's state: its rows as a property its selection follows, the view that draws
/// them, and the actions of the render that drew it last.
@MainActor
private final class ListState<Row: Identifiable & Equatable> {
  let rows = MutableProperty<[Row]>([])
  var choose: (Int) -> Void = { _ in }
  var select: ((Int) -> Void)?
  // The view is this state's own, and the session reaches a list only through the render that
  // drew it, whose state its screen keeps: the callbacks never outlive the state.
  private(set) lazy var view = ListView<Row>(
    rows: rows, format: { _ in [] },
    onSelectionChange: { [unowned self] index in select?(index) },
    onChoose: { [unowned self] index in choose(index) })
}

// Shared, so lists that render the same attributes share one array.
private let listAttributes = [(name: "class", value: "list"), ("role", "listbox")]
// A listbox needs an accessible name (WCAG 4.1.2); the screen's `<h1 id="title">` is one.
private let titledListAttributes = listAttributes + [("aria-labelledby", "title")]

/// A status line with an animated mark while `isActive` (`role="status"`, so a screen reader
/// announces it), or an empty hidden one.
///
/// ```swift
/// spinner(courses.isLoading, message: "Loading courses…")
/// ```
///
/// - Parameters:
///   - isActive: Whether the work is under way.
///   - message: What is under way.
/// - Returns: The line.
@MainActor
public func spinner<Action>(_ isActive: Bool, message: String) -> Markup<Action> {
  isActive
    ? Markup.element(
      "p", [.class("spinner"), .role("status")], Markup(nodes: [.text(message)]))
    : Markup.element("p", [.hidden()], .empty)
}

/// An image from an address that may arrive later: the status text shows until it does.
///
/// Only an address ``WebImageSource`` allows is loaded (an image on the web, an inline raster
/// image, a path under this server's image routes); for any other, the description is shown
/// instead, so an address from data can never be a script or a page of this server.
///
/// ```swift
/// image(source: detail.imageURL, description: detail.titleText)
/// ```
///
/// - Parameters:
///   - source: The image's address, or `nil` while there is none.
///   - description: The `alt` text.
///   - status: What to show while there is no image.
///   - pathPrefixes: This server's own image routes (`/images/` by default).
/// - Returns: An `img`, or a `p` with the status.
@MainActor
public func image<Action>(
  source: String?, description: String, status: String? = nil,
  pathPrefixes: [String] = WebImageSource.defaultPathPrefixes
) -> Markup<Action> {
  guard let source else {
    return Markup.element("p", [.class("dim")], Markup(nodes: [.text(status ?? "")]))
  }
  guard WebImageSource.isAllowed(source, pathPrefixes: pathPrefixes) else {
    return Markup.element("p", [.class("dim")], Markup(nodes: [.text(description)]))
  }
  return Markup.element("img", [.src(trusted: source), .alt(description)], .empty)
}
