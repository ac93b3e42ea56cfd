import Testing
import Tether
import TetherFlow
import TetherTesting

@MainActor
private final class Model {
  let name: String
  init(_ name: String) { self.name = name }
}

@MainActor
private func screen(_ name: String, path: [String] = [], owner: AnyObject? = nil) -> Screen<Model> {
  Screen(Model(name), title: name, path: path, owner: owner)
}

@MainActor
@Suite struct ScreenStackTests {
  @Test func aPathIsWrittenAsTheURLPathItParsesFrom() {
    let id = 230_200_335
    let literal: ScreenPath = "/gallery/photo/\(id)"
    #expect(literal == ScreenPath(["gallery", "photo", "230200335"]))
    let encoded: ScreenPath = "/entry/greeting/Ada%20L."
    #expect(encoded.components == ["entry", "greeting", "Ada L."])
    #expect(ScreenPath() == "/")
  }

  @Test func pushAndPopChangeTheScreensAndThePath() {
    let stack = ScreenStack<Model>()
    let titles = stack.$screens.map { $0.map(\.title) }.record()
    let paths = stack.$path.map(\.description).record()
    stack.setRoot(screen("Home"))
    stack.push(screen("Gallery", path: ["gallery"]))
    stack.push(screen("Photo", path: ["photo", "230200335"]))
    stack.pop()
    #expect(
      titles.values == [
        [], ["Home"], ["Home", "Gallery"], ["Home", "Gallery", "Photo"], ["Home", "Gallery"],
      ])
    // The path changes only when it does: setting the root at "/" is no change.
    #expect(paths.values == ["/", "/gallery", "/gallery/photo/230200335", "/gallery"])
    #expect(stack.topScreen?.title == "Gallery")
  }

  @Test func theRootIsNeverPopped() {
    let stack = ScreenStack<Model>()
    stack.pop()
    #expect(stack.screens.isEmpty)
    stack.setRoot(screen("Home"))
    let changes = stack.$screens.changes.record()
    stack.pop()
    stack.pop(toDepth: 0)
    #expect(stack.screens.map(\.title) == ["Home"])
    #expect(changes.values.isEmpty, "popping the root alone changes nothing")
  }

  @Test func popToDepthRemovesSeveralScreensInOneChange() {
    let stack = ScreenStack<Model>()
    stack.setRoot(screen("Home"))
    for name in ["A", "B", "C"] { stack.push(screen(name, path: [name.lowercased()])) }
    let changes = stack.$screens.changes.record()
    stack.pop(toDepth: 2)
    #expect(changes.values.map { $0.map(\.title) } == [["Home", "A"]])
    stack.pop(toDepth: 5)
    #expect(changes.values.count == 1)
    #expect(stack.path == ScreenPath(["a"]))
  }

  @Test func alertsArePresentedReplacedAndDismissed() {
    let stack = ScreenStack<Model>()
    stack.setRoot(screen("Home"))
    let alerts = stack.$alert.record()
    let first = ScreenAlert(title: "Not for sale", message: "“Sunset” is not for sale.")
    let second = ScreenAlert(
      title: "Discard?", message: "Changes will be lost.",
      buttons: [.init("Cancel", role: .cancel), .init("Discard", role: .confirm)])
    stack.present(first)
    stack.present(second)
    #expect(second.escapeButton == .init("Cancel", role: .cancel))
    stack.dismissAlert()
    stack.dismissAlert()
    #expect(alerts.values == [nil, first, second, nil])
    #expect(first.buttons == [.ok] && first.escapeButton == .ok)
    #expect(ScreenAlert(title: "T", message: "M", buttons: []).buttons == [.ok])
  }

  /// Back with an alert up closes the alert first, as Escape does, and leaves the screens:
  /// before, Back popped the screens under the alert, and its Remove then acted on the list.
  @Test func backWithAnAlertUpClosesTheAlertFirstAndKeepsTheScreens() {
    let stack = ScreenStack<Model>()
    stack.setRoot(screen("Home"))
    stack.push(screen("Courses", path: ["courses"]))
    stack.push(screen("Course", path: ["2"]))
    var answers: [ScreenAlert.Button] = []
    stack.present(
      ScreenAlert(
        title: "Remove?", message: "The course goes.",
        buttons: [.init("Cancel", role: .cancel), .init("Remove", role: .destructive)]),
      onResponse: { answers.append($0) })
    #expect(stack.show("/courses"))
    #expect(stack.alert == nil)
    #expect(answers == [.init("Cancel", role: .cancel)], "its cancel button answered")
    #expect(stack.screens.map(\.title) == ["Home", "Courses", "Course"])
    // With the alert gone, Back goes back.
    #expect(stack.show("/courses"))
    #expect(stack.screens.map(\.title) == ["Home", "Courses"])
  }

  /// An alert's buttons never act on a screen that is gone: a pop under it dismisses it, and
  /// its presenter hears nothing.
  @Test func aPopDismissesTheAlertAndItsButtonsActOnNothing() {
    let stack = ScreenStack<Model>()
    stack.setRoot(screen("Home"))
    stack.push(screen("Course", path: ["course"]))
    var answers: [ScreenAlert.Button] = []
    let remove = ScreenAlert.Button("Remove", role: .destructive)
    stack.present(
      ScreenAlert(
        title: "Remove?", message: "M", buttons: [.init("Cancel", role: .cancel), remove]),
      onResponse: { answers.append($0) })
    stack.pop()
    #expect(stack.alert == nil)
    #expect(!stack.respond(to: remove), "no alert took the button")
    #expect(answers.isEmpty)
    stack.push(screen("Course", path: ["course"]))
    stack.push(screen("Detail", path: ["detail"]))
    stack.present(ScreenAlert(title: "T", message: "M"), onResponse: { answers.append($0) })
    stack.pop(toDepth: 1)
    #expect(stack.alert == nil && answers.isEmpty)
  }

  @Test func settingARootDismissesTheAlert() {
    let stack = ScreenStack<Model>()
    stack.setRoot(screen("Home"))
    stack.present(ScreenAlert(title: "T", message: "M"))
    stack.setRoot(screen("Other"))
    #expect(stack.alert == nil)
  }

  @Test func poppedScreensAndTheirOwnersAreReleased() async {
    let stack = ScreenStack<Model>()
    stack.setRoot(screen("Home"))
    await withLeakTracking { leaks in
      let flow = leaks.track(Model("flow"))
      let first = leaks.track(screen("Gallery", path: ["gallery"], owner: flow))
      leaks.track(first.destination)
      stack.push(first)
      stack.push(leaks.track(screen("Photo", path: ["photo", "1"])))
      stack.pop(toDepth: 1)
    }
    await withLeakTracking { leaks in
      stack.push(leaks.track(screen("Gallery", path: ["gallery"])))
      stack.setRoot(screen("Home again"))
    }
  }

  @Test func recordingNavigatorRecordsOnTopOfAStack() {
    let navigator = RecordingNavigator<Model>()
    navigator.setRoot(screen("Home"))
    navigator.push(screen("Courses", path: ["courses"]))
    navigator.present(ScreenAlert(title: "T", message: "M"))
    navigator.dismissAlert()
    navigator.pop()
    navigator.pop()
    navigator.assertEvents([
      .setRoot("Home"), .push("Courses"), .present(ScreenAlert(title: "T", message: "M")),
      .dismissAlert, .pop, .pop,
    ])
    #expect(navigator.stack.screens.map(\.title) == ["Home"])
    #expect(navigator.path == "/")
  }
}

