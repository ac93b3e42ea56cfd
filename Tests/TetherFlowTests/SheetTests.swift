import Foundation
import Testing
import Tether
import TetherFlow
import TetherTesting

@MainActor
private final class Page {
  let name: String
  let done = Signal<String>.pipe()
  var keys: [ScreenKey] = []
  init(_ name: String) { self.name = name }
}

@MainActor
private func screen(_ name: String, path: [String] = []) -> Screen<Page> {
  Screen(Page(name), title: name, path: path)
}

/// A sheet is state: a screen over the top one, in the path, taking every gesture until it goes,
/// and a flow awaits its typed result.
@MainActor
@Suite struct SheetTests {
  @Test func aFlowAwaitsTheSheetsResultAndTheSheetGoesWithIt() async {
    let navigator = RecordingNavigator<Page>()
    navigator.setRoot(screen("Home"))
    navigator.push(screen("Greeting", path: ["greeting"]))
    let sheet = screen("Salutation", path: ["salutation"])
    let page = sheet.destination
    let waiting = Task { await navigator.presentSheet(sheet, until: page.done.output) }
    await expectEventually { navigator.sheet != nil }
    #expect(navigator.path == "/greeting/salutation")
    page.done.input.send("Howdy")
    #expect(await waiting.value == "Howdy")
    #expect(navigator.sheet == nil)
    #expect(navigator.path == "/greeting")
    navigator.assertEvents([
      .setRoot("Home"), .push("Greeting"), .presentSheet("Salutation"), .dismissSheet,
    ])
  }

  @Test func aSheetClosedWithoutAResultGivesNil() async {
    let navigator = RecordingNavigator<Page>()
    navigator.setRoot(screen("Home"))
    let sheet = screen("Picker", path: ["pick"])
    let waiting = Task { await navigator.presentSheet(sheet, until: sheet.destination.done.output) }
    await expectEventually { navigator.sheet != nil }
    navigator.closeSheet()
    #expect(await waiting.value == nil)
    // A value sent after the sheet went is nobody's answer.
    sheet.destination.done.input.send("late")
    #expect(navigator.sheet == nil && navigator.path == "/")
  }

  @Test func aPushAPopOrANewRootDismissesTheSheet() {
    let stack = ScreenStack<Page>()
    stack.setRoot(screen("Home"))
    var dismissals = 0
    for change in 0..<3 {
      stack.push(screen("Detail", path: ["detail"]))
      stack.presentSheet(screen("Sheet", path: ["sheet"])) { dismissals += 1 }
      #expect(stack.path.description == "/detail/sheet")
      switch change {
      case 0: stack.push(screen("More", path: ["more"]))
      case 1: stack.pop()
      default: stack.setRoot(screen("Home"))
      }
      #expect(stack.sheet == nil)
      #expect(dismissals == change + 1)
      stack.pop(toDepth: 1)
    }
  }

  @Test func aSheetShownReplacesTheOneBeforeWhichHearsItWent() {
    let stack = ScreenStack<Page>()
    stack.setRoot(screen("Home"))
    var heard: [String] = []
    stack.presentSheet(screen("A", path: ["a"])) { heard.append("A") }
    stack.presentSheet(screen("B", path: ["b"])) { heard.append("B") }
    #expect(heard == ["A"])
    #expect(stack.sheet?.title == "B" && stack.path.description == "/b")
  }

  @Test func backToThePathUnderTheSheetClosesIt() {
    let stack = ScreenStack<Page>()
    stack.setRoot(screen("Home"))
    stack.push(screen("Greeting", path: ["greeting"]))
    stack.presentSheet(screen("Picker", path: ["pick"])) {}
    #expect(stack.show(ScreenPath(parsing: "/greeting/pick")))
    #expect(stack.sheet != nil, "its own path keeps it")
    #expect(stack.show(ScreenPath(parsing: "/greeting")))
    #expect(stack.sheet == nil)
    #expect(stack.screens.count == 2, "the screen under it stays")
  }

