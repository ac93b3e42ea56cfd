import ExampleSupport
import Foundation
import Tether

struct Item: Identifiable, Equatable {
  let id: Int
  var revision: Int
}

/// `count` items and a copy with `percent`% of them changed: deleted, inserted, updated or moved,
/// in equal shares.
func makeListPair(count: Int, percent: Int, seed: UInt64) -> ([Item], [Item]) {
  var generator = SeededGenerator(seed: seed)
  let old = (0..<count).map { Item(id: $0, revision: 0) }
  var new = old
  var nextID = count
  for change in 0..<(count * percent / 100) {
    switch change % 4 {
    case 0:
      new.remove(at: Int.random(in: 0..<new.count, using: &generator))
    case 1:
      new.insert(
        Item(id: nextID, revision: 0), at: Int.random(in: 0...new.count, using: &generator))
      nextID += 1
    case 2:
      new[Int.random(in: 0..<new.count, using: &generator)].revision += 1
    default:
      let item = new.remove(at: Int.random(in: 0..<new.count, using: &generator))
      new.insert(item, at: Int.random(in: 0...new.count, using: &generator))
    }
  }
  return (old, new)
}

/// A keyed diff as one would write it by hand: old positions in a dictionary by id; an id
/// only in the old list is deleted, one only in the new list inserted; a kept element whose
/// value changed is updated; a kept element is moved when its rank among the kept elements
/// changed (a simple rule: not the fewest moves, which ``ListDiff`` finds).
struct HandwrittenKeyedDiff {
  var deletions: [Int] = []
  var insertions: [Int] = []
  var moves: [(old: Int, new: Int)] = []
  var updates: [(old: Int, new: Int)] = []

  init(from old: [Item], to new: [Item]) {
    var oldIndexByID: [Int: Int] = [:]
    oldIndexByID.reserveCapacity(old.count)
    for (index, item) in old.enumerated() { oldIndexByID[item.id] = index }
    var isKept = [Bool](repeating: false, count: old.count)
    var keptNew: [(old: Int, new: Int)] = []
    for (newIndex, item) in new.enumerated() {
      if let oldIndex = oldIndexByID[item.id] {
        isKept[oldIndex] = true
        keptNew.append((oldIndex, newIndex))
        if old[oldIndex] != item { updates.append((oldIndex, newIndex)) }
      } else {
        insertions.append(newIndex)
      }
    }
    // Each kept element's rank in the old order, to compare with its rank in the new order.
    var oldRank = [Int](repeating: -1, count: old.count)
    var rank = 0
    for index in old.indices {
      if isKept[index] {
        oldRank[index] = rank
        rank += 1
      } else {
        deletions.append(index)
      }
    }
    for (newRank, pair) in keptNew.enumerated() where oldRank[pair.old] != newRank {
      moves.append(pair)
    }
  }

  /// `old` with this diff applied, to check it.
  func applied(to old: [Item], new: [Item]) -> [Item] {
    var result = [Item?](repeating: nil, count: new.count)
    var leaves = [Bool](repeating: false, count: old.count)
    for index in deletions { leaves[index] = true }
    for move in moves { leaves[move.old] = true }
    for index in insertions { result[index] = new[index] }
    for move in moves { result[move.new] = old[move.old] }
    var source = 0
    for index in result.indices where result[index] == nil {
      while source < old.count, leaves[source] { source += 1 }
      guard source < old.count else { break }
      result[index] = old[source]
      source += 1
    }
    for update in updates { result[update.new] = new[update.new] }
    return result.compactMap { $0 }
  }

  /// Every field, folded into one number, so no part of the work can be dropped.
  var digest: Int {
    deletions.count &+ (deletions.last ?? 0) &+ insertions.count &+ (insertions.last ?? 0)
      &+ moves.count &+ (moves.last?.new ?? 0) &+ updates.count &+ (updates.last?.new ?? 0)
  }
}

extension ListDiff<Item> {
  /// Every field, folded into one number, so no part of the work can be dropped.
  var digest: Int {
    deletions.count &+ (deletions.last ?? 0) &+ insertions.count &+ (insertions.last ?? 0)
      &+ moves.count &+ (moves.last?.new ?? 0) &+ updates.count &+ (updates.last?.new ?? 0)
      &+ insertedValues.count &+ (insertedValues.last?.id ?? 0) &+ updatedValues.count
      &+ (updatedValues.last?.revision ?? 0) &+ oldCount &+ newCount
  }
}

extension CollectionDifference<Item> {
  /// Every change, folded into one number, so no part of the work can be dropped.
  var digest: Int {
    var digest = insertions.count &+ removals.count
    if case .insert(let offset, let element, _)? = insertions.last {
      digest &+= offset &+ element.id
    }
    if case .remove(let offset, let element, _)? = removals.last {
      digest &+= offset &+ element.id
    }
    return digest
  }
}

/// Stops the run: a benchmark of a wrong result is no figure.
func invalid(_ message: String) -> Never {
  FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  exit(1)
}

@MainActor
func runS8(_ bench: Bench, count: Int, percent: Int) {
  let scenario = "S8 list diff \(count / 1000)k, \(percent)%"
  let (old, new) = makeListPair(count: count, percent: percent, seed: UInt64(count + percent))

  // Every diff must be valid before any is timed: a wrong diff stops the run.
  let handwritten = HandwrittenKeyedDiff(from: old, to: new)
  guard handwritten.applied(to: old, new: new) == new else {
    invalid("\(scenario): the hand-written keyed diff does not turn old into new")
  }
  guard old.applying(new.difference(from: old)) == new else {
    invalid("\(scenario): difference(from:) does not turn old into new")
  }
  let tether = ListDiff(from: old, to: new)
  guard (try? old.applying(tether)) == new else {
    invalid("\(scenario): ListDiff does not turn old into new")
  }

  bench.measure(
    scenario, "hand-written keyed diff", baseline: true,
    note: "\(handwritten.moves.count) moves, \(handwritten.updates.count) updates",
    initialCount: 1
  ) { n in
    for _ in 0..<n { bench.checksum &+= HandwrittenKeyedDiff(from: old, to: new).digest }
  }
  bench.measure(
    scenario, "Tether ListDiff",
    note: "\(tether.moves.count) moves, \(tether.updates.count) updates", initialCount: 1
  ) { n in
    for _ in 0..<n { bench.checksum &+= ListDiff(from: old, to: new).digest }
  }
  bench.measure(
    scenario, "stdlib difference(from:)", note: "unkeyed: removals and insertions only",
    initialCount: 1
  ) { n in
    for _ in 0..<n { bench.checksum &+= new.difference(from: old).digest }
  }
}
