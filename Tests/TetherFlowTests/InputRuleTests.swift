import Foundation
import Testing
import Tether
import TetherFlow

/// The input rules with no view layer: the line editor, echo suppression, focus order.
@Suite struct LineEditorTests {
  /// Columns as a terminal counts them, for the characters these tests use: CJK and emoji
  /// take two, a combining mark joined to its letter is part of that letter's one.
  static func columns(_ character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    if (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
      || (0xAC00...0xD7A3).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
      || (0x1F300...0x1FAFF).contains(scalar.value) || (0x1F1E6...0x1F1FF).contains(scalar.value)
    {
      return 2
    }
    return 1
  }

  @Test func typingInsertsAtTheCursorAndArrowsHomeAndEndMoveIt() {
    var field = LineEditor()
    let typed = field.apply(.insert("Buy mlk"))
    #expect(typed)
    #expect(field.text == "Buy mlk" && field.cursor == 7)
    field.apply(.moveLeft)
    field.apply(.moveLeft)
    field.apply(.insert("i"))
    #expect(field.text == "Buy milk" && field.cursor == 6)
    field.apply(.moveToStart)
    #expect(field.cursor == 0)
    let movedPastStart = field.apply(.moveLeft)
    #expect(!movedPastStart, "nothing left of the start")
    let deletedAtStart = field.apply(.deleteBackward)
    #expect(!deletedAtStart, "Backspace at the start changes nothing")
    field.apply(.moveToEnd)
    #expect(field.cursor == 8)
    let movedPastEnd = field.apply(.moveRight)
    let deletedAtEnd = field.apply(.deleteForward)
    #expect(!movedPastEnd && !deletedAtEnd)
  }

  @Test func backspaceAndDeleteRemoveOneCharacterEitherSide() {
    var field = LineEditor("abcd", cursor: 2)
    field.apply(.deleteBackward)
    #expect(field.text == "acd" && field.cursor == 1)
    field.apply(.deleteForward)
    #expect(field.text == "ad" && field.cursor == 1)
  }

  @Test func controlUKAndWDeleteAsAShellDoes() {
    var field = LineEditor("git commit  -m fix", cursor: 12)
    field.apply(.deleteWordBackward)
    #expect(field.text == "git -m fix" && field.cursor == 4, "the word and the spaces after it")
    field.apply(.deleteToEnd)
    #expect(field.text == "git " && field.cursor == 4)
    field.apply(.deleteWordBackward)
    #expect(field.text == "" && field.cursor == 0)
    var other = LineEditor("hello world", cursor: 6)
    other.apply(.deleteToStart)
    #expect(other.text == "world" && other.cursor == 0)
  }

  @Test func wordMovesSkipSpacesThenTheWord() {
    var field = LineEditor("one  two three", cursor: 14)
    field.apply(.moveWordLeft)
    #expect(field.cursor == 9)
    field.apply(.moveWordLeft)
    #expect(field.cursor == 5)
    field.apply(.moveWordRight)
    #expect(field.cursor == 8)
    field.apply(.moveWordRight)
    #expect(field.cursor == 14)
  }

  @Test func theCursorNeverSplitsAGraphemeCluster() {
    // A family emoji (four people joined), a flag, and an e with a combining accent.
    var field = LineEditor("👨‍👩‍👧‍👦🇯🇵e\u{301}")
    #expect(field.cursor == 3, "three characters, whatever their scalars")
    field.apply(.deleteBackward)
    #expect(field.text == "👨‍👩‍👧‍👦🇯🇵", "the accent goes with its letter")
    field.apply(.moveLeft)
    field.apply(.deleteBackward)
    #expect(field.text == "🇯🇵", "the whole family in one Backspace")
    // A combining mark typed after a letter joins it; the cursor stays after the pair.
    var accent = LineEditor("cafe")
    accent.apply(.insert("\u{301}"))
    #expect(accent.text == "café" && accent.cursor == 4)
  }

  @Test func aPasteStaysOnOneLineAndDropsControlCharacters() {
    var field = LineEditor("a", cursor: 1)
    field.apply(.insert("line one\r\nline two\nthree\tfour\u{1B}[31m\u{7}"))
    #expect(field.text == "aline one line two three four[31m")
    #expect(field.cursor == field.text.count)
    let insertedControls = field.apply(.insert("\u{1B}\u{7}"))
    #expect(!insertedControls, "nothing left to insert: no change")
    #expect(LineEditor("x\ny").text == "x y")
  }

  @Test func aModelChangePutsTheCursorAtTheEndUnlessTheTextBeforeItIsUnchanged() {
    var field = LineEditor("buy milk  ", cursor: 3)
    field.setText("buy milk")
    #expect(field.cursor == 3, "only what follows the cursor changed")
    field.setText("  buy oat milk")
    #expect(field.cursor == 14, "the text before it changed: the end")
    field.setText("")
    #expect(field.cursor == 0)
    field.setText("Buy milk")
    #expect(field.cursor == 8, "a title put in for editing: type on at its end")
  }

  @Test func aNarrowFieldScrollsToKeepTheCursorInViewAndNeverCutsAWideCharacter() {
    let field = LineEditor("abcdefghij")
    // The cursor at the end needs a column: 10 characters in a field of 6 show the last 5.
    let end = field.window(width: 6, scroll: 0, columns: Self.columns)
    #expect(end.visible == "fghij" && end.cursorColumn == 5 && end.firstCharacter == 5)
    // Moving left inside the window keeps it still; past its left edge scrolls it.
    var moved = field
    moved.apply(.moveLeft)
    let still = moved.window(width: 6, scroll: end.firstCharacter, columns: Self.columns)
    #expect(still.firstCharacter == 5 && still.cursorColumn == 4)
    moved.apply(.moveToStart)
    let start = moved.window(width: 6, scroll: still.firstCharacter, columns: Self.columns)
    #expect(start.visible == "abcdef" && start.cursorColumn == 0 && start.firstCharacter == 0)

    // Wide characters: two columns each; one that would straddle the edge is left out whole.
    let wide = LineEditor("日本語のテキスト", cursor: 0)
    let shown = wide.window(width: 7, scroll: 0, columns: Self.columns)
    #expect(shown.visible == "日本語", "three take six columns; a fourth would need eight")
    let atEnd = LineEditor("日本語のテキスト").window(width: 7, scroll: 0, columns: Self.columns)
    #expect(atEnd.visible == "キスト" && atEnd.cursorColumn == 6)
    // Odd sizes: no width shows nothing and does not trap.
    #expect(wide.window(width: 0, scroll: 3, columns: Self.columns).visible.isEmpty)
    #expect(LineEditor("日").window(width: 1, scroll: 0, columns: Self.columns).visible.isEmpty)
  }
}

@MainActor
@Suite struct FieldBindingTests {
  @Test func anEditSetsTheStateAndDoesNotComeBackAsAnEcho() {
    let title = MutableProperty("")
    let binding = FieldBinding(title)
    var updates: [FieldUpdate<String>] = []
    let token = binding.updates.observe { updates.append($0) }
    #expect(binding.userEdited("B", sequence: 1))
    #expect(binding.userEdited("Bu", sequence: 2))
    #expect(title.value == "Bu")
    #expect(updates.isEmpty, "the person's own typing is never sent back")
    _ = token
  }

