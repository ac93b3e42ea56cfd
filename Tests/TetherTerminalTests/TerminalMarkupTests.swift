import Testing
import Tether
import TetherFlow
import TetherTerminalTesting
import TetherTesting

@testable import TetherTerminal

/// A screen built from a closure, for tests of the markup's rules.
@MainActor
private final class Sketch<Action>: TerminalScreen {
  let make: () -> TerminalMarkup<Action>
  private(set) var sent: [Action] = []

  init(@TerminalMarkupBuilder<Action> _ make: @escaping () -> TerminalMarkup<Action>) {
    self.make = make
  }

  var body: TerminalMarkup<Action> { make() }
  func handle(_ action: Action) { sent.append(action) }
}

private enum Destination {
  case sketch(any TerminalScreen)
}

private struct Row: Identifiable, Equatable {
  let id: Int
  let title: String
}

@MainActor
private func mount(
  _ screen: any TerminalScreen, width: Int = 40, height: Int = 10
) -> TerminalTestPage {
  let stack = ScreenStack<Destination>()
  let page = TerminalTestPage(stack: stack, width: width, height: height) { screen in
    switch screen.destination {
    case .sketch(let sketch): sketch
    }
  }
  stack.setRoot(Screen(.sketch(screen), title: "Sketch"))
  return page
}

/// The markup's layout, focus and keys, through the terminal test kit.
@MainActor
@Suite struct TerminalMarkupTests {
  enum Action: Equatable { case a, b, c, picked(Int), toggled(Bool), chose(Int), moved(Int) }

  @Test func columnsShareTheWidthAndFixedOnesKeepTheirs() {
    let sketch = Sketch<Action> {
      hstack(spacing: 0) {
        box("Left") { text("l") }.width(10)
        box("Middle") { text("m") }
        box("Right") { text("r") }
      }
    }
    let page = mount(sketch, width: 40, height: 5)
    let top = page.text.split(separator: "\n")[2]
    // The screen has 38 columns: 10 fixed, then 14 each; the corners stand where the widths
    // put them.
    #expect(top == " ╭─ Left ─╮╭─ Middle ───╮╭─ Right ────╮", "\(top)")
    // A resize lays the boxes out again; titles that no longer fit are cut.
    page.resize(width: 30, height: 5)
    #expect(page.text.split(separator: "\n")[2] == " ╭─ Left ─╮╭─ Mid…─╮╭─ Rig…─╮")
  }

  @Test func wideCharactersAreMeasuredByTheirColumnsAndCutWithAnEllipsis() {
    let sketch = Sketch<Action> {
      hstack {
        text("漢字かな🙂").width(7)
        text("end")
      }
      text("a long line that does not fit in the frame at all")
      text("wrapped words go on to the next line", wraps: true)
    }
    let page = mount(sketch, width: 20, height: 8)
    let lines = page.text.split(separator: "\n").map(String.init)
    // The screen has 18 columns from its margin. 7 columns: three wide characters (6) and the
    // ellipsis; no character is split.
    #expect(lines[2] == " 漢字か… end", "\(lines[2])")
    #expect(lines[3] == " a long line that …")
    #expect(lines[4...6] == [" wrapped words go", " on to the next", " line"])
  }

  @Test func tabAndShiftTabGoRoundTheControlsAndOnlyTheFocusedOneIsDrawnFocused() {
    let sketch = Sketch<Action> {
      vstack {
        button("First").onPress(.a)
        button("Second").onPress(.b)
        button("Off").onPress(.c).disabled(true)
        button("Third").onPress(.c)
      }
    }
    let page = mount(sketch)
    #expect(page.controlLabels == ["First", "Second", "Third"])
    #expect(page.focusedLabel == "First")
    let focused = page.render()
    // Only the focused button is drawn in reverse.
    #expect(focused[1, 2]?.style.inverse == true)
    #expect(focused[1, 3]?.style.inverse == false && focused[1, 5]?.style.inverse == false)
    page.press(.tab, .tab)
    #expect(page.focusedLabel == "Third")
    page.press(.tab)
    #expect(page.focusedLabel == "First")
    page.press(.backTab)
    #expect(page.focusedLabel == "Third")
    page.press(.up)
    #expect(page.focusedLabel == "Second")
    page.press(.enter, .character(" "))
    #expect(sketch.sent == [.b, .b])
  }

  @Test func theArrowsGoToTheNearestControlOnThatSide() throws {
    let sketch = Sketch<Action> {
      hstack {
        vstack {
          button("A1")
          button("A2")
        }
        vstack {
          button("B1")
          button("B2")
        }
      }
    }
    let page = mount(sketch)
    try page.focus("A2")
    page.press(.right)
    #expect(page.focusedLabel == "B2")
    page.press(.left)
    #expect(page.focusedLabel == "A2")
  }

