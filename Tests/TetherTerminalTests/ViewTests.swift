import Testing
import Tether
import TetherFlow
import TetherTerminalTesting
import TetherTesting

@testable import TetherTerminal

private struct Item: Identifiable, Equatable {
  let id: Int
  var name: String
}

/// A screen of one list over `rows`, for the list's rules.
@MainActor
private final class RowsScreen: TerminalScreen {
  enum Action { case chose(Int), moved(Int) }
  let rows: MutableProperty<[Item]>
  private(set) var chosen: [Int] = []
  private(set) var moves: [Int] = []
  private(set) var built = 0

  init(_ rows: MutableProperty<[Item]>) { self.rows = rows }

  var body: TerminalMarkup<Action> {
    list(rows.value, label: "Rows", onChoose: { .chose($0) }, onMove: { .moved($0) }) { item in
      self.row(item)
    }
  }

  private func row(_ item: Item) -> TerminalMarkup<Action> {
    built += 1
    return text(item.name)
  }

  func handle(_ action: Action) {
    switch action {
    case .chose(let index): chosen.append(index)
    case .moved(let index): moves.append(index)
    }
  }
}

/// A screen of one line of text.
@MainActor
private final class TextScreen: TerminalScreen {
  typealias Action = Never
  let line: String
  init(_ line: String) { self.line = line }
  var body: TerminalMarkup<Never> { text(line) }
}

@MainActor
@Suite struct ListTests {
  private func mount(_ screen: RowsScreen, width: Int = 30, height: Int = 8) -> TerminalTestPage {
    let stack = ScreenStack<Int>()
    let page = TerminalTestPage(stack: stack, width: width, height: height) { _ in screen }
    stack.setRoot(Screen(0, title: "List"))
    return page
  }

  private func selected(_ page: TerminalTestPage) -> String? {
    page.lines(containing: "›").first.map { String($0.drop { $0 != "›" }.dropFirst(2)) }
  }

  @Test func selectionStartsAtTheTopWhenRowsArrive() {
    let rows = MutableProperty<[Item]>([])
    let page = mount(RowsScreen(rows))
    #expect(page.controlLabels.isEmpty, "an empty list takes no focus")
    rows.value = (0..<20).map { Item(id: $0, name: "row \($0)") }
    #expect(selected(page) == "row 0")
  }

  @Test func theViewModelHearsOfEveryMoveOfTheSelectionKeysAndDiffsAlike() {
    let rows = MutableProperty((0..<5).map { Item(id: $0, name: "row \($0)") })
    let screen = RowsScreen(rows)
    let page = mount(screen)
    page.press(.down, .down)  // row 2, by keys
    rows.value.insert(Item(id: 10, name: "new"), at: 0)  // row 2 is now at index 3, by a diff
    _ = page.render()
    rows.value[1].name = "renamed"  // an update above it moves nothing
    _ = page.render()
    rows.value.removeLast()  // a removal below it moves nothing
    _ = page.render()
    #expect(screen.moves == [1, 2, 3])
    #expect(selected(page) == "row 2")
  }

  @Test func selectionFollowsItsRowThroughInsertionsRemovalsAndMoves() {
    let rows = MutableProperty((0..<5).map { Item(id: $0, name: "row \($0)") })
    let page = mount(RowsScreen(rows))
    page.press(.down, .down)
    rows.value.insert(Item(id: 10, name: "new"), at: 0)
    #expect(selected(page) == "row 2")
    rows.value.remove(at: 1)  // row 0 goes
    #expect(selected(page) == "row 2")
    var moved = rows.value
    moved.append(moved.remove(at: 2))
    rows.value = moved
    #expect(selected(page) == "row 2")
    rows.value.removeAll { $0.id == 2 }
    // It was last: the nearest row before it that is still there.
    #expect(selected(page) == "row 4")
  }

  @Test func buildsAndDrawsOnlyTheVisibleWindowAroundTheSelection() {
    let rows = MutableProperty((0..<1_000).map { Item(id: $0, name: "row \($0)") })
    let screen = RowsScreen(rows)
    let page = mount(screen, width: 22, height: 7)
    page.press(.end)
    let before = screen.built
    let text = page.text
    #expect(screen.built - before == 5, "five rows show; only they are built")
    #expect(text.contains("› row 999") && text.contains("1000/1000"))
  }

