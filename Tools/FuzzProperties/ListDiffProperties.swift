import Tether

/// `ListDiff` on any pair of lists, duplicate ids included.
///
/// Input: byte 0 is where the old list ends; every later byte is an element (low four bits the
/// id, high four the value, so ids repeat and values change often).
/// Properties:
/// - `old.applying(diff)` is `new`, whatever the duplicates;
/// - deletions and insertions are ascending, in range, and balance the lengths;
/// - applying to a list of another length is `ListDiffError.countMismatch`, never a crash.
enum ListDiffProperties {
  struct Item: Identifiable, Equatable, CustomStringConvertible {
    var id: UInt8
    var value: UInt8
    var description: String { "\(id):\(value)" }
  }

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    guard let split = input.first else { return }
    let items = input.dropFirst().map { Item(id: $0 & 0x0F, value: $0 >> 4) }
    let cut = items.isEmpty ? 0 : Int(split) % (items.count + 1)
    let old = Array(items[..<cut])
    let new = Array(items[cut...])
    let diff = ListDiff(from: old, to: new)

    do {
      let applied = try old.applying(diff)
      try require(applied == new, "\(old) applying its diff gives \(applied), not \(new)")
    } catch let error as PropertyViolation {
      throw error
    } catch {
      throw PropertyViolation("\(old) → \(new): applying the diff threw \(error)")
    }
    try require(diff.deletions == diff.deletions.sorted(), "deletions not ascending")
    try require(diff.insertions == diff.insertions.sorted(), "insertions not ascending")
    try require(diff.deletions.allSatisfy(old.indices.contains), "a deletion out of range")
    try require(diff.insertions.allSatisfy(new.indices.contains), "an insertion out of range")
    try require(
      old.count - diff.deletions.count == new.count - diff.insertions.count,
      "\(diff.deletions.count) deletions and \(diff.insertions.count) insertions do not turn "
        + "\(old.count) elements into \(new.count)")
    try require(diff.isEmpty == (old == new), "isEmpty is \(diff.isEmpty) for \(old) → \(new)")

    let other = new + [Item(id: 0, value: 0)]
    if other.count != old.count {
      do {
        _ = try other.applying(diff)
        throw PropertyViolation("a diff for \(old.count) elements applied to \(other.count)")
      } catch let error as PropertyViolation {
        throw error
      } catch {
        try require(
          error as? ListDiffError
            == .countMismatch(expected: old.count, actual: other.count),
          "applying to the wrong length threw \(error)")
      }
    }
  }
}
