import Foundation
import Testing
import Tether
import TetherFlow
import TetherTesting

/// The rules every view layer shares, tested with no view layer at all: list selection by
/// identity, the key vocabulary, alert responses and their roles.
struct Row: Identifiable, Equatable {
  let id: Int
  var text = ""
}

func rows(_ ids: [Int]) -> [Row] { ids.map { Row(id: $0) } }

@MainActor
@Suite struct ListSelectionTests {
  /// A selection over `ids`, recording every move and activation.
  @MainActor final class Harness {
    final class Log {
      var moves: [Int] = []
      var activations: [Int] = []
    }

    let rows: MutableProperty<[Row]>
    let selection: ListSelection<Row>
    private let log = Log()

    init(_ ids: [Int]) {
      rows = MutableProperty(TetherFlowTests.rows(ids))
      let log = self.log
      selection = ListSelection(
        rows: rows, onMove: { log.moves.append($0) },
        onActivate: { log.activations.append($0) })
    }

    var moves: [Int] { log.moves }
    var activations: [Int] { log.activations }
    var selectedID: Int? { selection.selectedID }
  }

  @Test func keysMoveWithinTheRowsAndActivateChooses() {
    let list = Harness([10, 20, 30, 40, 50])
    #expect(list.selection.index == 0 && list.selectedID == 10)
    #expect(list.selection.handle(.up))  // already at the top: used, no move
    #expect(list.moves.isEmpty)
    list.selection.handle(.down)
    list.selection.handle(.down)
    #expect(list.selectedID == 30)
    list.selection.handle(.end)
    #expect(list.selectedID == 50)
    list.selection.handle(.pageUp, pageSize: 3)
    #expect(list.selectedID == 20)
    list.selection.handle(.pageDown, pageSize: 10)
    #expect(list.selectedID == 50)
    list.selection.handle(.home)
    list.selection.handle(.activate)
    #expect(list.moves == [1, 2, 4, 1, 4, 0])
    #expect(list.activations == [0])
    #expect(list.selection.handle(.cancel) == false, "cancel is not the list's")
    list.selection.activate(3)  // a click on a row
    #expect(list.selectedID == 40 && list.activations == [0, 3])
    list.selection.activate(9)  // no such row: nothing
    #expect(list.activations == [0, 3])
  }

