import Foundation
import Testing
import Tether
import TetherFlow
import TetherTesting

@_spi(HandBuilt) @testable import TetherWeb
@testable import TetherWebTesting

/// A shelf with a search row, tabs, and an action that asks before it archives: the names a
/// page test clicks by.
@MainActor
final class ShelfModel {
  enum Tab: String, CaseIterable { case shelf = "Shelf", archive = "Archive" }
  let query = MutableProperty("")
  @Output var tab = Tab.shelf
  @Output var searches: [String] = []
  @Output var archived = false
  weak var navigator: (any Navigator<ShelfModel>)?

  func askToArchive() {
    let archive = ScreenAlert.Button("Archive", role: .destructive)
    navigator?.present(
      ScreenAlert(
        title: "Archive the shelf?", message: "It leaves the list.",
        buttons: [ScreenAlert.Button("Cancel", role: .cancel), archive])
    ) { [weak self] button in
      if button == archive { self?.archived = true }
    }
  }
}

@MainActor
final class ShelfScreen: WebScreen {
  enum Action { case search, show(ShelfModel.Tab), askToArchive }
  let model: ShelfModel
  init(_ model: ShelfModel) { self.model = model }

  var body: Markup<Action> {
    vstack {
      tabList(ShelfModel.Tab.allCases, selected: model.tab, label: "Views") {
        $0.rawValue
      } action: {
        .show($0)
      }
      hstack {
        textField(model.query, placeholder: "Find")
        button("Go").onClick(.search)
      }
      label {
        "Note"
        textField(MutableProperty(""), placeholder: "Anything")
      }
      button("Archive…").onClick(.askToArchive)
      p(.class("status")) { model.archived ? "Archived" : "On the shelf" }
      ul(.class("searches")) {
        ForEach(model.searches, id: \.self) { query in li { query } }
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .search: model.searches.append(model.query.value)
    case .show(let tab): model.tab = tab
    case .askToArchive: model.askToArchive()
    }
  }
}

@MainActor
final class ShelfFlow: FlowController {
  /// The root screen's own path components: `/home` when set.
  let rootPath: [String]
  init(rootPath: [String] = []) { self.rootPath = rootPath }

  func start(on navigator: any Navigator<ShelfModel>) -> Screen<ShelfModel> {
    let model = ShelfModel()
    model.navigator = navigator
    return Screen(model, title: "Shelf", path: rootPath, owner: self)
  }
}

@MainActor
struct WebTestPageTests {
  private func shelf(rootPath: [String] = []) -> WebApp {
    WebApp(title: "Books", rootFlow: { ShelfFlow(rootPath: rootPath) }) {
      ShelfScreen($0.destination)
    }
  }

  @Test func aNameResolvesToTheControlItLabelsNotTheRowAroundIt() async throws {
    let page = try await WebTestPage(app: shelf())
    defer { page.close() }
    // The row's text is "Go" too (the field shows none): the button is what is meant.
    #expect(try page.element(named: "Go").tag == "button")
    try await page.type("Dune", into: "input[placeholder=Find]")
    try await page.click(named: "Go")
    try await page.waitFor(".searches li")
    #expect(try page.texts(".searches li") == ["Dune"])
    // A field is found by the label around it, or its placeholder.
    #expect(try page.element(named: "Note")[attribute: "placeholder"] == "Anything")
    #expect(try page.element(named: "Find").tag == "input")
  }

  @Test func aNameSearchCanBeScopedToTheOpenDialog() async throws {
    let page = try await WebTestPage(app: shelf())
    defer { page.close() }
    try await page.click(named: "Archive…")
    try await page.waitFor("dialog#alert[open]")
    // Unscoped, "Archive" is the tab, first in the page.
    #expect(try page.element(named: "Archive")[attribute: "role"] == "tab")
    try await page.click(named: "Archive", within: "dialog")
    try await page.waitUntil("the shelf archived") { try page.text(".status") == "Archived" }
    #expect(try !page.has("dialog#alert[open]"))
    // A closed dialog has nothing to find.
    let closed = Result { try page.element(named: "Archive", within: "dialog") }
    #expect(throws: WebTestPage.Failure.self) { try closed.get() }
  }

  @Test func aRootScreenWithAPathOfItsOwnReopensAtThatPath() async throws {
    let app = shelf(rootPath: ["home"])
    let first = try await WebTestPage(app: app)
    defer { first.close() }
    #expect(first.path == "/home")
    // The address bar's own path opens the same screen, as a reload of it does.
    let reloaded = try await WebTestPage(app: app, path: first.path)
    defer { reloaded.close() }
    #expect(reloaded.path == "/home")
    #expect(try reloaded.text(".status") == "On the shelf")
  }