  @Test func aSheetTakesEveryKeyAndEscapeClosesIt() {
    let stack = ScreenStack<Page>()
    stack.setRoot(screen("Home"))
    stack.push(screen("Detail", path: ["detail"]))
    let presenter = ScreenPresenter(stack: stack) { $0.destination }
    stack.presentSheet(screen("Sheet", path: ["sheet"])) {}
    let handles: (Page) -> Bool = { page in
      page.keys.append(.down)
      return page.name == "Sheet"
    }
    #expect(presenter.route(.down, toTopView: handles) == .sheet)
    #expect(presenter.sheetView?.keys == [.down])
    #expect(presenter.topView?.keys == [], "the screen under the sheet got no key")
    // A back key the sheet's view leaves alone closes the sheet, and pops nothing.
    #expect(presenter.route(.cancel, isBack: true, toTopView: { _ in false }) == .sheet)
    #expect(stack.sheet == nil && stack.screens.count == 2)
    #expect(presenter.sheetView == nil)
  }

  @Test func anAlertOverASheetTakesTheKeysFirst() {
    let stack = ScreenStack<Page>()
    stack.setRoot(screen("Home"))
    let presenter = ScreenPresenter(stack: stack) { $0.destination }
    stack.presentSheet(screen("Sheet")) {}
    stack.present(ScreenAlert(title: "Sure?", message: "", buttons: [.init("OK")]))
    #expect(presenter.route(.cancel, isBack: true, toTopView: { _ in true }) == .alert)
    #expect(stack.sheet != nil, "the alert went, the sheet stays")
  }

  @Test func aSessionThatEndsWithASheetOpenReleasesTheWaitingFlow() async {
    let stack = ScreenStack<Page>()
    stack.setRoot(screen("Home"))
    let presenter = ScreenPresenter(stack: stack) { $0.destination }
    let sheet = screen("Sheet")
    let waiting = Task { await stack.presentSheet(sheet, until: sheet.destination.done.output) }
    await expectEventually { stack.sheet != nil }
    presenter.release()
    #expect(await waiting.value == nil)
  }
}

/// A confirmation dialog is an alert drawn as a list of actions: the same keys' rule, with ↑ and
/// ↓ moving too, and its style carried wherever the alert goes.
@MainActor
@Suite struct ConfirmationDialogTests {
  private let move = ScreenAlert.Button("Move to the top", role: .confirm)
  private let remove = ScreenAlert.Button("Remove from list", role: .destructive)
  private let cancel = ScreenAlert.Button("Cancel", role: .cancel)

  @Test func itsActionsAreReachedWithTheArrowsAndEnterPressesTheOneFocused() {
    let stack = ScreenStack<Page>()
    stack.setRoot(screen("Home"))
    var pressed: [String] = []
    let dialog = ScreenAlert(
      title: "Course", message: "", buttons: [move, remove, cancel], style: .confirmationDialog)
    stack.present(dialog) { pressed.append($0.title) }
    #expect(stack.alertFocus == 0, "it starts on the default: Move to the top")
    stack.handleAlertKey(.down)
    #expect(stack.alertFocus == 1)
    stack.handleAlertKey(.up)
    stack.handleAlertKey(.up)
    #expect(stack.alertFocus == 2, "↑ wraps to the last")
    stack.handleAlertKey(.down)
    stack.handleAlertKey(.down)
    stack.handleAlertKey(.activate)
    #expect(pressed == ["Remove from list"], "the destructive action, pressed from the keyboard")
  }

  @Test func itsStyleSurvivesCodingAndAnOlderEncodingIsAnAlert() throws {
    let dialog = ScreenAlert(
      title: "Course", message: "", buttons: [move, cancel], style: .confirmationDialog)
    let data = try JSONEncoder().encode(dialog)
    #expect(try JSONDecoder().decode(ScreenAlert.self, from: data) == dialog)
    let older = Data(
      #"{"title":"T","message":"M","buttons":[{"title":"OK","role":"acknowledge"}]}"#.utf8)
    #expect(try JSONDecoder().decode(ScreenAlert.self, from: older).style == .alert)
  }
}
