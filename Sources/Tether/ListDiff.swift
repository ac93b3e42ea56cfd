/// The changes that turn one list of identifiable elements into another: deletions,
/// insertions, moves and updates, so a view can animate or redraw only what changed.
///
/// ```swift
/// let diff = ListDiff(from: oldCells, to: newCells)
/// list.apply(diff)                        // a view applies the minimal update
/// assert((try? oldCells.applying(diff)) == newCells)
/// ```
///
/// Elements are matched by `id`; a matched element whose value differs (`!=`) is an update.
/// The indices follow the batch-update convention of list views:
/// - ``deletions`` are positions in the **old** list, ascending;
/// - ``insertions`` are positions in the **new** list, ascending;
/// - ``moves`` and ``updates`` pair an old position with a new one.
///
/// Cost: O(n + m) hashing to match elements, plus O(k log k) for the k matched elements to
/// find the fewest moves (a longest increasing subsequence keeps the most elements in place:
/// moving one row to the top is one move, not n).
///
/// Identifiers should be unique within each list, but a repeated one is not an error: the
/// n-th occurrence of an id in the new list matches its n-th occurrence in the old list, and
/// occurrences with no counterpart are inserted or deleted. The diff is correct either way, and
/// equal lists always give an empty diff.
public struct ListDiff<Element: Identifiable & Equatable> {
  /// An element's position in the old list and in the new list.
  public struct IndexPair: Hashable, Sendable {
    /// The position in the old list.
    public var old: Int
    /// The position in the new list.
    public var new: Int

    /// Creates a pair of positions.
    ///
    /// - Parameters:
    ///   - old: The position in the old list.
    ///   - new: The position in the new list.
    public init(old: Int, new: Int) {
      self.old = old
      self.new = new
    }
  }

  // The stored properties are `@usableFromInline` so that `init(from:to:)` can be
  // `@inlinable`: the element type is the client's, and hashing and comparing it through
  // unspecialized generic code made diffing several times slower than the standard library.

  /// Positions in the old list of elements that are gone, ascending.
  public let deletions: [Int]
  /// Positions in the new list of elements that are new, ascending.
  public let insertions: [Int]
  /// Elements that stay but change their order relative to the others, by new position.
  public let moves: [IndexPair]
  /// Elements that stay but whose value changed, by new position (a moved element can also
  /// be updated).
  public let updates: [IndexPair]
  /// The length of the list the diff applies to.
  public let oldCount: Int
  /// The length of the list the diff produces.
  public let newCount: Int

  /// The inserted elements, parallel to ``insertions``.
  @usableFromInline
  internal let insertedElements: [Element]
  /// The new values of updated elements, parallel to ``updates``.
  @usableFromInline
  internal let updatedElements: [Element]

  /// Computes the changes from `old` to `new`.
  ///
  /// - Parameters:
  ///   - old: The list the view shows now.
  ///   - new: The list it should show.
  @inlinable
  public init(from old: [Element], to new: [Element]) {
    var oldIndexByID: [Element.ID: Int] = [:]
    oldIndexByID.reserveCapacity(old.count)
    // Later occurrences of a repeated id, last first; empty (never allocated) when ids are
    // unique, so the common case pays one `isEmpty` check per element.
    var repeatedOldIndices: [Element.ID: [Int]] = [:]
    for (index, element) in old.enumerated() {
      if oldIndexByID[element.id] == nil {
        oldIndexByID[element.id] = index
      } else {
        repeatedOldIndices[element.id, default: []].insert(index, at: 0)
      }
    }

    var isMatched = [Bool](repeating: false, count: old.count)
    var insertions: [Int] = []
    var inserted: [Element] = []
    // Matched elements in new order: their old positions, and their new positions.
    var matchedOld: [Int] = []
    var matchedNew: [Int] = []
    matchedOld.reserveCapacity(min(old.count, new.count))
    matchedNew.reserveCapacity(min(old.count, new.count))
    var updates: [IndexPair] = []
    var updated: [Element] = []

    for (newIndex, element) in new.enumerated() {
      var match = oldIndexByID[element.id]
      if let first = match, isMatched[first] {
        // The first occurrence is taken: the n-th occurrence in the new list matches the n-th
        // in the old one, if there is one.
        match = repeatedOldIndices.isEmpty ? nil : repeatedOldIndices[element.id]?.popLast()
      }
      if let oldIndex = match {
        isMatched[oldIndex] = true
        matchedOld.append(oldIndex)
        matchedNew.append(newIndex)
        if old[oldIndex] != element {
          updates.append(IndexPair(old: oldIndex, new: newIndex))
          updated.append(element)
        }
      } else {
        insertions.append(newIndex)
        inserted.append(element)
      }
    }

    var deletions: [Int] = []
    for index in old.indices where !isMatched[index] {
      deletions.append(index)
    }

    let staying = longestIncreasingSubsequence(matchedOld)
    var moves: [IndexPair] = []
    for position in matchedOld.indices where !staying[position] {
      moves.append(IndexPair(old: matchedOld[position], new: matchedNew[position]))
    }

    self.deletions = deletions
    self.insertions = insertions
    self.moves = moves
    self.updates = updates
    self.oldCount = old.count
    self.newCount = new.count
    self.insertedElements = inserted
    self.updatedElements = updated
  }