  @Test func enterChoosesTheSelectedRow() {
    let rows = MutableProperty((0..<3).map { Item(id: $0, name: "\($0)") })
    let screen = RowsScreen(rows)
    let page = mount(screen)
    page.press(.character("j"), .enter, .up, .up, .enter)
    #expect(screen.chosen == [1, 0])
  }
}

@MainActor
@Suite struct TerminalNavigatorTests {
  final class Model {}

  private func navigator() -> (ScreenStack<Model>, TerminalNavigator) {
    let stack = ScreenStack<Model>()
    return (
      stack,
      TerminalNavigator(stack: stack, screens: { screen in TextScreen("body of \(screen.title)") })
    )
  }

  @Test func drawsTheTopScreenUnderItsTitleBar() {
    let (stack, navigator) = navigator()
    stack.setRoot(Screen(Model(), title: "Home"))
    stack.push(Screen(Model(), title: "Detail"))
    let text = navigator.render(width: 40, height: 6).text
    #expect(text.hasPrefix(" Detail"))
    #expect(text.contains("Esc back · q quit"))
    #expect(text.contains("body of Detail"))
    #expect(navigator.topTitle == "Detail")
  }

  @Test func aSheetIsDrawnInABoxOverTheScreenAndTakesTheKeysUntilEscapeClosesIt() {
    let rows = MutableProperty((1...3).map { Item(id: $0, name: "choice \($0)") })
    let stack = ScreenStack<Model>()
    let picker = RowsScreen(rows)
    let navigator = TerminalNavigator(
      stack: stack,
      screens: { screen -> any TerminalScreen in
        screen.title == "Pick" ? picker : TextScreen("body of \(screen.title)")
      })
    stack.setRoot(Screen(Model(), title: "Home"))
    stack.push(Screen(Model(), title: "Detail"))
    var closed = 0
    stack.presentSheet(Screen(Model(), title: "Pick")) { closed += 1 }
    let lines = navigator.render(width: 60, height: 12).text.split(separator: "\n")
    #expect(lines.contains { $0.contains("╭─ Pick ") }, "\(lines)")
    #expect(lines.contains { $0.contains("│ ") && $0.contains("choice 1") }, "\(lines)")
    #expect(lines.contains { $0.contains("Esc close") })
    #expect(lines.first?.hasPrefix(" Detail") == true, "the screen's title bar shows around it")
    navigator.handle(Key.down)
    navigator.handle(Key.enter)
    #expect(picker.chosen == [1], "the sheet's list took ↓ and Enter")
    navigator.handle(Key.escape)
    #expect(stack.sheet == nil && closed == 1)
    #expect(stack.screens.count == 2, "Esc closed the sheet and popped nothing")
    #expect(!navigator.render(width: 60, height: 12).text.contains("choice 1"))
  }

  @Test func aConfirmationDialogDrawsItsActionsOneUnderAnother() {
    let (stack, navigator) = navigator()
    stack.setRoot(Screen(Model(), title: "Home"))
    stack.present(
      ScreenAlert(
        title: "“Podcasts Course”", message: "",
        buttons: [
          ScreenAlert.Button("Move to the top", role: .confirm),
          ScreenAlert.Button("Remove from list", role: .destructive),
          ScreenAlert.Button("Cancel", role: .cancel),
        ], style: .confirmationDialog))
    let lines = navigator.render(width: 60, height: 16).text.split(separator: "\n")
    let rows = ["Move to the top  (Enter)", "Remove from list", "Cancel  (Esc)"].map { action in
      lines.firstIndex { $0.contains(action) }
    }
    #expect(rows.allSatisfy { $0 != nil }, "\(lines)")
    let indices = rows.compactMap { $0 }
    #expect(indices == indices.sorted() && Set(indices).count == 3, "one action per row")
    #expect(lines.contains { $0.contains("“Podcasts Course”") && $0.contains("┌") })
    navigator.handle(Key.down)
    let moved = navigator.render(width: 60, height: 16).text
    #expect(moved.contains("Remove from list  (Enter)"), "↓ moved the keyboard to Remove")
  }