  @Test func anEmptyListUsesNoKeyAndSelectsNothing() {
    let list = Harness([])
    for key in ScreenKey.allCases { #expect(list.selection.handle(key) == false) }
    #expect(list.selectedID == nil && list.activations.isEmpty)
    list.rows.value = rows([7, 8])
    #expect(list.selectedID == 7 && list.selection.index == 0)
  }

  @Test func theSelectedRowIsFollowedByIdentityThroughInsertionsDeletionsAndMoves() {
    let list = Harness([1, 2, 3, 4, 5])
    list.selection.select(2)  // row 3
    list.rows.value = rows([0, 1, 2, 3, 4, 5])  // inserted above
    #expect(list.selectedID == 3 && list.selection.index == 3)
    list.rows.value = rows([0, 3, 4, 5])  // deleted above
    #expect(list.selectedID == 3 && list.selection.index == 1)
    list.rows.value = rows([4, 5, 0, 3])  // moved
    #expect(list.selectedID == 3 && list.selection.index == 3)
    list.rows.value = rows([3, 4, 5, 0]).map { Row(id: $0.id, text: "updated") }
    #expect(list.selectedID == 3 && list.selection.index == 0)
    #expect(list.moves == [2, 3, 1, 3, 0], "the owner hears every move, the rows' too")
  }

  @Test func aDeletedSelectedRowPassesTheSelectionToTheNextRowStillThere() {
    let list = Harness([1, 2, 3, 4, 5])
    list.selection.select(1)  // row 2
    // Row 2 and row 3 after it go; 4 is the nearest later survivor, though new rows came
    // in front of it.
    list.rows.value = rows([1, 8, 9, 4, 5])
    #expect(list.selectedID == 4 && list.selection.index == 3)
    // The last row goes: nothing after it survives, so the nearest earlier one.
    list.selection.handle(.end)
    list.rows.value = rows([1, 8, 9, 4])
    #expect(list.selectedID == 4)
    // The next row survived but moved: the selection goes where it went.
    list.selection.select(1)  // row 8
    list.rows.value = rows([9, 1, 4])
    #expect(list.selectedID == 9 && list.selection.index == 0)
    // Nothing survives: the first new row.
    list.rows.value = rows([20, 21])
    #expect(list.selectedID == 20 && list.selection.index == 0)
    // Everything goes: no selection.
    list.rows.value = []
    #expect(list.selectedID == nil && list.selection.index == 0)
  }

  @Test func theRuleAsAPureFunctionOfTheDiff() {
    func after(_ old: [Int], _ selected: Int, _ new: [Int]) -> Int {
      ListSelection<Row>.position(
        following: selected, through: ListDiff(from: rows(old), to: rows(new)))
    }
    #expect(after([1, 2, 3], 1, [1, 3]) == 1)  // 2 gone: 3, now at 1
    #expect(after([1, 2, 3], 2, [1, 2]) == 1)  // the last gone: the one before
    #expect(after([1, 2, 3], 0, [3, 1]) == 1)  // kept, moved
    #expect(after([1, 2, 3], 0, [2, 3]) == 0)  // the first gone: the next
    #expect(after([1, 2, 3], 1, []) == 0)
    #expect(after([], 0, [5]) == 0)
  }

  @Test func aRestoredSelectionWaitsForItsRow() {
    let list = Harness([])
    list.selection.restore("30")
    list.rows.value = rows([10, 20, 30])
    #expect(list.selectedID == 30)
    #expect(list.selection.restorationKey == "30")
    list.selection.restore("99")  // not among the rows: waits, then gives up with the next rows
    list.rows.value = rows([10, 20, 30, 40])
    #expect(list.selectedID == 30)
    list.rows.value = rows([99, 10, 20, 30, 40])
    #expect(list.selectedID == 30, "a pending key is dropped once rows have come without it")
  }
}

@Suite struct ListDiffPositionTests {
  @Test func newIndicesMapEveryOldPosition() {
    let diff = ListDiff(from: rows([1, 2, 3, 4]), to: rows([4, 1, 5, 3]))
    #expect(diff.newIndices() == [1, nil, 3, 0])
    #expect(ListDiff(from: rows([]), to: rows([1])).newIndices() == [])
    #expect(ListDiff(from: rows([1, 2]), to: rows([1, 2])).newIndices() == [0, 1])
  }
}

@MainActor
@Suite struct AlertResponseTests {
  final class Model {}

  let confirm = ScreenAlert.Button("Delete", role: .confirm)
  let cancel = ScreenAlert.Button("Keep", role: .cancel)
  let acknowledge = ScreenAlert.Button.ok

  @Test func theDefaultAndEscapeButtonsFollowTheRoles() {
    let ask = ScreenAlert(title: "Delete?", message: "M", buttons: [cancel, confirm])
    #expect(ask.defaultButton == confirm, "Enter never presses a cancel button when another exists")
    #expect(ask.escapeButton == cancel)
    #expect(ask.button(for: .activate) == confirm && ask.button(for: .cancel) == cancel)
    #expect(ask.button(for: .down) == nil)
    let info = ScreenAlert(title: "Saved", message: "M")
    #expect(info.defaultButton == acknowledge && info.escapeButton == acknowledge)
    let onlyCancel = ScreenAlert(title: "T", message: "M", buttons: [cancel])
    #expect(onlyCancel.defaultButton == cancel && onlyCancel.escapeButton == cancel)
    let noCancel = ScreenAlert(
      title: "T", message: "M", buttons: [confirm, .init("Later", role: .acknowledge)])
    #expect(noCancel.defaultButton == confirm)
    #expect(noCancel.escapeButton?.title == "Later", "no cancel button: Escape presses the last")
  }

