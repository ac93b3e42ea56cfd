import Testing
import Tether
import TetherFlow
import TetherTesting
import TetherWebTesting

@_spi(HandBuilt) @testable import TetherWeb

/// A draft whose Save writes to a slow store, with the item being edited worth carrying to
/// another server: both said by the view model, none by its screen.
@MainActor
final class DraftModel: SettlingViewModel, RestorableViewModel {
  @Output var editing: String?
  @Output var saves = 0
  private var pending: CheckedContinuation<Void, Never>?
  private var writing: Task<Void, Never>?

  func save() {
    writing = Task {
      await withCheckedContinuation { pending = $0 }
      saves += 1
      writing = nil
    }
  }

  var isWriting: Bool { pending != nil }

  func finishWrite() {
    pending?.resume()
    pending = nil
  }

  var isSettled: Bool { writing == nil }
  func settled() async { await writing?.value }

  struct Restoration: Codable, Sendable, Equatable { var editing: String }
  var restoration: Restoration? { editing.map { Restoration(editing: $0) } }
  func restore(_ restoration: Restoration) { editing = restoration.editing }
}

@MainActor
final class DraftScreen: WebScreen {
  enum Action { case save, choose(Int) }
  let model: DraftModel
  init(_ model: DraftModel) { self.model = model }

  var body: Markup<Action> {
    vstack {
      p(.class("editing")) { model.editing ?? "nothing" }
      button("Save").onClick(.save)
      list([Item(id: "a"), Item(id: "b"), Item(id: "c")], onChoose: { .choose($0) }) { row in
        span { row.id }
      }
    }
  }

  struct Item: Identifiable, Equatable { var id: String }

  func handle(_ action: Action) {
    switch action {
    case .save: model.save()
    case .choose: break
    }
  }
}

@MainActor
@Suite struct ViewModelContractsTests {
  private func session(_ model: DraftModel, id: String = "d") -> WebSession {
    let stack = ScreenStack<DraftModel>()
    stack.setRoot(Screen(model, title: "Draft"))
    return WebSession(
      id: id, stack: stack, appTitle: "Drafts", open: { _ in },
      makeView: { DraftScreen($0.destination) })
  }

  @Test func aGestureIsAcknowledgedOnlyOnceTheViewModelSaysItsWriteIsDone() async throws {
    let model = DraftModel()
    let session = session(model)
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    let save = try #require(
      session.pageTree?.select("button").first { $0.children == [.text("Save")] }?.id)
    await session.receive(#"{"type":"click","id":"\#(save)","g":1}"#)
    #expect(sent.allSatisfy { !$0.contains(#""k":1"#) }, "the write is not done: \(sent)")
    await expectEventually { model.isWriting }
    model.finishWrite()
    await expectEventually { sent.contains { $0.contains(#""k":1"#) } }
    #expect(model.saves == 1)
  }

  @Test func theViewModelsValueAndTheListsSelectionTravelInTheResumeState() async throws {
    let model = DraftModel()
    let first = session(model)
    _ = first.document(script: "/t.js", style: "/t.css")
    first.attach { _ in }
    model.editing = "item 7"
    await first.receive(#"{"type":"key","key":"ArrowDown","g":1}"#)
    let state = first.resumeState
    // The screen's key is the library's: the view model's value and the list's row.
    let key = try #require(state.snapshot.selections.first ?? nil)
    #expect(key.contains("item 7") && key.contains("\"b\""), "\(key)")

    let rebuilt = DraftModel()
    let second = session(rebuilt, id: "d")
    second.restore(state)
    #expect(rebuilt.editing == "item 7")
    var sent: [String] = []
    _ = second.document(script: "/t.js", style: "/t.css")
    second.attach { sent.append($0) }
    let page = try #require(second.pageTree)
    let selected = try page.select("[aria-selected=true]").first
    #expect(selected.map { HTMLNode.element($0).visibleText } == "b")
  }

  @Test func aTokenValueThisServerCannotReadRestoresNothing() {
    let model = DraftModel()
    let mounted = MountedScreen(DraftScreen(model), viewModels: [model])
    mounted.restore(#"{"m":"{\"other\":1}"}"#)
    mounted.restore("not json")
    #expect(model.editing == nil)
  }
}

/// A list whose rows open a detail screen: the list's selection is the page's to keep while
/// the detail is shown.
@MainActor
final class ShelfListModel {
  struct Book: Identifiable, Equatable { var id: String }
  let books = ["a", "b", "c", "d"].map(Book.init)
  weak var navigator: (any Navigator<String>)?
  func open(_ index: Int) {
    navigator?.push(Screen(books[index].id, title: "Book", path: ["book", books[index].id]))
  }
}

@MainActor
final class ShelfListScreen: WebScreen {
  enum Action { case open(Int) }
  let model: ShelfListModel
  init(_ model: ShelfListModel) { self.model = model }
  var body: Markup<Action> {
    list(model.books, onChoose: { .open($0) }) { book in span { book.id } }
  }
  func handle(_ action: Action) {
    switch action {
    case .open(let index): model.open(index)
    }
  }
}

@MainActor
final class BookScreen: WebScreen {
  let id: String
  init(_ id: String) { self.id = id }
  var body: Markup<Never> { p(.class("book")) { id } }
}

@MainActor
final class ShelfListFlow: FlowController {
  let model = ShelfListModel()
  func start(on navigator: any Navigator<String>) -> Screen<String> {
    model.navigator = navigator
    return Screen("shelf", title: "Shelf", owner: self)
  }
}

@MainActor
@Suite struct ListSelectionAcrossScreensTests {
  @Test func aListKeepsItsSelectionWhileAScreenIsPushedOverIt() async throws {
    let flow = ShelfListFlow()
    let app = WebApp(title: "Books", rootFlow: { flow }) { screen -> any WebScreen in
      screen.destination == "shelf" ? ShelfListScreen(flow.model) : BookScreen(screen.destination)
    }
    let page = try await WebTestPage(app: app)
    defer { page.close() }
    try await page.press(.arrowDown)
    try await page.press(.arrowDown)
    #expect(try page.text("[aria-selected=true]") == "c")
    try await page.press(.enter)
    try await page.waitFor("p.book")
    try await page.navigate(to: "/")
    try await page.waitFor("[role=listbox]")
    #expect(try page.text("[aria-selected=true]") == "c", "Back finds the row it left")
  }
}