  @Test func backKeysPopButNeverTheRoot() {
    let (stack, navigator) = navigator()
    stack.setRoot(Screen(Model(), title: "Home"))
    for key in [Key.escape, .backspace, .left] {
      stack.push(Screen(Model(), title: "Detail"))
      navigator.handle(key)
      #expect(stack.screens.map(\.title) == ["Home"])
    }
    navigator.handle(.escape)
    #expect(stack.screens.map(\.title) == ["Home"])
  }

  @Test func eachScreenAppearsOnceAndItsViewIsDroppedWhenItLeaves() async {
    final class Probe: TerminalView {
      func draw(in canvas: inout Canvas, frame: Rect) {}
    }
    let stack = ScreenStack<Model>()
    var made: [String: Probe] = [:]
    var appearances: [String: Int] = [:]
    let navigator = TerminalNavigator(stack: stack) { screen in
      let probe = Probe()
      made[screen.title] = probe
      return probe
    }
    func screen(_ title: String) -> Screen<Model> {
      Screen(Model(), title: title, onAppear: { appearances[title, default: 0] += 1 })
    }
    stack.setRoot(screen("Home"))
    stack.push(screen("Detail"))
    stack.pop()
    // Appearance inputs run in tasks of their own: let them run.
    for _ in 0..<1000 where appearances.count < 2 { await Task.yield() }
    #expect(appearances == ["Home": 1, "Detail": 1])
    // The navigator dropped the popped screen's view: only the factory's copy is left.
    await withLeakTracking { leaks in
      if let detail = made.removeValue(forKey: "Detail") { leaks.track(detail) }
    }
    _ = navigator
  }

  @Test func aMarkupScreensViewAndItsScreenAreFreedWhenItLeaves() async {
    let rows = MutableProperty((1...3).map { Item(id: $0, name: "row \($0)") })
    let stack = ScreenStack<Model>()
    weak var leftView: TerminalScreenView<RowsScreen>?
    weak var leftScreen: RowsScreen?
    let navigator = TerminalNavigator(stack: stack) { screen -> any TerminalView in
      guard screen.title == "Rows" else { return TerminalScreenView(TextScreen("home")) }
      let rowsScreen = RowsScreen(rows)
      let view = TerminalScreenView(rowsScreen)
      leftView = view
      leftScreen = rowsScreen
      return view
    }
    stack.setRoot(Screen(Model(), title: "Home"))
    stack.push(Screen(Model(), title: "Rows"))
    // Drawn, and driven: the list's state, its selection and its actions are made.
    _ = navigator.render(width: 30, height: 8)
    navigator.handle(.down)
    navigator.handle(.enter)
    _ = navigator.render(width: 30, height: 8)
    #expect(leftScreen?.chosen == [1])
    stack.pop()
    _ = navigator.render(width: 30, height: 8)
    #expect(leftView == nil, "the view of a screen that left is freed")
    #expect(leftScreen == nil, "and its screen with it")
  }

  @Test func alertIsModalAndEnterDismissesIt() {
    let (stack, navigator) = navigator()
    var quit: TerminalExit?
    navigator.onQuit = { quit = $0 }
    stack.setRoot(Screen(Model(), title: "Home"))
    stack.present(ScreenAlert(title: "Not for sale", message: "This item is not for sale"))
    let text = navigator.render(width: 60, height: 12).text
    #expect(text.contains("Not for sale"))
    #expect(text.contains("This item is not for sale"))
    #expect(text.contains("[ OK (Enter, Esc) ]"), "one button: both keys press it")
    navigator.handle(.character("q"))
    #expect(quit == nil)
    navigator.handle(.enter)
    #expect(stack.alert == nil)
    navigator.handle(.character("q"))
    #expect(quit == .quit)
  }

