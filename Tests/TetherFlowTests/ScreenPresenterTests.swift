import Foundation
import Testing
import Tether
import TetherFlow
import TetherTesting

/// A view that keeps a selection and may take keys: what a view layer's list is.
@MainActor
private final class PickerView: ScreenRestorable {
  let name: String
  var selected: String?
  var takes: Set<ScreenKey> = []
  private(set) var received: [ScreenKey] = []

  init(_ name: String) { self.name = name }

  var restorationKey: String? { selected }
  func restore(_ key: String) { selected = key }

  func handle(_ key: ScreenKey) -> Bool {
    guard takes.contains(key) else { return false }
    received.append(key)
    return true
  }
}

@MainActor
@Suite struct ScreenPresenterTests {
  private func presented() -> (ScreenStack<String>, ScreenPresenter<PickerView>) {
    let stack = ScreenStack<String>()
    let presenter = ScreenPresenter(stack: stack) { PickerView($0.destination) }
    stack.setRoot(Screen("home", title: "Home"))
    stack.push(Screen("list", title: "List", path: ["list"]))
    return (stack, presenter)
  }

  @Test func anAlertTakesEveryKeyThenTheTopViewThenBack() throws {
    let (stack, presenter) = presented()
    let top = try #require(presenter.topView)
    top.takes = [.down]
    var pressed: [String] = []
    stack.present(
      ScreenAlert(
        title: "Sure?", message: "",
        buttons: [.init("Go", role: .confirm), .init("Cancel", role: .cancel)])
    ) { pressed.append($0.title) }
    #expect(presenter.route(.down, isBack: false) { $0.handle(.down) } == .alert)
    #expect(top.received.isEmpty, "the view behind an alert gets nothing")
    #expect(stack.alert != nil, "↓ presses no button")
    #expect(presenter.route(.cancel, isBack: true) { $0.handle(.cancel) } == .alert)
    #expect(pressed == ["Cancel"], "Escape presses the cancel button, it does not go back")
    #expect(stack.screens.count == 2)

    #expect(presenter.route(.down) { $0.handle(.down) } == .view)
    #expect(top.received == [.down])
    #expect(presenter.route(nil, isBack: true) { _ in false } == .back)
    #expect(stack.path.description == "/")
    #expect(presenter.route(nil, isBack: true) { _ in false } == .unhandled, "the root stays")
  }

  @Test func aSnapshotTravelsAsJSONAndRestoresOnARebuiltStack() throws {
    let (stack, presenter) = presented()
    presenter.orderedViews.last?.selected = "42"
    enum Action: Codable, Equatable { case remove(id: Int) }
    stack.present(
      ScreenAlert(
        title: "Remove?", message: "",
        buttons: [
          .init("Remove", role: .confirm, action: Action.remove(id: 42)),
          .init("Cancel", role: .cancel),
        ]))
    let snapshot = presenter.snapshot()
    #expect(snapshot.path == "/list")
    #expect(snapshot.selections == [nil, "42"])

    let data = try JSONEncoder().encode(snapshot)
    let decoded = try JSONDecoder().decode(ScreenStackSnapshot.self, from: data)
    #expect(decoded == snapshot)

    // Elsewhere: the stack rebuilt from the path, then the rest restored.
    let (rebuilt, again) = presented()
    again.restore(decoded)
    #expect(again.orderedViews.last?.selected == "42")
    let restored = try #require(rebuilt.alert)
    #expect(restored.buttons.first?.action(as: Action.self) == .remove(id: 42))
  }

  @Test func aDecodedAlertAlwaysHasAButton() throws {
    let json = #"{"title":"Hi","message":"there","buttons":[]}"#
    let alert = try JSONDecoder().decode(ScreenAlert.self, from: Data(json.utf8))
    #expect(alert.buttons == [.ok])
  }

  @Test func releaseLetsGoOfTheStacksScreens() async {
    await withLeakTracking { leaks in
      let stack = leaks.track(ScreenStack<String>())
      let presenter = ScreenPresenter(stack: stack) { PickerView($0.destination) }
      stack.setRoot(leaks.track(Screen("home", title: "Home")))
      presenter.release()
      #expect(presenter.titles.isEmpty)
      #expect(presenter.topView == nil)
    }
  }
}

@MainActor
@Suite struct PathTailTests {
  final class Model {}

  @Test func aTailFollowsTheScreensStateAndBackOrForwardSetsIt() {
    let stack = ScreenStack<Model>()
    let filter = MutableProperty<[String]>([])
    stack.setRoot(Screen(Model(), title: "Home"))
    stack.push(Screen(Model(), title: "Todos", path: ["todos"], pathTail: filter))
    #expect(stack.path.description == "/todos")
    filter.value = ["active"]
    #expect(stack.path.description == "/todos/active", "the address follows the filter")
    // Back to /todos: the same screen, another tail.
    #expect(stack.show(ScreenPath(parsing: "/todos")))
    #expect(filter.value == [] && stack.screens.count == 2)
    #expect(stack.show(ScreenPath(parsing: "/todos/completed")))
    #expect(filter.value == ["completed"])
    #expect(stack.show(ScreenPath(parsing: "/")), "the root")
    #expect(stack.screens.count == 1)
    #expect(!stack.show(ScreenPath(parsing: "/todos")), "gone: a flow must open it")
  }

  @Test func aPathThroughADeeperScreenIsNotATail() {
    let stack = ScreenStack<Model>()
    let tail = MutableProperty<[String]>([])
    stack.setRoot(Screen(Model(), title: "Home"))
    stack.push(Screen(Model(), title: "List", path: ["list"], pathTail: tail))
    stack.push(Screen(Model(), title: "Item", path: ["item", "7"]))
    #expect(stack.path.description == "/list/item/7")
    #expect(stack.show(ScreenPath(parsing: "/list/item/7")))
    #expect(stack.screens.count == 3 && tail.value == [])
    #expect(!stack.show(ScreenPath(parsing: "/other")))
  }
}
