import Testing

@testable import TetherFlow

struct Line: Identifiable, Equatable {
  var id: Int
  var text: String
}

/// A list the view model sends and does not keep: changes wait, bounded, for a view, and go
/// straight to the one that shows the list.
@MainActor
@Suite struct ListStreamTests {
  private func describe(_ change: ListStream<Line>.Change) -> String {
    switch change {
    case .insert(let line, let position): "insert \(line.id) at \(position)"
    case .delete(let id): "delete \(id)"
    case .reset(let lines): "reset \(lines.map(\.id))"
    }
  }

  @Test func changesWaitForAViewAndThenGoStraightToIt() {
    let lines = ListStream<Line>()
    lines.insert(Line(id: 1, text: "one"))
    lines.insert(Line(id: 2, text: "two"), at: .start)
    lines.delete(id: 1)
    #expect(lines.pendingCount == 3)
    var seen: [String] = []
    let detach = lines.attach {
      seen.append(describe($0))
      return true
    }
    #expect(seen == ["insert 1 at end", "insert 2 at start", "delete 1"])
    #expect(lines.pendingCount == 0, "the stream keeps nothing it handed over")
    lines.update(Line(id: 2, text: "TWO"))
    #expect(seen.last == "insert 2 at end")
    detach()
    lines.insert(Line(id: 3, text: "three"))
    #expect(seen.count == 4, "a detached view gets nothing")
    #expect(lines.pendingCount == 1)
  }

  @Test func aResetDropsTheChangesBeforeItAndTheWaitingAreBounded() {
    let lines = ListStream<Line>(limit: 2, pendingLimit: 3)
    for id in 1...5 { lines.insert(Line(id: id, text: "")) }
    #expect(lines.pendingCount == 3, "the oldest waiting changes went")
    lines.reset([Line(id: 7, text: ""), Line(id: 8, text: ""), Line(id: 9, text: "")])
    var seen: [String] = []
    _ = lines.attach {
      seen.append(describe($0))
      return true
    }
    #expect(seen == ["reset [8, 9]"], "a reset stands for all before it, within the limit")
  }

  @Test func insertingManyAtTheStartKeepsTheirOrder() {
    let lines = ListStream<Line>()
    var seen: [String] = []
    _ = lines.attach {
      seen.append(describe($0))
      return true
    }
    lines.insert(contentsOf: [Line(id: 1, text: ""), Line(id: 2, text: "")], at: .start)
    // 2 first, then 1 before it: the page shows 1, 2.
    #expect(seen == ["insert 2 at start", "insert 1 at start"])
  }

  @Test func aNewViewTakesTheListFromTheOldOne() {
    let lines = ListStream<Line>()
    var first = 0
    var second = 0
    let detachFirst = lines.attach { _ in
      first += 1
      return true
    }
    _ = lines.attach { _ in
      second += 1
      return true
    }
    lines.insert(Line(id: 1, text: ""))
    detachFirst()  // the old view's end does not detach the new one
    lines.insert(Line(id: 2, text: ""))
    #expect(first == 0 && second == 2)
  }

  @Test func aViewThatIsGoneTakesNothingAndTheChangesWaitAgain() {
    let lines = ListStream<Line>()
    var alive = true
    var taken: [String] = []
    _ = lines.attach { change in
      guard alive else { return false }
      taken.append(describe(change))
      return true
    }
    lines.insert(Line(id: 1, text: ""))
    alive = false
    lines.insert(Line(id: 2, text: ""))
    lines.insert(Line(id: 3, text: ""))
    #expect(taken == ["insert 1 at end"])
    #expect(lines.pendingCount == 2, "the change the gone view refused waits, and the next")
  }
}