  @Test func aGestureUnderAnOpenSheetIsRefusedAsBehindTheSheet() {
    #expect(
      WebSessionError.behindSheet(id: "s1.go").description == "'s1.go' is behind the open sheet")
    #expect(
      WebSessionError.behindModal(id: "s1.go").description == "'s1.go' is behind the open alert")
  }

  @Test func thePageShowsWhatItWasSentNotTheSessionsTree() async throws {
    let page = try await WebTestPage(app: shelf())
    defer { page.close() }
    let before = page.sent.count
    try await page.type("Dune", into: "input[placeholder=Find]")
    try await page.click(named: "Go")
    try await page.waitFor(".searches li")
    // The row arrived as a patch the page applied.
    let patches = page.sent[before...].joined()
    #expect(patches.contains(#"["i","#) || patches.contains(#"["c","#), "\(patches)")
    #expect(page.divergence == nil)
  }
}

/// The page's own reading of HTML and of the session's messages, apart from any session.
@MainActor
struct PageMirrorTests {
  nonisolated private static func element(
    _ tag: String, _ id: String, _ attributes: [(String, String)] = [], _ children: [HTMLNode] = []
  ) -> HTMLNode {
    .element(tag, id: id, attributes.map { (name: $0.0, value: $0.1) }, children)
  }

