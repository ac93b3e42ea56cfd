import Tether
import TetherFlow

/// A list whose rows the page keeps and the session does not: TetherFlow's `ListStream`, shown
/// as a `ul` of one `li` per row.
///
/// ```swift
/// stream(model.lines, .class("log"), .ariaLabel("Server log")) { line in
///   span(.class("time")) { line.time }
///   span { line.text }
/// }
/// ```
///
/// Each change the view model makes — an insert, an update in place, a delete, a reset — is
/// rendered once, sent to the page as one patch and forgotten: the session's tree holds the
/// list empty, and the page keeps the rows (the newest `limit` of them, when the stream has
/// one). So a session's memory stays flat however many rows pass through. A row's gestures
/// work while the page shows it: the session keeps each shown row's handlers (not its
/// value), as many as the stream's limit.
///
/// A page that reconnects keeps the rows it shows; changes made while it was away are sent
/// when it is back (up to the stream's `pendingLimit`). A screen that leaves the page and comes
/// back shows the changes made since, on an empty list: a view model that wants its rows back
/// resets the stream.
///
/// - Parameters:
///   - stream: The view model's stream.
///   - attributes: The list's attributes (a class, an accessible name).
///   - row: A row's content, inside its `li`.
/// - Returns: The list.
@MainActor
public func stream<Action, Row: Identifiable>(
  _ stream: ListStream<Row>, _ attributes: Attribute...,
  @MarkupBuilder<Action> row: @escaping (Row) -> Markup<Action>
) -> Markup<Action> where Row.ID: Hashable {
  let extra = attributes.filter(\.isAllowed).compactMap { attribute in
    attribute.value.map { (name: attribute.name, value: $0) }
  }
  return Markup(
    nodes: [
      .control { name, context, dispatch in
        let state = context.store.control(name) { StreamState<Row, Action>(name: name) }
        state.show(stream, row: row, dispatch: dispatch, store: context.store)
        context.addStream(state)
        var attributes: [(name: String, value: String)] = [("data-stream", "")]
        if let limit = stream.limit { attributes.append(("data-stream-limit", String(limit))) }
        // The rows are the page's: the session's tree holds the list empty, so a render never
        // sends them nor takes them away.
        return .element("ul", id: name, attributes + extra, [])
      }
    ], isSingleExpression: true)
}

/// What the session asks of a stream drawn on the page: the patches its changes made.
@MainActor
protocol StreamPatches: AnyObject {
  /// The patches waiting to be sent, which it then forgets.
  func takePatches() -> [HTMLPatch]
}

/// Where a render finds the handlers of a stream's rows.
@MainActor
protocol StreamRows: AnyObject {
  /// What the row holding the element `id` registered, if the page shows such a row.
  func rowContext(containing id: String) -> WebRenderContext?
}

