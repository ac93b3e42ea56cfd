import Tether

/// A list of focusable row buttons with a selection, bound to a property of identifiable rows.
///
/// Clicking a row selects and chooses it; ↑/↓, Home/End move the selection and Enter chooses,
/// as in the terminal. When the rows change, the selected row stays selected (by id), and the
/// owner hears of every move of the selection.
@MainActor
public final class ListView<Row: Identifiable & Equatable>: WebView {
  /// The selected index.
  public let selection = MutableProperty(0)
  private let rows: Property<[Row]>
  private let format: (Row) -> [String]
  private let onChoose: (Int) -> Void
  private let onSelectionChange: (Int) -> Void
  private var selectedID: Row.ID?
  /// A restored selection whose row has not arrived yet.
  private var pendingKey: String?
  private var token: ObservationToken?

  /// Creates a list.
  ///
  /// - Parameters:
  ///   - rows: The rows.
  ///   - format: A row's texts: the first is its title, the others smaller lines.
  ///   - onSelectionChange: Called with the new index whenever the selection moves.
  ///   - onChoose: Called with the index when a row is chosen.
  public init(
    rows: Property<[Row]>, format: @escaping (Row) -> [String],
    onSelectionChange: @escaping (Int) -> Void = { _ in }, onChoose: @escaping (Int) -> Void
  ) {
    self.rows = rows
    self.format = format
    self.onChoose = onChoose
    self.onSelectionChange = onSelectionChange
    selectedID = rows.value.first?.id
    token = rows.changes.observe { [weak self] in self?.follow($0) }
  }

  /// A `<div role=listbox>` of row buttons; the selected one has `aria-selected` and focus.
  public func render(id: String, in context: WebRenderContext) -> HTMLNode {
    let rows = self.rows.value
    let selected = min(selection.value, max(0, rows.count - 1))
    let children = rows.enumerated().map { index, row -> HTMLNode in
      let rowID = "\(id).r\(idComponent("\(row.id)"))"
      context.onClick(rowID) { [weak self] in self?.choose(index) }
      let texts = format(row)
      let lines = texts.enumerated().map { line, text -> HTMLNode in
        .element(
          "span", id: "\(rowID).\(line)", [("class", line == 0 ? "title" : "detail")], [.text(text)]
        )
      }
      // The selection is one attribute, so moving it costs two small patches.
      var attributes = [(name: "type", value: "button"), ("class", "row"), ("role", "option")]
      if index == selected {
        attributes.append(("aria-selected", "true"))
        context.focus = rowID
      }
      return .element("button", id: rowID, attributes, lines)
    }
    return .element("div", id: id, [("class", "list"), ("role", "listbox")], children)
  }

  /// ↑/↓/Home/End move the selection; Enter chooses.
  public func handle(key: WebKey) -> Bool {
    let count = rows.value.count
    guard count > 0 else { return false }
    let current = selection.value
    switch key {
    case .arrowUp: select(current - 1)
    case .arrowDown: select(current + 1)
    case .home: select(0)
    case .end: select(count - 1)
    case .enter: onChoose(min(current, count - 1))
    case .escape: return false
    }
    return true
  }

  /// The selected row's id, as text.
  public var restorationKey: String? { selectedID.map { "\($0)" } }

  /// Selects the row whose id reads `key`, now or when the rows arrive. A row that is gone
  /// when they do leaves the selection where the rows put it.
  public func restore(_ key: String) {
    guard let index = rows.value.firstIndex(where: { "\($0.id)" == key }) else {
      pendingKey = key
      return
    }
    pendingKey = nil
    select(index)
  }

  private func choose(_ index: Int) {
    select(index)
    onChoose(index)
  }

  private func select(_ index: Int) {
    pendingKey = nil
    let rows = self.rows.value
    let clamped = min(max(0, index), max(0, rows.count - 1))
    guard clamped != selection.value else { return }
    // The id first: setting `selection` re-renders, and the render reads both.
    selectedID = rows.indices.contains(clamped) ? rows[clamped].id : nil
    selection.value = clamped
    onSelectionChange(clamped)
  }

  /// Keeps the selected row selected (by id) when the rows change.
  private func follow(_ rows: [Row]) {
    var restored: Int?
    if let key = pendingKey, !rows.isEmpty {
      pendingKey = nil
      restored = rows.firstIndex { "\($0.id)" == key }
    }
    let index = restored ?? selectedID.flatMap { id in rows.firstIndex { $0.id == id } } ?? 0
    selectedID = rows.indices.contains(index) ? rows[index].id : nil
    guard index != selection.value else { return }
    selection.value = index
    onSelectionChange(index)
  }
}