  @Test func aShortcutWaitsWhileAFieldTakesTheCharacter() throws {
    let typed = MutableProperty("")
    let sketch = Sketch<Action> {
      vstack {
        textField(typed, placeholder: "Name")
        button("Go").onPress(.a)
      }
      .onKey("n", .b)
    }
    let page = mount(sketch)
    page.type("n")
    #expect(typed.value == "n" && sketch.sent.isEmpty)
    try page.focus("Go")
    page.press(.character("n"))
    #expect(sketch.sent == [.b])
  }

  @Test func aFieldIsBoundBothWaysAndItsKeysAreALineEditors() {
    let typed = MutableProperty("")
    let sketch = Sketch<Action> {
      textField(typed, placeholder: "Title").onSubmit(.a).onCancel(.b)
    }
    let page = mount(sketch)
    #expect(page.shows("› Title"))
    page.type("Buy mlk")
    page.press(.left, .left, .character("i"))
    #expect(typed.value == "Buy milk")
    page.paste("two\nlines")
    #expect(typed.value == "Buy mitwo lineslk")
    page.press(.control("u"))
    #expect(typed.value == "lk")
    typed.value = "set by the model"
    #expect(page.shows("› set by the model"))
    page.press(.enter, .escape)
    #expect(sketch.sent == [.a, .b])
  }

  @Test func escapeInAFieldWithoutCancelGoesBack() {
    let first = Sketch<Action> { button("Open") }
    let second = Sketch<Action> { textField(MutableProperty(""), placeholder: "Title") }
    let stack = ScreenStack<Destination>()
    let page = TerminalTestPage(stack: stack, width: 40, height: 8) { screen in
      switch screen.destination {
      case .sketch(let sketch): sketch
      }
    }
    stack.setRoot(Screen(.sketch(first), title: "First"))
    stack.push(Screen(.sketch(second), title: "Second"))
    #expect(page.shows("Second"))
    page.press(.escape)
    #expect(page.shows("First") && stack.screens.count == 1)
  }

  @Test func aTextAreaKeepsLineBreaks() {
    let notes = MutableProperty("")
    let sketch = Sketch<Action> {
      textArea(notes, placeholder: "Notes", rows: 3)
    }
    let page = mount(sketch)
    page.type("one")
    page.press(.enter)
    page.paste("two\r\nthree")
    #expect(notes.value == "one\ntwo\nthree")
    page.press(.up, .end, .character("!"))
    #expect(notes.value == "one\ntwo!\nthree")
    #expect(page.lines(containing: "two!").count == 1)
  }

  @Test func checkboxesRadioGroupsAndTabsAnswerTheirKeys() throws {
    let remember = MutableProperty(false)
    var choice = 0
    let sketch = Sketch<Action> {
      checkbox("Remember me", isOn: remember)
      checkbox("Done", isOn: false) { .toggled($0) }
      radioGroup("Size", options: ["S", "M", "L"], selected: choice) { .picked($0) }
      tabs(["One", "Two"], selected: 1) { .chose($0) }
    }
    let page = mount(sketch)
    page.press(.character(" "))
    #expect(remember.value && page.shows("[x] Remember me"))
    page.press(.tab, .enter)
    #expect(sketch.sent == [.toggled(true)])
    try page.focus("Size")
    #expect(page.shows("(•) S  ( ) M  ( ) L"))
    page.press(.right)
    #expect(sketch.sent.last == .picked(1))
    choice = 2
    page.press(.right)  // drawn again at L: there is nothing to its right
    #expect(sketch.sent.last == .picked(1) && page.focusedLabel == "Size")
    try page.focus("Tabs")
    #expect(page.shows("[Two]"))
    page.press(.left)
    #expect(sketch.sent.last == .chose(0))
  }

  @Test func aListsSelectionFollowsItsRowAndOnlyAFocusedListMarksIt() throws {
    var rows = [Row(id: 1, title: "one"), Row(id: 2, title: "two")]
    let sketch = Sketch<Action> {
      list(rows, label: "Rows", onChoose: { .chose($0) }, onMove: { .moved($0) }) { row in
        text(row.title)
      }
      button("Other")
    }
    let page = mount(sketch)
    page.press(.down)
    #expect(page.shows("› two") && sketch.sent == [.moved(1)])
    // A row arriving above the selected one: the selection stays on "two".
    rows.insert(Row(id: 0, title: "zero"), at: 0)
    #expect(page.shows("› two"))
    #expect(sketch.sent.last == .moved(2))
    page.press(.enter)
    #expect(sketch.sent.last == .chose(2))
    try page.focus("Other")
    #expect(page.lines(containing: "›").isEmpty)
  }

  @Test func theViewModelMovesFocusWhenItAsksAnew() {
    let editing = MutableProperty(false)
    let sketch = Sketch<Action> {
      button("List")
      textField(MutableProperty(""), placeholder: "Edit").focused(editing.value)
    }
    let page = mount(sketch)
    #expect(page.focusedLabel == "List")
    editing.value = true
    #expect(page.focusedLabel == "Edit")
    // Asked once: a key may move focus away while the model's answer is unchanged.
    page.press(.backTab)
    #expect(page.focusedLabel == "List")
  }

