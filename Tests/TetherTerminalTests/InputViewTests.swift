import Testing
import Tether
import TetherFlow

@testable import TetherTerminal

@MainActor
@Suite struct InputViewTests {
  private func drawn(_ view: any TerminalView, width: Int = 20) -> String {
    var canvas = Canvas(width: width, height: 1)
    view.draw(in: &canvas, frame: Rect(x: 0, y: 0, width: width, height: 1))
    return canvas.text
  }

  private func type(_ text: String, into view: any TerminalView) {
    var parser = KeyParser()
    for key in parser.feed(Array(text.utf8)) + parser.flush() { _ = view.handle(key) }
  }

  @Test func typedTextReachesTheModelAndEditingKeysWork() {
    let title = MutableProperty("")
    let field = TextField(title, placeholder: "What needs to be done?")
    #expect(drawn(field, width: 30).contains("What needs to be done?"))
    type("Buy mlk", into: field)
    #expect(title.value == "Buy mlk")
    type("\u{1B}[D\u{1B}[Di", into: field)  // ← ← i
    #expect(title.value == "Buy milk" && field.editing.cursor == 6)
    type("\u{1}\u{1B}[3~b", into: field)  // Ctrl-A, Delete, b
    #expect(title.value == "buy milk")
    type("\u{5}\u{17}", into: field)  // Ctrl-E, Ctrl-W
    #expect(title.value == "buy ")
    type("\u{15}", into: field)  // Ctrl-U
    #expect(title.value == "")
    #expect(field.handle(.character("q")), "q is text in a field, not quit")
    #expect(!field.handle(.down) && !field.handle(.tab), "↓ and Tab are the screen's")
  }

  @Test func enterSubmitsAndTheModelClearingTheFieldShows() {
    let title = MutableProperty("")
    var added: [String] = []
    let field = TextField(
      title,
      onSubmit: {
        added.append(title.value.trimmingCharacters(in: .whitespaces))
        title.value = ""
      })
    type("Milk  \r", into: field)
    #expect(added == ["Milk"])
    #expect(title.value == "" && field.editing.text == "" && field.editing.cursor == 0)
    type("Eggs", into: field)
    #expect(field.editing.text == "Eggs", "typing goes on after the model cleared the field")
  }

  @Test func aPasteIsInsertedOnOneLineAndPressesNothing() {
    let title = MutableProperty("")
    var submitted = 0
    let field = TextField(title, onSubmit: { submitted += 1 })
    type("\u{1B}[200~first line\r\nsecond line\u{1B}[201~", into: field)
    #expect(title.value == "first line second line")
    #expect(submitted == 0, "a pasted line break is not Enter")
  }

  @Test func wideTextScrollsAndTheCursorNeverSplitsACharacter() {
    let title = MutableProperty("")
    let field = TextField(title)
    type("日本語のテキスト", into: field)
    // 10 columns: "› " and 8 columns of text, the cursor's cell included.
    let shown = drawn(field, width: 10)
    #expect(shown.hasPrefix("› "))
    #expect(shown.contains("キスト"), "the end of the text, where the cursor is: \(shown)")
    #expect(!shown.contains("日"), "the start scrolled away")
    type("\u{1}", into: field)
    #expect(drawn(field, width: 10).contains("日本語"))
  }

  @Test func anUnfocusedFieldTakesNoKeysAndShowsNoCursor() {
    let title = MutableProperty("abc")
    let focused = MutableProperty(false)
    let field = TextField(title, isFocused: focused)
    #expect(!field.handle(.character("x")))
    #expect(title.value == "abc")
    focused.value = true
    #expect(field.handle(.character("x")))
    #expect(title.value == "abcx")
  }

  @Test func escapeCancelsOnlyWhenTheFieldCan() {
    let title = MutableProperty("draft")
    #expect(!TextField(title).handle(.escape), "no onCancel: Escape goes back")
    var cancelled = false
    #expect(TextField(title, onCancel: { cancelled = true }).handle(.escape) && cancelled)
  }

  @Test func aCheckboxTogglesOnSpaceAndFollowsItsModel() {
    let done = MutableProperty(false)
    let box = Checkbox("Done", isOn: done)
    #expect(drawn(box).hasPrefix("[ ] Done"))
    #expect(box.handle(.character(" ")) && done.value)
    #expect(drawn(box).hasPrefix("[x] Done"))
    done.value = false
    #expect(drawn(box).hasPrefix("[ ] Done"))
    #expect(!box.handle(.character("x")))
  }

  @Test func anHStackLaysOutLeftToRight() {
    let done = MutableProperty(true)
    let row = HStack([
      (Checkbox("", isOn: done), 3), (Label(Property(value: "Milk")), nil),
      (Label(Property(value: "×")), 1),
    ])
    let text = drawn(row, width: 20)
    #expect(text.hasPrefix("[x] Milk"))
    #expect(text.trimmingCharacters(in: .whitespaces).hasSuffix("×"))
    #expect(row.preferredHeight(width: 20) == 1)
  }
}
