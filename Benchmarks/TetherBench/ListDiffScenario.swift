import ExampleSupport
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

@MainActor
func runS8(_ bench: Bench, count: Int, percent: Int) {
  let scenario = "S8 list diff \(count / 1000)k, \(percent)%"
  let (old, new) = makeListPair(count: count, percent: percent, seed: UInt64(count + percent))

  // Both diffs must be valid before either is timed.
  let standard = new.difference(from: old)
  let standardValid = old.applying(standard) == new
  let tether = ListDiff(from: old, to: new)
  let tetherValid = (try? old.applying(tether)) == new
  let validity = "valid: stdlib \(standardValid), Tether \(tetherValid)"

  bench.measure(
    scenario, "stdlib difference(from:)", baseline: true, note: validity, initialCount: 1
  ) { n in
    for _ in 0..<n { bench.checksum &+= new.difference(from: old).insertions.count }
  }
  bench.measure(
    scenario, "Tether ListDiff",
    note: "\(tether.moves.count) moves, \(tether.updates.count) updates", initialCount: 1
  ) { n in
    for _ in 0..<n { bench.checksum &+= ListDiff(from: old, to: new).insertions.count }
  }
}