@Suite struct ScreenPathTests {
  @Test func parsesAndPrintsURLPaths() {
    let path = ScreenPath(parsing: "/gallery/photo/230200335")
    #expect(path.components == ["gallery", "photo", "230200335"])
    #expect(path.description == "/gallery/photo/230200335")
    #expect(ScreenPath().description == "/")
    #expect(ScreenPath(parsing: "").components == [])
    #expect(ScreenPath(parsing: "//gallery///photo/").components == ["gallery", "photo"])
    #expect(ScreenPath(parsing: "/gallery?x=1#top").components == ["gallery"])
  }

  @Test func anyTextRoundTripsAsOneComponent() {
    for text in ["Ada Lovelace", "李娜", "a/b", "100%", "?#&=+", "Алексей", "👩‍💻", "-._~"] {
      let path = ScreenPath(["entry", "greeting", text])
      #expect(!path.description.dropFirst().contains(where: { $0 == " " || $0 == "?" }))
      #expect(ScreenPath(parsing: path.description) == path, "\(text) → \(path)")
    }
    #expect(ScreenPath(["Ada Lovelace"]).description == "/Ada%20Lovelace")
  }

  @Test func malformedEscapesAreKeptAsWritten() {
    #expect(ScreenPath(parsing: "/a%2").components == ["a%2"])
    #expect(ScreenPath(parsing: "/a%zz").components == ["a%zz"])
    #expect(ScreenPath(parsing: "/%FF%FE").components == ["%FF%FE"])
  }
}

