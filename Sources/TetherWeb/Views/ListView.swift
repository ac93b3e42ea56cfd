import Tether
import TetherFlow

/// A list of focusable row buttons with a selection, bound to a property of identifiable rows.
///
/// Clicking a row selects and chooses it; ↑/↓, Home/End move the selection and Enter chooses,
/// as in the terminal. The selection is a `ListSelection` (TetherFlow), the terminal's too:
/// it follows the selected row by identity through each change of the rows, with one rule for
/// a deleted selected row, and the owner hears of every move.
@MainActor
final class ListView<Row: Identifiable & Equatable>: WebView, SelectableState {
  /// The selection: the rule every view layer shares.
  let listSelection: ListSelection<Row>
  private let rows: Property<[Row]>
  /// How a row is drawn: changed by each render of the markup ``list`` that holds the view.
  var content: Content
  enum Content {
    case texts((Row) -> [String])
    case markup((Row) -> Markup<Never>)
  }
  var attributes: [(name: String, value: String)]
  /// The element id of the last render: a list found while rendering is named by it.
  private(set) var name = ""

  /// Creates a list.
  ///
  /// - Parameters:
  ///   - rows: The rows.
  ///   - label: What a screen reader announces for the list; `nil` (the default) names it by
  ///     the screen's title, the page's `<h1>`.
  ///   - format: A row's texts: the first is its title, the others smaller lines.
  ///   - onSelectionChange: Called with the new index whenever the selection moves.
  ///   - onChoose: Called with the index when a row is chosen.
  init(
    rows: Property<[Row]>, label: String? = nil, format: @escaping (Row) -> [String],
    onSelectionChange: @escaping (Int) -> Void = { _ in }, onChoose: @escaping (Int) -> Void
  ) {
    self.rows = rows
    content = .texts(format)
    attributes = label.map { listAttributes + [("aria-label", $0)] } ?? titledListAttributes
    listSelection = ListSelection(rows: rows, onMove: onSelectionChange, onActivate: onChoose)
  }

  /// Creates a list whose rows are markup: each row's button holds what `row` gives.
  ///
  /// Row content is inside a `<button>`, so it is phrasing content (`span`, `strong`, `em`,
  /// `small`, text) and sends no action of its own: a click anywhere on the row selects and
  /// chooses it.
  ///
  /// - Parameters:
  ///   - rows: The rows.
  ///   - label: What a screen reader announces for the list; `nil` (the default) names it by
  ///     the screen's title, the page's `<h1>`.
  ///   - onSelectionChange: Called with the new index whenever the selection moves.
  ///   - onChoose: Called with the index when a row is chosen.
  ///   - row: A row's content.
  init(
    rows: Property<[Row]>, label: String? = nil,
    onSelectionChange: @escaping (Int) -> Void = { _ in }, onChoose: @escaping (Int) -> Void,
    @MarkupBuilder<Never> row: @escaping (Row) -> Markup<Never>
  ) {
    self.rows = rows
    content = .markup(row)
    attributes = label.map { listAttributes + [("aria-label", $0)] } ?? titledListAttributes
    listSelection = ListSelection(rows: rows, onMove: onSelectionChange, onActivate: onChoose)
  }

  /// The selected index.
  var selection: Property<Int> { listSelection.$index }

  /// A `<div role=listbox>` of row buttons, named by its label or the screen's title; the
  /// selected one has `aria-selected` and focus.
  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    name = id
    context.found(self)
    let rows = self.rows.value
    let selected = min(selection.value, max(0, rows.count - 1))
    let children = rows.enumerated().map { index, row -> HTMLNode in
      let rowID = "\(id).r\(idComponent("\(row.id)"))"
      context.onClick(rowID) { [weak self] in self?.listSelection.activate(index) }
      // The selection is one attribute, so moving it costs two small patches.
      var attributes = rowAttributes
      if index == selected {
        attributes.append(("aria-selected", "true"))
        context.focus = rowID
      }
      switch content {
      case .texts(let format):
        let lines = format(row).enumerated().map { line, text -> HTMLNode in
          .element(
            "span", id: "\(rowID).\(line)", line == 0 ? titleAttributes : detailAttributes,
            [.text(text)]
          )
        }
        return .element("button", id: rowID, attributes, lines)
      case .markup(let markup):
        // The row's own markup, named under the row: its elements are the button's children.
        let children = markup(row).renderContent(of: rowID, in: context) { _ in }
        return .element("button", id: rowID, attributes, children)
      }
    }
    return .element("div", id: id, attributes, children)
  }

  /// ↑/↓/Home/End move the selection; Enter chooses.
  func handle(key: WebKey) -> Bool {
    listSelection.handle(key.screenKey)
  }

  func handle(_ key: ScreenKey) -> Bool {
    listSelection.handle(key)
  }

  /// The selected row's id, as text.
  var restorationKey: String? { listSelection.restorationKey }

  /// Selects the row whose id reads `key`, now or when the rows arrive. A row that is gone
  /// when they do leaves the selection where the rows put it.
  func restore(_ key: String) {
    listSelection.restore(key)
  }
}

/// State a page keeps for a control between renders that a session asks of the page: which
/// keys it takes and what a resumed session brings back (a list's selection). Registered in
/// the render that draws it (``WebRenderContext/found(_:)``).
@MainActor
protocol SelectableState: AnyObject {
  /// The control's element id.
  var name: String { get }
  /// Its state as a key, or `nil` for none.
  var restorationKey: String? { get }
  /// Takes a key; `true` if it did.
  func handle(_ key: ScreenKey) -> Bool
}

// Shared, so rows that render the same attributes share one array instead of each holding a
// copy while the session keeps its page tree for diffing.
private let listAttributes = [(name: "class", value: "list"), ("role", "listbox")]
// A listbox needs an accessible name (WCAG 4.1.2); the screen's `<h1 id="title">` is one.
private let titledListAttributes = listAttributes + [("aria-labelledby", "title")]
private let rowAttributes = [(name: "type", value: "button"), ("class", "row"), ("role", "option")]
private let titleAttributes = [(name: "class", value: "title")]
private let detailAttributes = [(name: "class", value: "detail")]