  @Test func aLateEditIsIgnoredAndALateEchoNeverOverwritesNewerTyping() {
    let title = MutableProperty("")
    let binding = FieldBinding(title)
    var updates: [FieldUpdate<String>] = []
    let token = binding.updates.observe { updates.append($0) }
    binding.userEdited("Bu", sequence: 2)
    #expect(!binding.userEdited("B", sequence: 1), "an older edit arriving late")
    #expect(title.value == "Bu")
    // A slow model: it sets a value computed from edit 2 while the field is at edit 4.
    title.value = "BU"
    #expect(updates == [FieldUpdate(value: "BU", acknowledged: 2)])
    #expect(!updates[0].applies(toFieldAt: 4), "the person typed since: their text stays")
    #expect(updates[0].applies(toFieldAt: 2), "nothing typed since: the field shows it")
    _ = token
  }

  @Test func aDeliberateModelChangeReachesTheField() {
    let title = MutableProperty("")
    let binding = FieldBinding(title)
    var shown = ""
    var fieldSequence = 0
    let token = binding.updates.observe { update in
      if update.applies(toFieldAt: fieldSequence) { shown = update.value }
    }
    // The model trims what is typed, inside the edit: the field gets the trimmed text.
    let trim = title.observe { value in
      let trimmed = value.trimmingCharacters(in: .whitespaces)
      if trimmed != value { title.value = trimmed }
    }
    fieldSequence = 1
    shown = "  milk "
    binding.userEdited("  milk ", sequence: 1)
    #expect(title.value == "milk" && shown == "milk")
    // Submit clears the field: a change of the model's own, after the newest edit.
    title.value = ""
    #expect(shown == "")
    #expect(binding.current == FieldUpdate(value: "", acknowledged: 1))
    _ = (token, trim)
  }

  @Test func aCheckboxIsBoundTheSameWay() {
    let done = MutableProperty(false)
    let binding = FieldBinding(done)
    var updates: [Bool] = []
    let token = binding.updates.observe { updates.append($0.value) }
    binding.userEdited(true, sequence: 1)
    #expect(done.value && updates.isEmpty)
    done.value = false  // "clear completed" unticks it
    #expect(updates == [false])
    _ = token
  }
}

@Suite struct FocusOrderTests {
  @Test func tabAndShiftTabWalkTheOrderAndWrap() {
    var focus = FocusOrder(["field", "a", "b"], focused: "field")
    focus.next()
    #expect(focus.focused == "a")
    focus.next()
    focus.next()
    #expect(focus.focused == "field", "after the last, the first")
    focus.previous()
    #expect(focus.focused == "b", "before the first, the last")
    focus.blur()
    focus.next()
    #expect(focus.focused == "field", "Tab from nowhere: the first")
    focus.blur()
    focus.previous()
    #expect(focus.focused == "b", "Shift-Tab from nowhere: the last")
    var empty = FocusOrder<String>([])
    empty.next()
    #expect(empty.focused == nil)
  }

  @Test func focusOnAppearAndOnlyOnAControlThatIsThere() {
    #expect(FocusOrder(["field", "a"], focused: "field").focused == "field")
    #expect(FocusOrder(["field", "a"], focused: "gone").focused == nil)
    var focus = FocusOrder(["field", "a", "a"])
    #expect(focus.order == ["field", "a"], "a repeated id counts once")
    let focusedGone = focus.focus("gone")
    #expect(!focusedGone && focus.focused == nil)
    let focusedA = focus.focus("a")
    #expect(focusedA && focus.focused == "a")
  }

  @Test func deletingTheFocusedRowMovesFocusToTheNextThenThePrevious() {
    var focus = FocusOrder(["field", "r1", "r2", "r3"], focused: "r2")
    focus.update(order: ["field", "r1", "r3"])
    #expect(focus.focused == "r3", "the row after it")
    focus.update(order: ["field", "r1"])
    #expect(focus.focused == "r1", "no row after it: the one before")
    focus.update(order: ["field", "r0", "r1"])
    #expect(focus.focused == "r1", "a row added elsewhere does not move focus")
    focus.update(order: [])
    #expect(focus.focused == nil)
  }
}