@MainActor
@Suite struct RecordingNavigatorAssertionTests {
  @Test func assertEventsFailsOnADifferentHistory() {
    let navigator = RecordingNavigator<Model>()
    navigator.setRoot(screen("a"))
    withKnownIssue {
      navigator.assertEvents([.setRoot("b")])
    } matching: { issue in
      String(describing: issue).contains("navigation was [setRoot(a)], not [setRoot(b)]")
    }
  }
}

@MainActor
@Suite struct ScreenViewCacheTests {
  final class View {
    let title: String
    init(_ title: String) { self.title = title }
  }

  @Test func oneViewPerScreenMadeOnceAppearingOnceAndDroppedWhenItLeaves() async {
    let stack = ScreenStack<Model>()
    var made: [String] = []
    var appeared: [String] = []
    func appearing(_ name: String) -> Screen<Model> {
      Screen(Model(name), title: name, onAppear: { appeared.append(name) })
    }
    let cache = ScreenViewCache<View>(stack: stack) { screen in
      made.append(screen.title)
      return View(screen.title)
    }
    stack.setRoot(appearing("Home"))
    stack.push(appearing("Detail"))
    stack.present(ScreenAlert(title: "T", message: "M"))  // no screen change: nothing made
    #expect(made == ["Home", "Detail"])
    #expect(cache.topView?.title == "Detail")
    #expect(await cache.appearancesFinished())
    #expect(appeared.sorted() == ["Detail", "Home"])
    #expect(cache.count == 2)
    await withLeakTracking { leaks in
      if let detail = cache.topView { leaks.track(detail) }
      stack.pop()
    }
    #expect(cache.topView?.title == "Home")
    #expect(await cache.appearancesFinished())
    #expect(appeared.count == 2, "coming back to a screen does not appear it again")
    cache.removeAll()
    stack.push(appearing("After"))
    #expect(cache.count == 0 && made == ["Home", "Detail"])
  }

  @Test func appearancesCanBeAwaitedAndAStuckOneTimesOut() async {
    let stack = ScreenStack<Model>()
    let cache = ScreenViewCache<View>(stack: stack) { View($0.title) }
    let (gate, opener) = AsyncStream.makeStream(of: Void.self)
    var loaded = false
    stack.setRoot(
      Screen(
        Model("List"), title: "List",
        onAppear: {
          for await _ in gate { break }
          loaded = true
        }))
    // The load waits on the gate: the wait gives up at its timeout, and says so.
    #expect(await cache.appearancesFinished(timeout: .zero) == false)
    #expect(await cache.appearancesFinished(timeout: .milliseconds(20)) == false)
    #expect(!loaded)
    opener.yield()
    #expect(await cache.appearancesFinished(timeout: .seconds(10)))
    #expect(loaded, "the wait returns only once the appearance input has finished")
    // A screen pushed later is waited for too.
    var detailLoaded = false
    stack.push(
      Screen(
        Model("Detail"), title: "Detail",
        onAppear: {
          await Task.yield()
          detailLoaded = true
        }))
    #expect(await cache.appearancesFinished(timeout: .seconds(10)))
    #expect(detailLoaded)
  }
}
