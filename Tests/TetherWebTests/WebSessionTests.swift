import Testing
import Tether
import TetherFlow
import TetherTesting

@_spi(HandBuilt) @testable import TetherWeb

/// A two-screen app: a list of fruit; choosing one pushes its page; "Cherry" is not available.
@MainActor
final class FruitList {
  let rows = MutableProperty([
    Fruit(id: 1, name: "Apple"), Fruit(id: 2, name: "Banana"), Fruit(id: 3, name: "Cherry"),
  ])
  let chosen = Signal<Fruit>.pipe()
  var reached: [Int] = []

  func userSelected(row: Int) {
    guard rows.value.indices.contains(row) else { return }
    chosen.input.send(rows.value[row])
  }
}

struct Fruit: Identifiable, Equatable, Sendable {
  let id: Int
  var name: String
}

@MainActor
enum FruitDestination {
  case list(FruitList)
  case fruit(Fruit)
}

@MainActor
final class FruitApp {
  let stack = ScreenStack<FruitDestination>()
  let list = FruitList()
  private let lifetime = Lifetime()

  init() {
    stack.setRoot(Screen(.list(list), title: "Fruit"))
    list.chosen.output.observe { [weak stack] fruit in
      if fruit.name == "Cherry" {
        stack?.present(ScreenAlert(title: "Sold out", message: "No cherries today"))
      } else {
        stack?.push(Screen(.fruit(fruit), title: fruit.name, path: ["fruit", "\(fruit.id)"]))
      }
    }
    .store(in: lifetime)
  }

  func open(_ path: ScreenPath) {
    stack.setRoot(Screen(.list(list), title: "Fruit"))
    if path.components.first == "fruit", let id = path.components.last.flatMap({ Int($0) }),
      let fruit = list.rows.value.first(where: { $0.id == id })
    {
      stack.push(Screen(.fruit(fruit), title: fruit.name, path: ["fruit", "\(fruit.id)"]))
    }
  }

  func session(id: String = "s", signer: WebResumeSigner? = nil) -> WebSession {
    let list = self.list
    return WebSession(
      id: id, stack: stack, appTitle: "Fruit app", resumeSigner: signer,
      open: { [weak self] path in self?.open(path) },
      makeWebView: { screen in
        switch screen.destination {
        case .list:
          ListView(
            rows: list.rows, format: { [$0.name] },
            onSelectionChange: { list.reached.append($0) }, onChoose: { list.userSelected(row: $0) }
          )
        case .fruit(let fruit):
          VStack([Label(fruit.name, tag: "h2"), Label("Fresh today", className: "dim")])
        }
      })
  }
}

@MainActor
@Suite struct WebSessionTests {
  @Test func theFirstPageIsAWholeDocumentWithItsScriptAndSession() {
    let app = FruitApp()
    let session = app.session(id: "abc123")
    let page = session.document(script: "/tether.js", style: "/tether.css")
    #expect(page.hasPrefix("<!doctype html>"))
    #expect(page.contains("<title>Fruit · Fruit app</title>"))
    #expect(page.contains(#"data-session="abc123""#))
    #expect(
      page.contains(
        #"<button id="s1.r1" type="button" class="row" role="option" aria-selected="true">"#))
    #expect(page.contains("Banana"))
    #expect(!page.contains("‹ Back"), "the root has no Back")
  }

  @Test func aKeyMovesTheSelectionAndOneAttributeMovesWithIt() async {
    let app = FruitApp()
    let session = app.session()
    let page = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    #expect(sent.isEmpty, "nothing changed since the page was served")
    await session.receive(#"{"type":"key","key":"ArrowDown"}"#)
    #expect(
      sent == [
        #"{"p":[["a","s1.r1","aria-selected"],["a","s1.r2","aria-selected","true"]],"f":"s1.r2"}"#
      ])
    #expect(app.list.reached == [1])
    // The server says what to focus, by name. The page it served said too.
    #expect(page.contains(#"data-focus="s1.r1""#))
    // Two attribute changes, whatever the size of the page.
    #expect(sent[0].utf8.count < 200 && page.utf8.count > 600)
  }

  @Test func choosingPushesTheNextScreenAndItsPathAndTitleTravel() async throws {
    let app = FruitApp()
    let session = app.session()
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"click","id":"s1.r2"}"#)
    #expect(app.stack.path.description == "/fruit/2")
    let message = try #require(sent.last)
    #expect(message.contains(#""path":"/fruit/2""#))
    #expect(message.contains(#""title":"Banana · Fruit app""#))
    #expect(message.contains("Fresh today"))
    #expect(message.contains("‹ Back"))
  }