  @Test func aListAskedForFocusTakesItWhenItsRowsArrive() {
    var rows: [Row] = []
    let sketch = Sketch<Action> {
      button("Reload").onPress(.a)
      list(rows, label: "Rows") { text($0.title) }.focused(true)
    }
    let page = mount(sketch)
    // No rows: the list cannot take focus, so the button has it and Enter presses it.
    #expect(page.focusedLabel == "Reload")
    page.press(.enter)
    #expect(sketch.sent == [.a])
    rows = [Row(id: 1, title: "one")]
    #expect(page.focusedLabel == "Rows" && page.shows("› one"))
  }

  @Test func focusNeverStartsOnADestructiveButtonAndKeysStillReachIt() throws {
    let sketch = Sketch<Action> {
      hstack {
        button("Delete", role: .destructive).onPress(.a)
        button("Keep").onPress(.b)
      }
    }
    let page = mount(sketch)
    #expect(page.focusedLabel == "Keep")
    page.press(.enter)
    #expect(sketch.sent == [.b])
    try page.press("Delete")
    #expect(sketch.sent == [.b, .a])
  }

  @Test func aControlThatGoesPassesFocusToTheOneAtItsPlace() throws {
    var shown = true
    let sketch = Sketch<Action> {
      button("One")
      if shown { button("Two") }
      button("Three")
    }
    let page = mount(sketch)
    try page.focus("Two")
    shown = false
    #expect(page.focusedLabel == "Three")
    #expect(throws: TerminalTestPage.Failure.self) { try page.focus("Two") }
  }

  @Test func oddSizesDrawWhatFitsAndNothingTraps() {
    let sketch = Sketch<Action> {
      hstack {
        box("A") { text("漢字") }
        box("B") { list([Row(id: 1, title: "x")]) { text($0.title) } }
      }
      textField(MutableProperty("text"), placeholder: "Field")
      textArea(MutableProperty("a\nb"), rows: 2)
    }
    for (width, height) in [(1, 1), (2, 3), (3, 2), (5, 5), (200, 2)] {
      let page = mount(sketch, width: width, height: height)
      page.press(.tab, .right, .left, .down, .enter)
      #expect(page.render().width == width)
    }
  }

  @Test func seededKeyStreamsAtAnySizeNeverTrapAndNeverDrawPastTheEdge() {
    var random = SeededRandomNumberGenerator(seed: 54)
    let rows = MutableProperty((0..<30).map { Row(id: $0, title: "row \($0) 漢字🙂") })
    let title = MutableProperty("")
    let notes = MutableProperty("")
    let done = MutableProperty(false)
    let sketch = Sketch<Action> {
      hstack {
        box("左") {
          list(rows.value, label: "Rows", rowHeight: 2, onChoose: { .chose($0) }) { row in
            text(row.title)
            text(row.title, wraps: true).dim()
          }
        }
        vstack {
          textField(title, placeholder: "Title").onSubmit(.a).onCancel(.b)
          textArea(notes, rows: 3)
          checkbox("Done", isOn: done)
          radioGroup("Size", options: ["S", "M", "L"], selected: 1) { .picked($0) }
          tabs(["一", "二"], selected: 0) { .chose($0) }
          button("Delete", key: "d", role: .destructive).onPress(.c)
        }
      }
      .onKey("n", .a)
    }
    let keys: [Key] = [
      .tab, .backTab, .up, .down, .left, .right, .enter, .escape, .backspace, .delete, .home,
      .end, .pageUp, .pageDown, .character(" "), .character("n"), .character("d"),
      .character("j"), .character("漢"), .character("🙂"), .control("u"), .control("w"),
      .alt("b"), .paste("pasted\nline\r\nand 한국어"), .unknown([0x1B, 0x5B, 0x39]),
    ]
    for _ in 0..<12 {
      let width = Int.random(in: 0...120, using: &random)
      let height = Int.random(in: 0...40, using: &random)
      let page = mount(sketch, width: width, height: height)
      for _ in 0..<30 {
        page.press(keys[Int.random(in: 0..<keys.count, using: &random)])
        if Bool.random(using: &random) {
          rows.value.shuffle(using: &random)
          rows.value.removeLast(Int.random(in: 0...min(3, rows.value.count), using: &random))
        }
        let canvas = page.render()
        #expect(canvas.width == max(1, width) && canvas.height == max(1, height))
        let lines = canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= canvas.width })
        if let focused = page.focusedLabel { #expect(page.controlLabels.contains(focused)) }
      }
      if rows.value.count < 5 { rows.value = (0..<30).map { Row(id: $0, title: "row \($0)") } }
    }
  }
}
