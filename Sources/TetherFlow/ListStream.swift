/// A list a view model sends to its view row by row and does not keep: a feed, a log, a chat.
///
/// A view model that shows 100,000 rows over a session's life need not hold them: it inserts,
/// updates, deletes and resets rows, and the view puts each change on the screen, which keeps
/// the rows — the newest ``limit`` of them, when the list has one. Neither the view model nor
/// the view layer keeps a row after showing it, so a session's memory stays flat however many
/// rows pass through it (TetherWeb's `stream(_:_:row:)` sends each change as one patch).
///
/// ```swift
/// @MainActor final class LogViewModel {
///   let lines = ListStream<LogLine>(limit: 500)
///
///   func received(_ line: LogLine) {
///     lines.insert(line)  // the 501st line pushes the oldest off the screen
///   }
/// }
/// ```
///
/// A change made while no view shows the list waits until one does, up to
/// ``pendingLimit`` changes: past that, the oldest are dropped (a reset drops every change
/// before it, which it undoes anyway).
@MainActor
public final class ListStream<Row: Identifiable> where Row.ID: Hashable {
  /// Where an inserted row goes.
  public enum Position: Sendable, Equatable {
    /// After every row: a log, a chat.
    case end
    /// Before every row: a feed, newest first.
    case start
  }

  /// One change, as a view applies it.
  public enum Change {
    /// Insert `row` at `position`; a row with the same id that the screen shows is replaced
    /// where it stands instead.
    case insert(Row, at: Position)
    /// Remove the row with this id, if the screen shows it.
    case delete(Row.ID)
    /// Remove every row, then show `rows` in order.
    case reset([Row])
  }

  /// How many rows the screen keeps: past it, an insert at the end drops the first row, one
  /// at the start the last. `nil` keeps every row.
  public let limit: Int?

  /// How many changes wait for a view while none shows the list.
  public let pendingLimit: Int

  /// Changes made while no view took them, oldest first.
  private var pending: [Change] = []
  /// The view that shows the list now, if one does: it answers `false` once it is gone.
  private var consumer: ((Change) -> Bool)?
  private var consumerID = 0

  /// A stream whose screen keeps at most `limit` rows (every row when `nil`).
  ///
  /// - Parameters:
  ///   - limit: How many rows the screen keeps; at least 1.
  ///   - pendingLimit: How many changes wait for a view while none shows the list.
  public init(limit: Int? = nil, pendingLimit: Int = 1_000) {
    self.limit = limit.map { max(1, $0) }
    self.pendingLimit = max(1, pendingLimit)
  }

  /// Shows `row` at `position`, or in place of the row with its id if the screen has one.
  ///
  /// - Parameters:
  ///   - row: The row.
  ///   - position: Where a new row goes.
  public func insert(_ row: Row, at position: Position = .end) {
    send(.insert(row, at: position))
  }

  /// Shows `rows` at `position`, in order (at the start, the first of them ends up first).
  ///
  /// - Parameters:
  ///   - rows: The rows.
  ///   - position: Where they go.
  public func insert(contentsOf rows: [Row], at position: Position = .end) {
    let ordered = position == .start ? rows.reversed() : rows
    for row in ordered { send(.insert(row, at: position)) }
  }

  /// Replaces the row with the same id where it stands (``insert(_:at:)`` does the same).
  ///
  /// - Parameter row: The row's new content.
  public func update(_ row: Row) {
    send(.insert(row, at: .end))
  }

  /// Removes the row with id `id` from the screen.
  ///
  /// - Parameter id: The row's id.
  public func delete(id: Row.ID) {
    send(.delete(id))
  }

  /// Removes every row from the screen and shows `rows` instead.
  ///
  /// - Parameter rows: The rows to show, in order; none by default.
  public func reset(_ rows: [Row] = []) {
    let shown = limit.map { Array(rows.suffix($0)) } ?? rows
    send(.reset(shown))
  }

  /// How many changes wait for a view.
  public var pendingCount: Int { pending.count }

  /// Makes `apply` the one view the changes go to, first handing it those waiting; returns
  /// what ends that (a view that goes, or another view taking the list, ends it).
  ///
  /// - Parameter apply: Applies one change and returns `true`; returns `false`, taking
  ///   nothing, once the view is gone, and the changes wait again from that one on.
  /// - Returns: Call it when the view stops showing the list.
  public func attach(_ apply: @escaping (Change) -> Bool) -> () -> Void {
    consumerID &+= 1
    let id = consumerID
    consumer = apply
    let waiting = pending
    pending = []
    for change in waiting { send(change) }
    return { [weak self] in
      guard let self, self.consumerID == id else { return }
      self.consumer = nil
    }
  }

  private func send(_ change: Change) {
    if let consumer {
      if consumer(change) { return }
      self.consumer = nil
    }
    if case .reset = change { pending.removeAll() }
    pending.append(change)
    if pending.count > pendingLimit { pending.removeFirst(pending.count - pendingLimit) }
  }
}
