import Foundation
import Testing
import Tether
import TetherFlow
import TetherTerminalTesting

@testable import TetherTerminal

/// A screen of one field and a button after it, for the field's rules.
@MainActor
private final class FieldScreen: TerminalScreen {
  enum Action { case submit, cancel }
  let title: MutableProperty<String>
  let cancels: Bool
  let focused: Bool
  var onSubmit: () -> Void = {}
  private(set) var cancelled = 0

  init(_ title: MutableProperty<String>, cancels: Bool = false, focused: Bool = true) {
    self.title = title
    self.cancels = cancels
    self.focused = focused
  }

  var body: TerminalMarkup<Action> {
    if cancels {
      textField(title, placeholder: "What needs to be done?").onSubmit(.submit).onCancel(.cancel)
    } else {
      textField(title, placeholder: "What needs to be done?").onSubmit(.submit)
    }
    button("Other").focused(!focused)
  }

  func handle(_ action: Action) {
    switch action {
    case .submit: onSubmit()
    case .cancel: cancelled += 1
    }
  }
}

@MainActor
@Suite struct InputViewTests {
  private func mount(_ screen: FieldScreen, width: Int = 30) -> TerminalTestPage {
    let stack = ScreenStack<Int>()
    let page = TerminalTestPage(stack: stack, width: width, height: 6) { _ in screen }
    stack.setRoot(Screen(0, title: "Form"))
    return page
  }

  /// Feeds `bytes` through the terminal's key parser, as a terminal sends them.
  private func send(_ bytes: String, to page: TerminalTestPage) {
    var parser = KeyParser()
    for key in parser.feed(Array(bytes.utf8)) + parser.flush() { page.press(key) }
  }

  /// The field's row, without the screen's margin.
  private func fieldRow(_ page: TerminalTestPage) -> String {
    String(page.text.split(separator: "\n", omittingEmptySubsequences: false)[2].dropFirst())
  }

  @Test func typedTextReachesTheModelAndEditingKeysWork() {
    let title = MutableProperty("")
    let page = mount(FieldScreen(title))
    #expect(page.shows("What needs to be done?"))
    send("Buy mlk", to: page)
    #expect(title.value == "Buy mlk")
    send("\u{1B}[D\u{1B}[Di", to: page)  // ← ← i
    #expect(title.value == "Buy milk")
    send("\u{1}\u{1B}[3~b", to: page)  // Ctrl-A, Delete, b
    #expect(title.value == "buy milk")
    send("\u{5}\u{17}", to: page)  // Ctrl-E, Ctrl-W
    #expect(title.value == "buy ")
    send("\u{15}", to: page)  // Ctrl-U
    #expect(title.value == "")
    page.press(.character("q"))
    #expect(title.value == "q" && page.exit == nil, "q is text in a field, not quit")
    page.press(.down)
    #expect(page.focusedLabel == "Other", "↓ is the screen's: it moves focus")
  }

  @Test func enterSubmitsAndTheModelClearingTheFieldShows() {
    let title = MutableProperty("")
    var added: [String] = []
    let screen = FieldScreen(title)
    screen.onSubmit = {
      added.append(title.value.trimmingCharacters(in: .whitespaces))
      title.value = ""
    }
    let page = mount(screen)
    send("Milk  \r", to: page)
    #expect(added == ["Milk"])
    #expect(title.value == "" && page.shows("What needs to be done?"))
    send("Eggs", to: page)
    #expect(title.value == "Eggs", "typing goes on after the model cleared the field")
  }

  @Test func aPasteIsInsertedOnOneLineAndPressesNothing() {
    let title = MutableProperty("")
    var submitted = 0
    let screen = FieldScreen(title)
    screen.onSubmit = { submitted += 1 }
    let page = mount(screen)
    send("\u{1B}[200~first line\r\nsecond line\u{1B}[201~", to: page)
    #expect(title.value == "first line second line")
    #expect(submitted == 0, "a pasted line break is not Enter")
  }

  @Test func wideTextScrollsAndTheCursorNeverSplitsACharacter() {
    let title = MutableProperty("")
    // 12 columns: a margin each side, "› " and 8 columns of text, the cursor's cell included.
    let page = mount(FieldScreen(title), width: 12)
    send("日本語のテキスト", to: page)
    let shown = fieldRow(page)
    #expect(shown.hasPrefix("› "))
    #expect(shown.contains("キスト"), "the end of the text, where the cursor is: \(shown)")
    #expect(!shown.contains("日"), "the start scrolled away")
    send("\u{1}", to: page)
    #expect(fieldRow(page).contains("日本語"))
  }

  @Test func anUnfocusedFieldTakesNoKeysAndShowsNoCursor() {
    let title = MutableProperty("abc")
    let page = mount(FieldScreen(title, focused: false))
    #expect(page.focusedLabel == "Other" && !fieldRow(page).hasPrefix("›"))
    page.press(.character("x"))
    #expect(title.value == "abc")
    page.press(.backTab, .character("x"))
    #expect(title.value == "abcx" && fieldRow(page).hasPrefix("›"))
  }

  @Test func escapeCancelsOnlyWhenTheFieldCan() {
    let cancelling = FieldScreen(MutableProperty("draft"), cancels: true)
    let page = mount(cancelling)
    page.press(.escape)
    #expect(cancelling.cancelled == 1)
    let plain = FieldScreen(MutableProperty("draft"))
    let stack = ScreenStack<Int>()
    let other = TerminalTestPage(stack: stack, width: 30, height: 6) { _ in plain }
    stack.setRoot(Screen(0, title: "List"))
    stack.push(Screen(1, title: "Form"))
    other.press(.escape)
    #expect(stack.screens.count == 1, "no onCancel: Escape goes back")
  }

  @Test func aCheckboxTogglesOnSpaceAndFollowsItsModel() {
    final class Box: TerminalScreen {
      let done: MutableProperty<Bool>
      init(_ done: MutableProperty<Bool>) { self.done = done }
      var body: TerminalMarkup<Never> { checkbox("Done", isOn: done) }
    }
    let done = MutableProperty(false)
    let stack = ScreenStack<Int>()
    let page = TerminalTestPage(stack: stack, width: 20, height: 4) { _ in Box(done) }
    stack.setRoot(Screen(0, title: "Box"))
    #expect(page.shows("[ ] Done"))
    page.press(.character(" "))
    #expect(done.value && page.shows("[x] Done"))
    done.value = false
    #expect(page.shows("[ ] Done"))
    page.press(.character("x"))
    #expect(!done.value)
  }
}
