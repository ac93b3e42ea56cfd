import Tether

/// A list's selection as a rule every view layer shares: which row is selected, how
/// ``ScreenKey``s move it, and where it goes when the rows change.
///
/// ```swift
/// let selection = ListSelection(
///   rows: list.rows,
///   onMove: { row in Task { await list.userReached(row: row) } },
///   onActivate: { list.userSelected(row: $0) })
/// selection.handle(.down)       // the second row, and `onMove(1)`
/// selection.handle(.activate)   // `onActivate(1)`
/// ```
///
/// The selection follows its row by identity, through the `ListDiff` of each change of the
/// rows: rows inserted, deleted or moved around it leave the same row selected. When the
/// selected row itself is deleted, the selection goes to **the nearest row after it that is
/// still there** (in the old order), else to the nearest one before it, else to the first row;
/// an empty list selects nothing (``index`` is 0, ``selectedID`` is `nil`).
///
/// The owner hears of every move through `onMove`, whether a key or a change of the rows moved
/// it, so what a view model knows of the selection (paging near the end, for one) never goes
/// stale.
@MainActor
public final class ListSelection<Row: Identifiable & Equatable> {
  /// The selected position; 0 when the list is empty.
  @Output public private(set) var index = 0
  /// The selected row's id; `nil` when the list is empty.
  public private(set) var selectedID: Row.ID?

  private let rows: Property<[Row]>
  private var lastRows: [Row]
  private let onMove: (Int) -> Void
  private let onActivate: (Int) -> Void
  /// A restored selection whose row has not arrived yet.
  private var pendingKey: String?
  private var token: ObservationToken?

  /// Starts following `rows`, with the first row selected.
  ///
  /// - Parameters:
  ///   - rows: The rows.
  ///   - onMove: Called with the new position whenever the selection moves.
  ///   - onActivate: Called with the position when a row is chosen.
  public init(
    rows: Property<[Row]>, onMove: @escaping (Int) -> Void = { _ in },
    onActivate: @escaping (Int) -> Void
  ) {
    self.rows = rows
    self.onMove = onMove
    self.onActivate = onActivate
    lastRows = rows.value
    selectedID = rows.value.first?.id
    token = rows.changes.observe { [weak self] in self?.follow($0) }
  }

  /// Moves the selection, or chooses the selected row.
  ///
  /// - Parameters:
  ///   - key: The key: ``ScreenKey/up``, ``ScreenKey/down``, ``ScreenKey/pageUp``,
  ///     ``ScreenKey/pageDown``, ``ScreenKey/home`` and ``ScreenKey/end`` move;
  ///     ``ScreenKey/activate`` chooses; ``ScreenKey/cancel`` is not the list's.
  ///   - pageSize: How many rows a page key moves by (the rows a view shows at once).
  /// - Returns: Whether the list used the key; an empty list uses none.
  @discardableResult
  public func handle(_ key: ScreenKey, pageSize: Int = 1) -> Bool {
    let count = rows.value.count
    guard count > 0 else { return false }
    let current = self.index
    switch key {
    case .up: select(current - 1)
    case .down: select(current + 1)
    case .pageUp: select(current - max(1, pageSize))
    case .pageDown: select(current + max(1, pageSize))
    case .home: select(0)
    case .end: select(count - 1)
    case .activate: onActivate(min(current, count - 1))
    case .cancel, .next, .previous: return false
    }
    return true
  }

  /// Selects the row at `position` (clamped to the rows).
  ///
  /// - Parameter position: The row's position.
  public func select(_ position: Int) {
    pendingKey = nil
    let rows = self.rows.value
    let clamped = min(max(0, position), max(0, rows.count - 1))
    // The id first: a view re-renders on `index`, and reads both.
    selectedID = rows.indices.contains(clamped) ? rows[clamped].id : nil
    guard clamped != self.index else { return }
    self.index = clamped
    onMove(clamped)
  }

  /// Selects the row at `position` and chooses it: a click or a tap on a row.
  ///
  /// - Parameter position: The row's position.
  public func activate(_ position: Int) {
    guard rows.value.indices.contains(position) else { return }
    select(position)
    onActivate(position)
  }

  /// The selected row's id as text: what a session keeps to select the same row again
  /// elsewhere.
  public var restorationKey: String? { selectedID.map { "\($0)" } }

  /// Selects the row whose id reads `key`, now or when the rows arrive. If the row is not
  /// among the rows when they do, the selection stays where the rows put it.
  ///
  /// - Parameter key: A key ``restorationKey`` gave.
  public func restore(_ key: String) {
    guard let position = rows.value.firstIndex(where: { "\($0.id)" == key }) else {
      pendingKey = key
      return
    }
    select(position)
  }

  /// Where the selection at `old` goes when `diff` turns the rows into new ones: its row's new
  /// position; for a deleted row, the nearest later survivor's, else the nearest earlier
  /// survivor's, else the first row; 0 for an empty list.
  ///
  /// - Parameters:
  ///   - old: The selected position in the old rows.
  ///   - diff: The change of the rows.
  /// - Returns: The selected position in the new rows.
  public static func position(following old: Int, through diff: ListDiff<Row>) -> Int {
    guard diff.newCount > 0 else { return 0 }
    guard diff.oldCount > 0, old >= 0, old < diff.oldCount else { return 0 }
    let positions = diff.newIndices()
    if let kept = positions[old] { return kept }
    if let after = positions[(old + 1)...].lazy.compactMap({ $0 }).first { return after }
    if let before = positions[..<old].reversed().lazy.compactMap({ $0 }).first { return before }
    return 0
  }

  private func follow(_ newRows: [Row]) {
    let oldRows = lastRows
    lastRows = newRows
    var position: Int
    if let key = pendingKey, !newRows.isEmpty,
      let restored = newRows.firstIndex(where: { "\($0.id)" == key })
    {
      pendingKey = nil
      position = restored
    } else {
      if !newRows.isEmpty { pendingKey = nil }
      position = Self.position(
        following: self.index, through: ListDiff(from: oldRows, to: newRows))
    }
    position = min(position, max(0, newRows.count - 1))
    selectedID = newRows.indices.contains(position) ? newRows[position].id : nil
    guard position != self.index else { return }
    self.index = position
    onMove(position)
  }
}