  @Test func enterNeverPressesADestructiveButtonUnlessTheAlertSaysSo() throws {
    let delete = ScreenAlert.Button("Delete", role: .destructive)
    let ask = ScreenAlert(title: "Delete “Milk”?", message: "M", buttons: [delete, cancel])
    #expect(ask.defaultButton == cancel, "Enter on Delete / Cancel cancels")
    #expect(ask.button(for: .activate) == cancel && ask.escapeButton == cancel)
    let withSafeChoice = ScreenAlert(
      title: "T", message: "M", buttons: [delete, .init("Archive", role: .confirm), cancel])
    #expect(withSafeChoice.defaultButton?.title == "Archive")
    let onlyDestructive = ScreenAlert(title: "T", message: "M", buttons: [delete])
    #expect(
      onlyDestructive.defaultButton == nil, "no safe button and none named: Enter does nothing")
    #expect(onlyDestructive.escapeButton == nil, "nor Escape")
    #expect(onlyDestructive.button(for: .activate) == nil)
    let named = ScreenAlert(title: "T", message: "M", buttons: [delete, cancel], default: delete)
    #expect(named.defaultButton == delete, "the alert names it: the only way")
    let stranger = ScreenAlert(title: "T", message: "M", buttons: [cancel], default: delete)
    #expect(stranger.preferredDefault == nil && stranger.defaultButton == cancel)
    // The rule survives encoding, and a decoded default that is not a button is dropped.
    let decoded = try JSONDecoder().decode(ScreenAlert.self, from: JSONEncoder().encode(named))
    #expect(decoded == named && decoded.defaultButton == delete)
    let forged = Data(
      #"{"title":"T","message":"M","buttons":[{"title":"Keep","role":"cancel"}],"preferredDefault":{"title":"Delete","role":"destructive"}}"#
        .utf8)
    #expect(try JSONDecoder().decode(ScreenAlert.self, from: forged).defaultButton?.title == "Keep")
  }

  @Test func aStackPressesNothingForEnterOrEscapeWhenNoButtonIsSafe() {
    let lifetime = Lifetime()
    let stack = ScreenStack<Model>()
    stack.setRoot(Screen(Model(), title: "Root"))
    stack.present(
      ScreenAlert(title: "T", message: "M", buttons: [.init("Erase", role: .destructive)]))
    var pressed: [ScreenAlert.Button] = []
    stack.alertResponses.observe { pressed.append($0) }.store(in: lifetime)
    #expect(stack.handleAlertKey(.activate), "the alert takes the key")
    #expect(stack.handleAlertKey(.cancel))
    #expect(stack.alert != nil && pressed.isEmpty, "neither Enter nor Escape erased")
    stack.respond(to: .init("Erase", role: .destructive))
    #expect(pressed.map(\.title) == ["Erase"], "only a deliberate press does")
  }