  /// Whether the two lists were equal.
  public var isEmpty: Bool {
    deletions.isEmpty && insertions.isEmpty && moves.isEmpty && updates.isEmpty
  }

  /// The inserted elements, in the order of ``insertions``.
  public var insertedValues: [Element] { insertedElements }

  /// The new values of the updated elements, in the order of ``updates``.
  public var updatedValues: [Element] { updatedElements }
}

/// Why a ``ListDiff`` could not be applied.
public enum ListDiffError: Error, Equatable, CustomStringConvertible {
  /// The list has a different length from the one the diff was computed from.
  case countMismatch(expected: Int, actual: Int)

  /// A sentence describing the error.
  public var description: String {
    switch self {
    case .countMismatch(let expected, let actual):
      "The diff was computed for a list of \(expected) elements, not \(actual)."
    }
  }
}

extension Array where Element: Identifiable & Equatable {
  /// The list `diff` produces from this one.
  ///
  /// - Parameter diff: A diff computed from a list equal to this one.
  /// - Returns: The new list, built in O(n).
  /// - Throws: ``ListDiffError/countMismatch(expected:actual:)`` if this list is not the length
  ///   the diff was computed from.
  @inlinable
  public func applying(_ diff: ListDiff<Element>) throws -> [Element] {
    guard count == diff.oldCount else {
      throw ListDiffError.countMismatch(expected: diff.oldCount, actual: count)
    }
    var leaves = [Bool](repeating: false, count: count)
    for index in diff.deletions { leaves[index] = true }
    for move in diff.moves { leaves[move.old] = true }

    var result = [Element?](repeating: nil, count: diff.newCount)
    for (index, element) in zip(diff.insertions, diff.insertedValues) { result[index] = element }
    for move in diff.moves { result[move.new] = self[move.old] }
    // The remaining slots take the elements that stayed, in their old order.
    var source = 0
    for index in result.indices where result[index] == nil {
      while source < count, leaves[source] { source += 1 }
      guard source < count else { break }
      result[index] = self[source]
      source += 1
    }
    for (update, element) in zip(diff.updates, diff.updatedValues) { result[update.new] = element }
    return result.compactMap { $0 }
  }
}

/// Marks the members of one longest strictly increasing subsequence of `values`
/// (patience sorting, O(n log n)): the elements that stay where they are when a list is
/// reordered (here, and for a page's rows in TetherWeb's `HTMLPatch`).
@usableFromInline
package func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
  var tailPositions: [Int] = []  // position in `values` of the smallest tail of each length
  var predecessor = [Int](repeating: -1, count: values.count)
  for (position, value) in values.enumerated() {
    var low = 0
    var high = tailPositions.count
    while low < high {
      let mid = (low + high) / 2
      if values[tailPositions[mid]] < value { low = mid + 1 } else { high = mid }
    }
    if low > 0 { predecessor[position] = tailPositions[low - 1] }
    if low == tailPositions.count {
      tailPositions.append(position)
    } else {
      tailPositions[low] = position
    }
  }
  var members = [Bool](repeating: false, count: values.count)
  var position = tailPositions.last ?? -1
  while position >= 0 {
    members[position] = true
    position = predecessor[position]
  }
  return members
}

extension ListDiff: Equatable {}
extension ListDiff: Sendable where Element: Sendable {}

extension ListDiff {
  /// For every position in the old list, the element's position in the new list, or `nil` for
  /// an element that was deleted.
  ///
  /// Elements that neither moved nor were deleted keep their order, so they fill, in order,
  /// the new positions that are neither insertions nor the targets of moves. O(n + m).
  ///
  /// ```swift
  /// let diff = ListDiff(from: [a, b, c], to: [c, a])
  /// let positions = diff.newIndices()   // [1, nil, 0]
  /// ```
  public func newIndices() -> [Int?] {
    var result = [Int?](repeating: nil, count: oldCount)
    var isFixedOld = [Bool](repeating: true, count: oldCount)
    var isFixedNew = [Bool](repeating: true, count: newCount)
    for index in deletions { isFixedOld[index] = false }
    for index in insertions { isFixedNew[index] = false }
    for move in moves {
      isFixedOld[move.old] = false
      isFixedNew[move.new] = false
      result[move.old] = move.new
    }
    var next = 0
    for old in 0..<oldCount where isFixedOld[old] {
      while next < newCount, !isFixedNew[next] { next += 1 }
      guard next < newCount else { break }
      result[old] = next
      next += 1
    }
    return result
  }
}