  @Test func theAlertIsADialogThatOKAndEscapeClose() async throws {
    let app = FruitApp()
    let session = app.session()
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"click","id":"s1.r3"}"#)
    app.list.reached = []
    let opened = try #require(sent.last)
    #expect(opened.contains(#"["a","alert","open",""]"#))
    #expect(opened.contains("No cherries today"))
    #expect(opened.contains(#""f":"alert.b0""#))
    // While the alert is open, keys go to it: ArrowDown does not move the list.
    await session.receive(#"{"type":"key","key":"ArrowDown"}"#)
    #expect(app.list.reached.isEmpty)
    await session.receive(#"{"type":"key","key":"Escape"}"#)
    #expect(app.stack.alert == nil)
    await session.receive(#"{"type":"click","id":"s1.r3"}"#)
    await session.receive(#"{"type":"click","id":"alert.b0"}"#)
    #expect(app.stack.alert == nil)
  }

  @Test func theAlertIsModalNoClickReachesTheScreenBehindIt() async throws {
    let app = FruitApp()
    let session = app.session()
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(#"{"type":"click","id":"s1.r3"}"#)
    let opened = try #require(sent.last)
    // The page marks what is behind the dialog inert: no pointer, no focus, no Tab stop.
    #expect(opened.contains(#"["a","bar","inert",""]"#))
    #expect(opened.contains(#"["a","screen","inert",""]"#))
    // A click on a row behind it, sent anyway (a forged or stale page), is refused.
    let refused = await session.receive(#"{"type":"click","id":"s1.r2"}"#)
    #expect(refused == .behindModal(id: "s1.r2"))
    #expect(app.stack.path.description == "/", "the row behind the alert did not open")
    #expect(app.stack.alert != nil, "the alert is still up")
    // Its own buttons still work, and then the screen is live again.
    await session.receive(#"{"type":"click","id":"alert.b0"}"#)
    let closed = try #require(sent.last)
    #expect(closed.contains(#"["a","screen","inert"]"#))
    await session.receive(#"{"type":"click","id":"s1.r2"}"#)
    #expect(app.stack.path.description == "/fruit/2")
  }

  @Test func browserBackPopsToThePathAndForwardRebuildsIt() async {
    let app = FruitApp()
    let session = app.session()
    _ = session.document(script: "/t.js", style: "/t.css")
    session.attach { _ in }
    await session.receive(#"{"type":"click","id":"s1.r1"}"#)
    #expect(app.stack.screens.count == 2)
    await session.receive(#"{"type":"navigate","path":"/"}"#)
    #expect(app.stack.screens.map(\.title) == ["Fruit"])
    await session.receive(#"{"type":"navigate","path":"/fruit/2"}"#)
    #expect(app.stack.screens.map(\.title) == ["Fruit", "Banana"])
  }

  @Test func badMessagesAreRefusedAndTheSessionGoesOn() async {
    let app = FruitApp()
    let session = app.session()
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    #expect(await session.receive("{{{") != nil)
    #expect(await session.receive(#"{"type":"click","id":"nope"}"#) == .noHandler(id: "nope"))
    #expect(await session.receive(String(repeating: "x", count: 10_000)) != nil)
    #expect(session.refused.count == 3)
    #expect(sent.isEmpty, "a refused message changes nothing")
    #expect(await session.receive(#"{"type":"key","key":"ArrowDown"}"#) == nil)
    #expect(app.list.reached == [1])
  }

  @Test func twoSessionsNeverReachEachOthersViewModels() async {
    let first = FruitApp()
    let second = FruitApp()
    let one = first.session(id: "one")
    let two = second.session(id: "two")
    _ = one.document(script: "/t.js", style: "/t.css")
    _ = two.document(script: "/t.js", style: "/t.css")
    one.attach { _ in }
    two.attach { _ in }
    await one.receive(#"{"type":"click","id":"s1.r1"}"#)
    #expect(first.stack.screens.count == 2)
    #expect(second.stack.screens.count == 1)
  }

  @Test func aReconnectingPageGetsTheWholeAppAgain() throws {
    let app = FruitApp()
    let session = app.session()
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach({ sent.append($0) }, resync: true)
    let message = try #require(sent.first)
    #expect(message.hasPrefix(#"{"p":[["r","app","#))
    #expect(message.contains(#""path":"/""#))
  }

  @Test func closingASessionReleasesItsStackFlowsAndViewModels() async {
    await withLeakTracking { leaks in
      let app = leaks.track(FruitApp())
      leaks.track(app.list)
      leaks.track(app.stack)
      let session = leaks.track(app.session())
      _ = session.document(script: "/t.js", style: "/t.css")
      session.attach { _ in }
      await session.receive(#"{"type":"click","id":"s1.r1"}"#)
      session.close()
    }
  }
}
