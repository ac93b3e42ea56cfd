import Testing
import TetherTesting

@testable import Tether

private struct Row: Identifiable, Equatable, CustomStringConvertible {
  var id: Int
  var title: String

  var description: String { "\(id):\(title)" }
}

private func rows(_ ids: [Int], title: String = "t") -> [Row] {
  ids.map { Row(id: $0, title: title) }
}

@Suite struct ListDiffTests {
  @Test func equalListsHaveAnEmptyDiff() throws {
    let list = rows([1, 2, 3])
    let diff = ListDiff(from: list, to: list)
    #expect(diff.isEmpty)
    #expect(try list.applying(diff) == list)
  }

  @Test func insertionsAndDeletionsUseOldAndNewIndices() throws {
    let old = rows([1, 2, 3, 4])
    let new = rows([0, 1, 3, 5])
    let diff = ListDiff(from: old, to: new)
    #expect(diff.deletions == [1, 3])
    #expect(diff.insertions == [0, 3])
    #expect(diff.moves.isEmpty)
    #expect(try old.applying(diff) == new)
  }

  @Test func movingOneRowToTheTopIsOneMove() throws {
    let old = rows(Array(0..<100))
    let new = rows([99] + Array(0..<99))
    let diff = ListDiff(from: old, to: new)
    #expect(diff.moves == [.init(old: 99, new: 0)])
    #expect(diff.insertions.isEmpty && diff.deletions.isEmpty && diff.updates.isEmpty)
    #expect(try old.applying(diff) == new)
  }

  @Test func swappingTwoRowsIsOneMove() throws {
    let old = rows([1, 2, 3, 4])
    let new = rows([1, 3, 2, 4])
    let diff = ListDiff(from: old, to: new)
    #expect(diff.moves.count == 1)
    #expect(try old.applying(diff) == new)
  }

  @Test func changedValueWithSameIDIsAnUpdate() throws {
    let old = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
    let new = [Row(id: 2, title: "B"), Row(id: 1, title: "a")]
    let diff = ListDiff(from: old, to: new)
    #expect(diff.updates == [.init(old: 1, new: 0)])
    #expect(diff.updatedValues == [Row(id: 2, title: "B")])
    #expect(diff.moves.count == 1)
    #expect(try old.applying(diff) == new)
  }

  @Test func fromAndToEmptyLists() throws {
    let list = rows([1, 2, 3])
    let toEmpty = ListDiff(from: list, to: [])
    #expect(toEmpty.deletions == [0, 1, 2])
    #expect(try list.applying(toEmpty).isEmpty)
    let fromEmpty = ListDiff(from: [], to: list)
    #expect(fromEmpty.insertions == [0, 1, 2])
    #expect(try [Row]().applying(fromEmpty) == list)
  }

  @Test func duplicateIDsStillProduceACorrectDiff() throws {
    let old = [Row(id: 1, title: "a"), Row(id: 1, title: "b"), Row(id: 2, title: "c")]
    let new = [Row(id: 2, title: "c"), Row(id: 1, title: "b"), Row(id: 1, title: "z")]
    let diff = ListDiff(from: old, to: new)
    #expect(try old.applying(diff) == new)
  }

  @Test func applyingToAListOfAnotherLengthThrows() {
    let diff = ListDiff(from: rows([1, 2]), to: rows([2]))
    #expect(throws: ListDiffError.countMismatch(expected: 2, actual: 3)) {
      try rows([1, 2, 3]).applying(diff)
    }
  }

  /// 10,000 random pairs (fixed seed): deletions, insertions, reorders and updates mixed, and
  /// applying each diff to the old list must give exactly the new one.
  @Test func randomizedDiffsApplyToTheNewList() throws {
    var generator = SeededRandomNumberGenerator(seed: 0x7E7E_7E7E)
    var nextID = 0
    for round in 0..<10_000 {
      let oldCount = Int.random(in: 0...40, using: &generator)
      let old = (0..<oldCount).map { _ -> Row in
        nextID += 1
        return Row(id: nextID, title: "v0")
      }
      var new = old.filter { _ in Int.random(in: 0..<5, using: &generator) != 0 }
      for index in new.indices where Int.random(in: 0..<6, using: &generator) == 0 {
        new[index].title = "v\(round)"
      }
      for _ in 0..<Int.random(in: 0...8, using: &generator) {
        nextID += 1
        new.insert(
          Row(id: nextID, title: "new"), at: Int.random(in: 0...new.count, using: &generator))
      }
      switch Int.random(in: 0..<3, using: &generator) {
      case 0: new.shuffle(using: &generator)
      case 1 where new.count > 1:
        let from = Int.random(in: 0..<new.count, using: &generator)
        let element = new.remove(at: from)
        new.insert(element, at: Int.random(in: 0...new.count, using: &generator))
      default: break
      }

      let diff = ListDiff(from: old, to: new)
      let applied = try old.applying(diff)
      #expect(applied == new, "round \(round): \(old) → \(new)")
      if applied != new { return }
      // Every matched element is either kept in place or moved: the counts must add up.
      let matched = old.count - diff.deletions.count
      #expect(matched == new.count - diff.insertions.count)
      #expect(diff.moves.count <= matched)
    }
  }
}
