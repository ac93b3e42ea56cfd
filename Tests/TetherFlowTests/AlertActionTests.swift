import Foundation
import Testing
import Tether
import TetherFlow
import TetherTesting

private enum CourseAction: Codable, Equatable {
  case remove(id: Int)
  case archive
}

private enum OtherAction: Codable, Equatable {
  case share(url: String)
}

@MainActor
@Suite struct AlertActionTests {
  @Test func aButtonCarriesItsActionAsComparableData() {
    let remove = ScreenAlert.Button("Remove", role: .confirm, action: CourseAction.remove(id: 2))
    #expect(remove.action(as: CourseAction.self) == .remove(id: 2))
    #expect(
      remove == ScreenAlert.Button("Remove", role: .confirm, action: CourseAction.remove(id: 2)))
    #expect(
      remove != ScreenAlert.Button("Remove", role: .confirm, action: CourseAction.remove(id: 3)))
    #expect(remove.action(as: OtherAction.self) == nil, "another flow's type does not read it")
    #expect(ScreenAlert.Button("OK").action(as: CourseAction.self) == nil)
    #expect(
      ScreenAlert.Button("Archive", action: CourseAction.archive).payload
        == ScreenAlert.Button("Archive", payload: #"{"archive":{}}"#).payload)
  }

  @Test func aFlowHearsItsOwnActionsAsValuesAndNothingForOtherButtons() {
    let navigator = RecordingNavigator<String>()
    navigator.setRoot(Screen("root", title: "Root"))
    let actions = navigator.alertActions(CourseAction.self).record()
    let others = navigator.alertActions(OtherAction.self).record()
    let remove = ScreenAlert.Button("Remove", role: .confirm, action: CourseAction.remove(id: 2))
    let share = ScreenAlert.Button("Share", action: OtherAction.share(url: "https://a.example"))
    let cancel = ScreenAlert.Button("Cancel", role: .cancel)
    let buttons = [remove, share, cancel]
    for pressed in [remove, cancel, share, remove] {
      navigator.present(ScreenAlert(title: "Course", message: "", buttons: buttons))
      #expect(navigator.stack.respond(to: pressed))
    }
    #expect(actions.values == [.remove(id: 2), .remove(id: 2)])
    #expect(others.values == [.share(url: "https://a.example")])
  }

  @Test func aPressedButtonReachesOnResponseThenAlertResponses() {
    let stack = ScreenStack<String>()
    stack.setRoot(Screen("root", title: "Root"))
    var order: [String] = []
    let token = stack.alertResponses.observe { button in
      order.append("responses \(button.action(as: CourseAction.self).map { "\($0)" } ?? "none")")
    }
    let remove = ScreenAlert.Button("Remove", role: .confirm, action: CourseAction.remove(id: 2))
    stack.present(
      ScreenAlert(title: "Remove?", message: "", buttons: [remove, .init("Cancel", role: .cancel)])
    ) { _ in order.append("onResponse") }
    #expect(stack.respond(to: remove))
    #expect(order == ["onResponse", "responses remove(id: 2)"])
    #expect(stack.alert == nil)
    _ = token
  }

  @Test func anAlertWithoutAClosureStillReachesTheFlowWithItsMeaning() throws {
    // As a web session restores it on another server: the value alone, no `onResponse`.
    let navigator = RecordingNavigator<String>()
    navigator.setRoot(Screen("root", title: "Root"))
    let heard = Signal<CourseAction>.pipe()
    let actions = heard.output.record()
    let token = navigator.alertResponses.observe { button in
      if let action = button.action(as: CourseAction.self) { heard.input.send(action) }
    }
    let restored = ScreenAlert(
      title: "Remove “Swift”?", message: "",
      buttons: [
        ScreenAlert.Button("Remove", role: .confirm, payload: #"{"remove":{"id":2}}"#),
        ScreenAlert.Button("Cancel", role: .cancel),
      ])
    navigator.present(restored)
    #expect(navigator.respond(to: try #require(restored.buttons.last)))
    navigator.present(restored)
    #expect(navigator.respond(to: try #require(restored.buttons.first)))
    #expect(actions.values == [.remove(id: 2)], "Cancel asks nothing; Remove keeps its id")
    _ = token
  }
}
