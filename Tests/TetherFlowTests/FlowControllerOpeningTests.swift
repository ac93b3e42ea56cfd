import Testing
import Tether
import TetherFlow
import TetherTesting

/// A two-level flow: a list at the root, `item/<n>` for n in 1...3 on top of it.
@MainActor
private final class ItemsFlow: FlowController {
  enum Destination { case list, item(Int) }

  func start(on navigator: any Navigator<Destination>) -> Screen<Destination> {
    Screen(.list, title: "Items", owner: self)
  }

  func restore(_ path: ArraySlice<String>, on navigator: any Navigator<Destination>)
    async throws(NavigationError)
  {
    guard let first = path.first else { return }
    guard first == "item", path.count == 2,
      let number = Int(path[path.index(after: path.startIndex)])
    else { throw .unknownComponent(path.joined(separator: "/")) }
    guard (1...3).contains(number) else {
      throw .unavailable("item/\(number)", reason: "There is no item \(number).")
    }
    navigator.push(Screen(.item(number), title: "Item \(number)", path: ["item", "\(number)"]))
  }
}

@MainActor
@Suite struct FlowControllerOpeningTests {
  @Test func startFlowShowsTheFirstScreenAsTheOnlyOneAndDismissesAnAlert() {
    let navigator = RecordingNavigator<ItemsFlow.Destination>()
    let flow = ItemsFlow()
    flow.startFlow(on: navigator)
    navigator.push(Screen(.item(2), title: "Item 2", path: ["item", "2"]))
    navigator.present(ScreenAlert(title: "Hi", message: "there"))
    flow.startFlow(on: navigator)
    navigator.assertEvents([
      .setRoot("Items"), .push("Item 2"), .present(ScreenAlert(title: "Hi", message: "there")),
      .setRoot("Items"),
    ])
    #expect(navigator.screens.map(\.title) == ["Items"])
    #expect(navigator.alert == nil)
  }

  @Test func openFollowsTheWholePath() async throws {
    let navigator = RecordingNavigator<ItemsFlow.Destination>()
    try await ItemsFlow().open(ScreenPath(parsing: "/item/2"), on: navigator)
    navigator.assertEvents([.setRoot("Items"), .push("Item 2")])
    #expect(navigator.path == "/item/2")
  }

  @Test func openThrowsWhereThePathStopsAndKeepsTheScreensBeforeIt() async {
    let navigator = RecordingNavigator<ItemsFlow.Destination>()
    await #expect(throws: NavigationError.unavailable("item/7", reason: "There is no item 7.")) {
      try await ItemsFlow().open(ScreenPath(parsing: "/item/7"), on: navigator)
    }
    #expect(navigator.path == "/")
    #expect(navigator.alert == nil)
  }

  @Test func openPresentingFailureShowsTheNearestScreenWithAnAlert() async {
    let navigator = RecordingNavigator<ItemsFlow.Destination>()
    let error = await ItemsFlow().openPresentingFailure(
      ScreenPath(parsing: "/shelf/9"), on: navigator)
    #expect(error == .unknownComponent("shelf/9"))
    #expect(navigator.path == "/")
    #expect(
      navigator.alert
        == ScreenAlert(
          title: "Page not found", message: "/shelf/9: There is no page called “shelf/9” here."))
  }

  @Test func openPresentingFailureOfAValidPathShowsNoAlert() async {
    let navigator = RecordingNavigator<ItemsFlow.Destination>()
    let error = await ItemsFlow().openPresentingFailure(ScreenPath(["item", "3"]), on: navigator)
    #expect(error == nil)
    #expect(navigator.path == "/item/3")
    navigator.assertEvents([.setRoot("Items"), .push("Item 3")])
  }
}