/// A stream's state on the page, kept with its screen: the stream it shows, the patches its
/// changes made that the page has not been sent, and the handlers of the rows the page shows.
@MainActor
final class StreamState<Row: Identifiable, Action>: StreamPatches, StreamRows
where Row.ID: Hashable {
  private let name: String
  private weak var stream: ListStream<Row>?
  private var detach: (() -> Void)?
  private var row: (Row) -> Markup<Action> = { _ in .empty }
  private var dispatch: (Action) -> Void = { _ in }
  private weak var store: MarkupStore?
  private var patches: [HTMLPatch] = []
  private var limit: Int?
  private var pendingLimit = 1_000
  /// The rows the page shows, in order, when the stream has a limit: which rows an insert
  /// pushes off. Ids only.
  private var order = RowOrder()
  /// The handlers of the rows the page shows that registered any, by row id.
  private var handlers: [String: WebRenderContext] = [:]

  init(name: String) {
    self.name = name
  }

  func rowContext(containing id: String) -> WebRenderContext? {
    // A row's elements are named under it: `<list>.k<key>`, then `.`-separated places; a
    // key segment has no `.` of its own.
    guard !handlers.isEmpty, id.hasPrefix(name), id.utf8.count > name.utf8.count + 2 else {
      return nil
    }
    let rest = id.utf8.dropFirst(name.utf8.count)
    guard rest.first == UInt8(ascii: "."), rest.dropFirst().first == UInt8(ascii: "k") else {
      return nil
    }
    let segment = rest.dropFirst().prefix { $0 != UInt8(ascii: ".") }
    return handlers[name + "." + String(decoding: segment, as: UTF8.self)]
  }

  /// Draws `stream` with this render's row content and dispatch; a stream other than the
  /// one shown before starts on an empty list.
  func show(
    _ stream: ListStream<Row>, row: @escaping (Row) -> Markup<Action>,
    dispatch: @escaping (Action) -> Void, store: MarkupStore
  ) {
    self.row = row
    self.dispatch = dispatch
    self.store = store
    store.drew(self)
    guard stream !== self.stream else { return }
    detach?()
    let replacing = self.stream != nil
    self.stream = stream
    limit = stream.limit
    pendingLimit = stream.pendingLimit
    patches = []
    order = RowOrder()
    handlers = [:]
    if replacing { patches.append(.children(id: name, html: "")) }
    detach = stream.attach { [weak self] change in
      // A state gone with its screen takes nothing: the stream keeps the change for the next.
      guard let self else { return false }
      self.apply(change)
      return true
    }
  }

  func takePatches() -> [HTMLPatch] {
    defer { patches = [] }
    return patches
  }

  private func apply(_ change: ListStream<Row>.Change) {
    switch change {
    case .insert(let row, let position):
      let id = rowElementID(row.id)
      // A row the page shows is replaced where it stands; a new one may push another off.
      if let limit, !order.contains(id) {
        order.add(id, atStart: position == .start)
        while order.count > limit, let dropped = order.removeEnd(atStart: position != .start) {
          handlers[dropped] = nil
        }
      }
      let node = render(row, id: id)
      patches.append(
        .stream(
          parent: name, html: node.html, atStart: position == .start, limit: limit))
    case .delete(let rowID):
      let id = rowElementID(rowID)
      handlers[id] = nil
      order.remove(id)
      patches.append(.remove(id: id))
    case .reset(let rows):
      handlers = [:]
      order = RowOrder()
      patches.removeAll()
      var html = ""
      for row in rows {
        let id = rowElementID(row.id)
        if limit != nil { order.add(id, atStart: false) }
        let node = render(row, id: id)
        node.write(to: &html)
      }
      patches.append(.children(id: name, html: html))
    }
    // A full buffer asks to be sent at once; one that cannot be (no page is connected)
    // loses its oldest patches past the limit.
    store?.streamChanged(full: patches.count >= pendingLimit)
    if patches.count > pendingLimit { patches.removeFirst(patches.count - pendingLimit) }
  }

  private func rowElementID(_ id: Row.ID) -> String {
    name + "." + HTMLNode.keySegment(String(describing: id))
  }

  /// The row as its `li` named `id`, its handlers kept when it registered any.
  private func render(_ row: Row, id: String) -> HTMLNode {
    let registered = WebRenderContext(store: store ?? MarkupStore())
    // A row is drawn when the view model changes the stream, maybe inside an observation of
    // its own: what the row reads is not that observation's.
    let children = untracked {
      self.row(row).renderContent(of: id, in: registered, dispatch: dispatch)
    }
    if registered.hasHandlers { handlers[id] = registered } else { handlers[id] = nil }
    return .element("li", id: id, [], children)
  }
}

/// The ids of a stream's rows in page order: added and dropped at either end in constant
/// time; a row deleted from the middle is skipped when its end is reached (each entry carries
/// the number it was added under, so a row deleted and added again is not taken for its old
/// entry).
struct RowOrder {
  private var entries: [(id: String, number: Int)] = []
  private var head = 0
  /// The rows shown, each with the number of its live entry.
  private var members: [String: Int] = [:]
  private var added = 0

  /// How many rows.
  var count: Int { members.count }

  func contains(_ id: String) -> Bool { members[id] != nil }

  mutating func add(_ id: String, atStart: Bool) {
    guard members[id] == nil else { return }
    added += 1
    members[id] = added
    let entry = (id: id, number: added)
    guard atStart else {
      entries.append(entry)
      return
    }
    if head == 0 {
      // Room at the front for as many again: a feed inserting at the start moves its entries
      // once per doubling.
      let room = max(16, entries.count)
      entries.insert(contentsOf: repeatElement((id: "", number: 0), count: room), at: 0)
      head = room
    }
    head -= 1
    entries[head] = entry
  }

  /// Removes `id` wherever it is.
  mutating func remove(_ id: String) {
    members[id] = nil
  }

  /// Removes and returns the first row (`atStart`) or the last; `nil` when there is none.
  mutating func removeEnd(atStart: Bool) -> String? {
    while head < entries.count {
      let entry: (id: String, number: Int)
      if atStart {
        entry = entries[head]
        head += 1
      } else {
        entry = entries.removeLast()
      }
      if members[entry.id] == entry.number {
        members[entry.id] = nil
        if head > 64, head * 2 > entries.count {
          // A new array of the live part: removing in place would keep the old capacity.
          entries = Array(entries[head...])
          head = 0
        }
        return entry.id
      }
    }
    return nil
  }
}
