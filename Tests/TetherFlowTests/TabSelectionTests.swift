import Testing
import Tether
import TetherFlow
import TetherTesting

/// Tabs as state: the tab shown is in the stack's path, both ways.
@MainActor
@Suite struct TabSelectionTests {
  private enum Tab: String, CaseIterable { case all, active, done }

  private func tabs(_ selected: Tab = .all) -> TabSelection<Tab> {
    TabSelection(Tab.allCases, selected: selected) { $0.rawValue }
  }

  @Test func theTabShownIsInThePathAndTheFirstShownIsTheScreensOwn() {
    let tabs = tabs(.active)
    let stack = ScreenStack<Int>()
    stack.setRoot(Screen(0, title: "Home"))
    stack.push(Screen(1, title: "List", path: ["list"], pathTail: tabs.pathTail))
    #expect(stack.path.description == "/list", "the default tab adds nothing")
    tabs.select(.done)
    #expect(stack.path.description == "/list/done")
    tabs.select(.active)
    #expect(stack.path.description == "/list")
    #expect(tabs.selectedIndex == 1)
  }

  @Test func aPathSelectsItsTabAndOneNoTabHasChangesNothing() {
    let tabs = tabs()
    let stack = ScreenStack<Int>()
    stack.setRoot(Screen(0, title: "List", path: ["list"], pathTail: tabs.pathTail))
    #expect(stack.show(ScreenPath(parsing: "/list/done")))
    #expect(tabs.selected == .done)
    #expect(stack.show(ScreenPath(parsing: "/list")))
    #expect(tabs.selected == .all)
    tabs.pathTail.value = ["nonsense"]
    #expect(tabs.selected == .all)
    #expect(tabs.tab(forPathTail: ["all"]) == nil, "the default tab has no component")
    #expect(tabs.tab(forPathTail: ["done", "x"]) == nil)
  }

  @Test func nextAndPreviousWrapAndAPositionOutOfRangeChangesNothing() {
    let tabs = tabs()
    let seen = tabs.$selected.map(\.rawValue).record()
    tabs.selectPrevious()
    tabs.selectNext()
    tabs.selectNext()
    tabs.select(at: 7)
    tabs.select(at: -1)
    tabs.select(.active)  // already shown: no change
    #expect(seen.values == ["all", "done", "all", "active"])
  }

  @Test func noTabsMeansTheSelectedOneAlone() {
    let tabs = TabSelection<Tab>([], selected: .done) { $0.rawValue }
    #expect(tabs.tabs == [.done] && tabs.selected == .done)
    tabs.selectNext()
    #expect(tabs.selected == .done && tabs.pathTail.value == [])
  }
}