  /// A page with what the writer escapes: quotes, angle brackets, ampersands, a carriage
  /// return, a text area starting with a newline, a void element, wide characters.
  nonisolated static let page: HTMLNode = element(
    "div", "app", [],
    [
      element("h1", "t", [("title", #"say "hi" & <bye>"#)], [.text("Tom & Jerry <3 — 東京 👩‍👩‍👧")]),
      element("input", "f", [("type", "text"), ("value", "a\rb")]),
      element("textarea", "x", [], [.text("\nfirst line\nsecond")]),
      element(
        "ul", "l", [],
        [
          element("li", "l.1", [], [.text("one")]), element("li", "l.2", [], [.text("two")]),
          element("li", "l.3", [], [.text("three")]),
        ]),
      element("p", "n", [("hidden", "")], [.text("note")]),
    ])

  @Test func whatTheWriterWritesTheReaderReadsBack() throws {
    let read = try HTMLReader.nodes(Self.page.html)
    #expect(read.count == 1)
    #expect(read.first.map(PageMirror.comparable) == PageMirror.comparable(Self.page))
    // Live values too: the reader keeps them where the writer put them.
    guard case .element(let app)? = read.first, case .element(let field) = app.children[1],
      case .element(let area) = app.children[2]
    else {
      Issue.record("not elements: \(read)")
      return
    }
    #expect(field[attribute: "value"] == "a\rb")
    #expect(area.children == [.text("\nfirst line\nsecond")])
  }

  /// Every kind of patch the diff makes, sent as the wire sends it and applied by the page,
  /// leaves the page equal to the new render.
  @Test(arguments: [
    // An attribute set, one removed, a text changed.
    element(
      "div", "app", [],
      [
        element("h1", "t", [("title", "new"), ("class", "big")], [.text("Tom & Jerry")]),
        element("input", "f", [("type", "text"), ("value", "a\rb")]),
        element("textarea", "x", [], [.text("\nfirst line\nsecond")]),
        element(
          "ul", "l", [],
          [
            element("li", "l.1", [], [.text("one")]), element("li", "l.2", [], [.text("two")]),
            element("li", "l.3", [], [.text("three")]),
          ]),
        element("p", "n", [], [.text("note")]),
      ]),
    // A row inserted first, one removed.
    element(
      "div", "app", [],
      [
        element("h1", "t", [("title", #"say "hi" & <bye>"#)], [.text("Tom & Jerry <3 — 東京 👩‍👩‍👧")]),
        element("input", "f", [("type", "text"), ("value", "a\rb")]),
        element("textarea", "x", [], [.text("\nfirst line\nsecond")]),
        element(
          "ul", "l", [],
          [
            element("li", "l.0", [], [.text("zero")]), element("li", "l.1", [], [.text("one")]),
            element("li", "l.3", [], [.text("three")]),
          ]),
        element("p", "n", [("hidden", "")], [.text("note")]),
      ]),
    // Rows moved (children replaced), an element of another tag (replaced).
    element(
      "div", "app", [],
      [
        element("h2", "t", [], [.text("Other")]),
        element("input", "f", [("type", "text"), ("value", "a\rb")]),
        element("textarea", "x", [], [.text("\nfirst line\nsecond")]),
        element(
          "ul", "l", [],
          [
            element("li", "l.3", [], [.text("three")]), element("li", "l.1", [], [.text("one")]),
            element("li", "l.2", [], [.text("two")]),
          ]),
        element("p", "n", [("hidden", "")], [.text("note")]),
      ]),
  ])
  func aDiffSentOverTheWireTurnsThePageIntoTheNewRender(new: HTMLNode) throws {
    var page = try PageMirror(
      document: "<!doctype html><html><body>\(Self.page.html)</body></html>", path: "/",
      title: nil, focus: nil)
    let patches = HTMLPatch.diff(from: Self.page, to: new)
    #expect(!patches.isEmpty)
    page.apply(ServerMessage(patches: patches, title: "New").json)
    #expect(page.faults.isEmpty, "\(page.faults)")
    #expect(PageMirror.difference(page: page.tree, kept: new) == nil)
    #expect(page.title == "New")
  }

  @Test func aFieldsValueFromTheModelReplacesOnlyTypingItHadSeen() throws {
    var page = try PageMirror(
      document: Self.page.html, path: "/", title: nil, focus: nil)
    page.type("mine", into: "f", edit: 3)
    // The model's value as of edit 2: the page typed since, and keeps its text.
    page.apply(ServerMessage(patches: [.value(id: "f", value: .text(""), acknowledged: 2)]).json)
    #expect(try page.tree.select("#f").first?[attribute: "value"] == "mine")
    // As of edit 3: the model has seen the typing, and its value is shown.
    page.apply(ServerMessage(patches: [.value(id: "f", value: .text(""), acknowledged: 3)]).json)
    #expect(try page.tree.select("#f").first?[attribute: "value"] == "")
  }

  @Test func aPatchToAnElementThePageDoesNotHaveIsAFault() throws {
    var page = try PageMirror(document: Self.page.html, path: "/", title: nil, focus: nil)
    page.apply(ServerMessage(patches: [.text(id: "gone", text: "x")]).json)
    #expect(page.faults.count == 1)
    page.apply("{not json")
    #expect(page.faults.count == 2)
    // And the trees disagree when a patch was lost.
    guard case .element(var app) = Self.page else { return }
    app.children[0] = Self.element("h1", "t", [], [.text("changed")])
    let lost = HTMLNode.element(app)
    #expect(PageMirror.difference(page: page.tree, kept: lost)?.contains("#t") == true)
  }
}

/// A note list whose Add carries its gesture to the view model: the only action that wants it.
@MainActor
final class NotesModel {
  let draft = MutableProperty("")
  @Output var added: [String?] = []
}

@MainActor
final class NotesScreen: WebScreen {
  enum Action { case add(gesture: WebGesture?), clear }
  let model: NotesModel
  init(_ model: NotesModel) { self.model = model }

  var body: Markup<Action> {
    vstack {
      textField(model.draft, label: "Note").onSubmit { .add(gesture: $0) }
      button("Clear").onClick(.clear)
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .add(let gesture): model.added.append(gesture?.id)
    case .clear: model.added.removeAll()
    }
  }
}

@MainActor
final class NotesFlow: FlowController {
  let model = NotesModel()
  func start(on navigator: any Navigator<NotesModel>) -> Screen<NotesModel> {
    Screen(model, title: "Notes", owner: self)
  }
}

@MainActor
struct GestureActionTests {
  @Test func anActionMadeOfItsGestureCarriesTheGesturesID() async throws {
    let flow = NotesFlow()
    let app = WebApp(title: "Notes", rootFlow: { flow }) { NotesScreen($0.destination) }
    let page = try await WebTestPage(app: app)
    defer { page.close() }
    try await page.type("one", into: "input")
    try await page.submit("input")
    try await page.type("two", into: "input")
    try await page.submit("input")
    let ids = flow.model.added
    #expect(ids.count == 2 && Set(ids).count == 2, "\(ids)")
    #expect(ids.allSatisfy { $0?.hasPrefix(page.session.id + "-") == true }, "\(ids)")
  }
}

/// A screen written as a struct whose markup calls its view model, as a SwiftUI view does.
@MainActor
final class ChecklistModel {
  let draft = MutableProperty("")
  @Output var added: [String?] = []
  @Output var done = false
  @Output var calls: [String] = []
  func add(id: String?) { added.append(id) }
  func clear() { calls.append("clear") }
  func setDone(_ value: Bool) { done = value }
}

@MainActor
struct ChecklistScreen: WebScreen {
  let model: ChecklistModel

  var body: Markup<WebCall> {
    vstack {
      textField(model.draft, label: "Item").onSubmit { model.add(id: $0?.id) }
        .onCancel { model.calls.append("cancel") }.onBlur { model.calls.append("blur") }
      checkbox(model.done, label: "Done").onChange(model.setDone)
      button("Clear").onClick(model.clear)
      p { model.done ? "All done" : "\(model.added.count) added" }
      ul {
        ForEach(model.calls, id: \.self) { call in
          Cached(call) { li { call }.onClick { model.calls.removeAll { $0 == call } } }
        }
      }
    }
  }
}

@MainActor
final class ChecklistFlow: FlowController {
  let model = ChecklistModel()
  func start(on navigator: any Navigator<ChecklistModel>) -> Screen<ChecklistModel> {
    Screen(model, title: "Checklist", owner: self)
  }
}

@MainActor
struct WebCallScreenTests {
  @Test func aStructScreensCallsReachItsViewModelAndItsPageFollows() async throws {
    let flow = ChecklistFlow()
    let app = WebApp(title: "Checklist", rootFlow: { flow }) {
      ChecklistScreen(model: $0.destination)
    }
    let page = try await WebTestPage(app: app)
    defer { page.close() }
    try await page.type("milk", into: "input[type=text]")
    try await page.submit("input[type=text]")
    try await page.submit("input[type=text]")
    let ids = flow.model.added
    #expect(ids.count == 2 && Set(ids).count == 2, "\(ids)")
    #expect(ids.allSatisfy { $0?.hasPrefix(page.session.id + "-") == true }, "\(ids)")
    #expect(try page.text("p") == "2 added")
    try await page.cancel("input[type=text]")
    try await page.blur("input[type=text]")
    try await page.click(named: "Clear")
    #expect(flow.model.calls == ["cancel", "blur", "clear"])
    try await page.check("input[type=checkbox]")
    #expect(flow.model.done)
    #expect(try page.text("p") == "All done")
    try await page.check("input[type=checkbox]", false)
    #expect(!flow.model.done)
  }

  /// A call holds the view model it calls; a closed session lets go of every call it was
  /// rendered with, even while something still holds the session.
  @Test func aClosedSessionHoldsNoneOfItsScreensCalls() async throws {
    let app = WebApp(title: "Checklist", rootFlow: { ChecklistFlow() }) {
      ChecklistScreen(model: $0.destination)
    }
    let registry = WebSessionRegistry(app: app, firstRender: .held)
    let page = try await WebTestPage(registry: registry)
    try await page.click(named: "Clear")
    #expect(registry.liveObjects == 1)
    page.close()
    registry.closeAll()
    #expect(registry.liveObjects == 0, "the session's calls held the view model")
    #expect(page.session.id.isEmpty == false, "the session itself is still held")
  }
}

/// Rows that move are moved on the page, not sent again.
@MainActor
struct RowMoveTests {
  private static func list(_ ids: [Int], label: (Int) -> String = { "Row \($0)" }) -> HTMLNode {
    .element(
      "div", id: "app", [],
      [
        .element(
          "ul", id: "l", [],
          ids.map { .element("li", id: "l.k\($0)", [], [.text(label($0))]) })
      ])
  }

  @Test func aRowMovedToTheTopIsOneMove() {
    let before = Self.list(Array(1...100))
    let after = Self.list([100] + Array(1...99))
    let patches = HTMLPatch.diff(from: before, to: after)
    #expect(patches == [.move(parent: "l", id: "l.k100", after: nil)])
    let json = ServerMessage(patches: patches).json
    #expect(json == #"{"p":[["m","l","l.k100",""]]}"#)
    #expect(json.utf8.count < 40, "\(json.utf8.count) B, not the list")
  }

  /// Random reorders with rows added, removed and changed, from a seeded generator: the
  /// patches the page applies always give the new list, and rows that kept their order stay.
  @Test func anyReorderAppliedByThePageGivesTheNewList() throws {
    var random = SeededRandomNumberGenerator(seed: 7)
    for round in 0..<200 {
      let count = Int.random(in: 1...30, using: &random)
      let old = Array(0..<count)
      var new = old.filter { _ in Int.random(in: 0..<10, using: &random) > 1 }
      new.shuffle(using: &random)
      // Shuffle only part of the time: most real changes move one or two rows.
      if round % 2 == 0 { new.sort(); if new.count > 2 { new.swapAt(0, new.count - 1) } }
      for extra in 0..<Int.random(in: 0...3, using: &random) {
        new.insert(100 + extra, at: Int.random(in: 0...new.count, using: &random))
      }
      let changed = Int.random(in: 0..<count, using: &random)
      let before = Self.list(old)
      let after = Self.list(new) { $0 == changed ? "changed" : "Row \($0)" }
      var page = try PageMirror(document: before.html, path: "/", title: nil, focus: nil)
      page.apply(ServerMessage(patches: HTMLPatch.diff(from: before, to: after)).json)
      #expect(page.faults.isEmpty, "round \(round): \(page.faults)")
      #expect(
        PageMirror.difference(page: page.tree, kept: after) == nil,
        "round \(round): \(old) → \(new)")
    }
  }
}