  @Test func aDestructiveButtonIsReachedWithTabAndTheBoxFitsItsTitleAndButtons() {
    let (stack, navigator) = navigator()
    stack.setRoot(Screen(Model(), title: "Home"))
    let delete = ScreenAlert.Button("Delete", role: .destructive)
    let cancel = ScreenAlert.Button("Cancel", role: .cancel)
    var heard: [ScreenAlert.Button] = []
    stack.present(
      ScreenAlert(
        title: "Delete “Monthly bus pass (zone 1–3)”?", message: "This cannot be undone.",
        buttons: [delete, cancel])
    ) { heard.append($0) }
    let before = navigator.render(width: 100, height: 16).text
    #expect(before.contains("Delete “Monthly bus pass (zone 1–3)”?"), "the title is whole")
    #expect(before.contains("[ Delete ] [ Cancel (Enter, Esc) ]"), "\(before)")
    #expect(before.contains("Tab or ←/→ to move"))
    navigator.handle(.tab)
    let after = navigator.render(width: 100, height: 16).text
    #expect(after.contains("[ Delete (Enter) ] [ Cancel (Esc) ]"), "\(after)")
    navigator.handle(.enter)
    #expect(heard == [delete], "Tab, then Enter, deleted")
    // ← and Shift-Tab move back; Esc still cancels.
    stack.present(ScreenAlert(title: "T", message: "M", buttons: [delete, cancel])) {
      heard.append($0)
    }
    navigator.handle(.right)
    navigator.handle(.left)
    navigator.handle(.backTab)
    navigator.handle(.enter)
    #expect(heard == [delete, delete])
  }

  @Test func ctrlCInterruptsEvenUnderAnAlert() {
    let (stack, navigator) = navigator()
    var quit: TerminalExit?
    navigator.onQuit = { quit = $0 }
    stack.setRoot(Screen(Model(), title: "Home"))
    stack.present(ScreenAlert(title: "Not for sale", message: "This item is not for sale"))
    navigator.handle(.control("c"))
    #expect(quit == .interrupted)
    #expect(quit?.status == 130)
    #expect(TerminalExit.quit.status == 0)
    #expect(TerminalExit.signal(15).status == 143)  // SIGTERM
  }

  @Test func aSnapshotBringsTheSelectionAndTheAlertBackOnARebuiltNavigator() throws {
    let rows = MutableProperty((1...5).map { Item(id: $0 * 10, name: "row \($0)") })
    func app() -> (ScreenStack<Model>, TerminalNavigator) {
      let stack = ScreenStack<Model>()
      let navigator = TerminalNavigator(stack: stack, screens: { _ in RowsScreen(rows) })
      stack.setRoot(Screen(Model(), title: "List"))
      return (stack, navigator)
    }
    let (stack, navigator) = app()
    navigator.handle(.down)
    navigator.handle(.down)
    stack.present(ScreenAlert(title: "Note", message: "kept"))
    let snapshot = navigator.snapshot()
    #expect(snapshot.selections == ["30"])

    let (rebuiltStack, rebuilt) = app()
    rebuilt.restore(snapshot)
    #expect(rebuiltStack.alert == ScreenAlert(title: "Note", message: "kept"))
    rebuilt.handle(.enter)  // the alert takes the key
    #expect(rebuilt.render(width: 30, height: 8).text.contains("› row 3"))
  }

  @Test func tinyTerminalsDrawWhatFits() {
    let (stack, navigator) = navigator()
    stack.setRoot(Screen(Model(), title: "单诗涵 国家大剧院 北京"))
    stack.present(ScreenAlert(title: "A", message: "B"))
    // A wide title is cut with "…", never split in half; the open alert wins the screen.
    let expected: [(width: Int, height: Int, text: String)] = [
      (0, 0, ""),
      (1, 1, "…"),
      (3, 2, " …\n───"),
      (10, 3, "┌─ A ────┐\n│ [ OK … │\n└────────┘"),
    ]
    for (width, height, text) in expected {
      let rendered = navigator.render(width: width, height: height).text
      #expect(rendered == text, "\(width)x\(height)")
      let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(width)x\(height)")
    }
  }
}