  @Test func everyButtonIsReachableFromTheKeyboardAndEnterPressesTheOneItIsOn() {
    let erase = ScreenAlert.Button("Erase", role: .destructive)
    let alert = ScreenAlert(title: "Erase?", message: "M", buttons: [erase, cancel])
    let stack = ScreenStack<Model>()
    stack.setRoot(Screen(Model(), title: "Root"))
    var heard: [ScreenAlert.Button] = []
    stack.present(alert) { heard.append($0) }
    #expect(stack.alertFocus == 1, "the keyboard starts on the default: Cancel")
    stack.handleAlertKey(.next)
    #expect(stack.alertFocus == 0, "Tab wraps round to Erase")
    stack.handleAlertKey(.next)
    stack.handleAlertKey(.previous)
    #expect(stack.alertFocus == 0)
    #expect(heard.isEmpty, "moving presses nothing")
    stack.handleAlertKey(.activate)
    #expect(heard == [erase], "Enter presses the button the keyboard is on")
    #expect(stack.alert == nil && stack.alertFocus == nil)
    // Untouched, Enter still presses the default, never the destructive button.
    stack.present(alert) { heard.append($0) }
    stack.handleAlertKey(.activate)
    #expect(heard == [erase, cancel])
    // An alert of destructive buttons only, with no default: Enter waits for a move.
    let wipe = ScreenAlert.Button("Wipe", role: .destructive)
    stack.present(ScreenAlert(title: "T", message: "M", buttons: [erase, wipe])) {
      heard.append($0)
    }
    stack.handleAlertKey(.activate)
    #expect(heard.count == 2 && stack.alert != nil)
    stack.handleAlertKey(.next)
    stack.handleAlertKey(.activate)
    #expect(heard.last == wipe)
  }

  @Test func eachRoleReachesThePresenterAndDismissesTheAlert() {
    for (button, key) in [(confirm, ScreenKey.activate), (cancel, .cancel)] {
      let stack = ScreenStack<Model>()
      var heard: [ScreenAlert.Button] = []
      stack.present(ScreenAlert(title: "Delete?", message: "M", buttons: [confirm, cancel])) {
        heard.append($0)
      }
      #expect(stack.handleAlertKey(.down), "an alert takes every key")
      #expect(heard.isEmpty && stack.alert != nil, "but only Enter and Escape press")
      #expect(stack.handleAlertKey(key))
      #expect(heard == [button])
      #expect(stack.alert == nil)
      #expect(stack.handleAlertKey(key) == false, "no alert: the key is not the alert's")
    }
  }

  @Test func theAcknowledgeRoleAndClicksByPosition() {
    let stack = ScreenStack<Model>()
    var heard: [ScreenAlert.Button] = []
    stack.present(ScreenAlert(title: "Saved", message: "M")) { heard.append($0) }
    #expect(stack.respond(toButtonAt: 3) == false, "no such button: nothing changes")
    #expect(stack.alert != nil)
    #expect(stack.respond(toButtonAt: 0))
    #expect(heard == [acknowledge] && stack.alert == nil)
    // A button the alert shown does not have is refused.
    stack.present(ScreenAlert(title: "Saved", message: "M")) { heard.append($0) }
    #expect(stack.respond(to: confirm) == false)
    #expect(heard == [acknowledge] && stack.alert != nil)
  }

  @Test func anAlertDismissedOrReplacedGetsNoResponse() {
    let stack = ScreenStack<Model>()
    var heard: [String] = []
    stack.present(ScreenAlert(title: "First", message: "M")) { heard.append("first \($0.title)") }
    stack.present(ScreenAlert(title: "Second", message: "M")) { heard.append("second \($0.title)") }
    stack.handleAlertKey(.activate)
    #expect(heard == ["second OK"])
    stack.present(ScreenAlert(title: "Third", message: "M")) { heard.append("third \($0.title)") }
    stack.dismissAlert()
    stack.present(ScreenAlert(title: "Plain", message: "M"))  // no handler
    stack.handleAlertKey(.cancel)
    #expect(heard == ["second OK"])
    #expect(stack.alert == nil)
  }

  @Test func aFlowHearsTheResponseThroughARecordingNavigator() {
    let navigator = RecordingNavigator<Model>()
    var deleted = false
    navigator.present(ScreenAlert(title: "Delete?", message: "M", buttons: [cancel, confirm])) {
      deleted = $0.role == .confirm
    }
    #expect(navigator.respond(to: confirm))
    #expect(deleted)
    navigator.assertEvents([
      .present(ScreenAlert(title: "Delete?", message: "M", buttons: [cancel, confirm]))
    ])
  }
}
