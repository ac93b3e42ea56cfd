import Testing
import Tether
import TetherFlow
import TetherTerminal
import TetherWeb
import TetherWebTesting

// The compiled companion of the Swift blocks in the doc comments of `Sources/TetherWeb`,
// `Sources/TetherWebTesting` and the web ones of `Sources/TetherFlow` (DocSnippetTests checks
// that each appears here). Nothing here runs; it must compile.
enum TetherWebDocComments {
  struct Row: Identifiable, Hashable {
    var id: Int
    var title: String
    var date = ""
    var completed = false
  }
  @MainActor struct TodoRow {
    var id = 1
    var title = "Milk"
    let isDone = Property(value: false)
  }
  enum Country: CaseIterable, Equatable {
    case france, japan
    var name: String { "\(self)" }
  }
  enum Size: String, CaseIterable { case small, large }
  enum Style: String, CaseIterable { case viewModel, bindings }

  @MainActor final class Model {
    let newTitle = MutableProperty("")
    let notes = MutableProperty("")
    let allDoneProperty = Property(value: false)
    @Output var rows: [Row] = []
    @Output var hint = ""
    let styles = Style.allCases
    let style = Style.viewModel
    func addRequested(id: String?) {}
    func userSelected(row: Int) {}
  }
  @MainActor final class Form {
    let country = MutableProperty(Country.france)
    let size = MutableProperty(Size.small)
    let isUrgent = MutableProperty(false)
  }

  // Sources/TetherWeb/Markup: controls and markup, in bodies.
  @MainActor final class ControlsScreen: WebScreen {
    enum Action {
      case add, setAllDone(Bool), setCompleted(id: Int, Bool), choose(Style)
      case edit(id: Int), destroy(id: Int)
    }
    let model = Model()
    let form = Form()

    var body: Markup<Action> { Self.markup(model: model, form: form) }

    static func item(_ row: Row) -> Markup<Action> { li { row.title } }

    @MarkupBuilder<Action>
    static func markup(model: Model, form: Form) -> Markup<Action> {
      textField(
        model.newTitle, placeholder: "What needs to be done?", label: "New todo",
        .class("new-todo")
      )
      .onSubmit(.add)
      textArea(model.notes, label: "Notes", rows: 4, .class("notes"))
      checkbox(model.allDoneProperty, label: "Mark all as complete", .class("toggle-all"))
        .onChange { .setAllDone($0) }
      picker(form.country, options: Country.allCases, label: "Country") { $0.name }
      radioGroup(form.size, options: Size.allCases, label: "Size") { $0.rawValue }
      tabList(model.styles, selected: model.style, label: "Binding style") {
        $0.rawValue
      } action: {
        .choose($0)
      }
      ul(.class("todo-list")) {
        ForEach(model.rows) { row in
          li(.class("completed", when: row.completed)) {
            label { row.title }.onDoubleClick(.edit(id: row.id))
            button(.class("destroy"), .ariaLabel("Delete \(row.title)")).onClick(
              .destroy(id: row.id))
          }
        }
      }
      ForEach(model.rows) { row in
        li { row.title }
      }
      ForEach(model.rows) { row in
        Cached(row) { item(row) }
      }
      header {
        Component {
          p(.class("hint")) { model.hint }
        }
        ForEach(model.rows) { row in Cached(row) { item(row) } }
      }
      ul {
        ForEach(model.rows) { row in
          checkbox(row.completed, label: "Toggle \(row.title)", .class("toggle"))
            .onChange { .setCompleted(id: row.id, $0) }
        }
      }
    }

    func handle(_ action: Action) {}
  }

  // Sources/TetherWeb/Markup/MarkupRendering.swift
  @MainActor final class CounterViewModel {
    @Output private(set) var count = 0
    func increment() { count += 1 }
    func reset() { count = 0 }
  }
  @MainActor
  final class CounterScreen: WebScreen {
    enum Action { case increment }
    let model: CounterViewModel
    init(_ model: CounterViewModel) { self.model = model }

    var body: Markup<Action> {
      vstack {
        p { "Count: \(model.count)" }
        button("Add one").onClick(.increment)
      }
    }

    func handle(_ action: Action) {
      switch action {
      case .increment: model.increment()
      }
    }
  }

  // Sources/TetherWeb/Markup/MarkupRendering.swift: WebCall.
  @MainActor
  struct CounterPage: WebScreen {
    let model: CounterViewModel

    var body: Markup<WebCall> {
      p { "Count: \(model.count)" }
      button("Add one").onClick(model.increment)
      button("Reset").onClick { model.reset() }
    }
  }

  // Sources/TetherWeb/Markup/Markup.swift: onSubmit with a call.
  @MainActor final class AddingModel {
    let newTitle = MutableProperty("")
    func add(id: String?) {}
  }
  @MainActor struct AddingPage: WebScreen {
    let model: AddingModel
    var body: Markup<WebCall> {
      textField(model.newTitle, label: "New todo").onSubmit { model.add(id: $0?.id) }
    }
  }

  // Sources/TetherWeb/Markup/StreamControl.swift
  struct Line: Identifiable {
    var id: Int
    var time = ""
    var text = ""
  }
  @MainActor final class LogModel {
    let lines = ListStream<Line>(limit: 500)
  }
  @MainActor struct LogPage: WebScreen {
    let model: LogModel
    var body: Markup<Never> {
      stream(model.lines, .class("log"), .ariaLabel("Server log")) { line in
        span(.class("time")) { line.time }
        span { line.text }
      }
    }
  }

  // Sources/TetherWeb/Markup/FileInputControl.swift
  @MainActor final class AlbumModel {
    let photos = FileUpload(rules: FileUploadRules(accept: ["image/*"], maximumCount: 5))
  }
  @MainActor struct AlbumPage: WebScreen {
    let model: AlbumModel
    var body: Markup<Never> {
      fileInput(model.photos, label: "Add photos")
    }
  }

  // Sources/TetherWeb/Markup/WebHook.swift
  @MainActor final class CopyingModel {
    @Output private(set) var listText = ""
    func listCopied(_ text: String) {}
  }
  @MainActor struct CopyingPage: WebScreen {
    let todos: CopyingModel
    var body: Markup<WebCall> {
      button("Copy list").hook(.copyToClipboard, value: todos.listText)
        .onHookEvent("copied", todos.listCopied)
    }
  }

  // Sources/TetherWeb/Session/WebPageChrome.swift
  @MainActor final class BoardsFlow: FlowController {
    func start(on navigator: any Navigator<String>) -> Screen<String> {
      Screen("Inbox", title: "Inbox", owner: self)
    }
  }
  @MainActor struct BoardsScreen: WebScreen {
    let board: String
    var body: Markup<Never> { p { board } }
  }
  @MainActor static func chromedApp() -> WebApp {
    let app = WebApp(title: "Boards", rootFlow: { BoardsFlow() }) { screen in
      BoardsScreen(board: screen.destination)
    }
    .chrome(
      WebPageChrome(bar: { bar in
        nav(.class("brand")) {
          if bar.canGoBack { backButton("Back") }
          a(.href(trusted: "/")) { bar.appTitle }
          pageTitle(bar.title)
        }
      }))
    return app
  }

  // Sources/TetherWeb/Session/WebSessionRegistry.swift
  enum CounterDestination { case counter(CounterViewModel) }
  @MainActor final class CounterFlow: FlowController {
    func start(on navigator: any Navigator<CounterDestination>) -> Screen<CounterDestination> {
      Screen(.counter(CounterViewModel()), title: "Counter", owner: self)
    }
  }
  typealias CounterView = CounterScreen
  @MainActor static func registry() -> WebApp {
    let app = WebApp(title: "Counter", rootFlow: { CounterFlow() }) { screen in
      switch screen.destination {
      case .counter(let counter): CounterView(counter)
      }
    }
    return app
  }

  // Sources/TetherWeb/Session/WebGesture.swift, Sources/TetherFlow/AsyncAction.swift and
  // Sources/TetherWeb/Markup/ListControls.swift.
  @MainActor final class ListViewModel {
    func reloadRequested() async {}
  }
  enum ListAction { case open(row: Int), retry }
  enum AddAction { case add(gesture: WebGesture?) }
  @MainActor final class AddScreen: WebScreen {
    typealias Action = AddAction
    let model = Model()
    var body: Markup<Action> {
      textField(model.newTitle, label: "New todo").onSubmit { .add(gesture: $0) }
      // …
    }
    func handle(_ action: Action) {
      switch action {
      case .add(let gesture): model.addRequested(id: gesture?.id)
      }
    }
  }
  @MainActor final class DetailModel {
    var imageURL: String? = "https://example.com/a.jpg"
    var titleText = "Dawn"
    var isLoading = false
  }
  @MainActor static func retry(list: ListViewModel) {
    let retry = asyncAction { await list.reloadRequested() }
    retry()  // starts a reload; a second call while it runs starts it over
  }
  @MainActor static func controls(
    model: Model, detail: DetailModel, courses: DetailModel
  ) -> [Markup<ListAction>] {
    let field: Markup<ListAction> = textField(model.newTitle, label: "New todo")
    return [
      field,
      list(model.rows, onChoose: { .open(row: $0) }) { row in
        span(.class("title")) { row.title }
        span(.class("detail")) { row.date }
      },
      spinner(courses.isLoading, message: "Loading courses…"),
      image(source: detail.imageURL, description: detail.titleText),
    ]
  }

  // Sources/TetherWeb/Security, Sources/TetherWeb/Session
  static func security() {
    let local = WebHostAllowlist(binding: "127.0.0.1").allows("localhost:8080")  // true
    let other = WebHostAllowlist(binding: "127.0.0.1").allows("attacker.example")  // false
    let named = WebHostAllowlist(["todo.example.com"]).allows("todo.example.com:443")  // true
    let line = WebLogText.escaped("x\nFORGED: admin logged in")  // "x\\nFORGED: admin logged in"
    let inbox = WebInbox(rate: WebMessageRate())
    if case .startHandler = inbox.admit(#"{"type":"input","id":"s1.name","value":"Ada","seq":1}"#) {
      // start the task that calls inbox.next() until it returns nil
    }
    var rate = WebMessageRate()
    let wait = rate.delay(at: .now)  // .zero until the burst is spent
    _ = (local, other, named, line, wait)
  }

  // Sources/TetherWebTesting/WebTestPage.swift
  @MainActor static func pageTest(app: WebApp) async throws {
    let page = try await WebTestPage(app: app, path: "/todos")
    try await page.type("Buy milk", into: ".new-todo")
    try await page.submit(".new-todo")
    try await page.waitFor(".todo-list li")
    #expect(try page.text(".todo-list li label") == "Buy milk")
    page.close()
  }
}

// Sources/TetherFlow/ViewModelContracts.swift
@MainActor final class TodoListViewModel {
  private(set) var isSaved = true
  private(set) var editingID: String?
  func saved() async {}
  func resumeEditing(id: String) { editingID = id }
}

extension TodoListViewModel: SettlingViewModel {
  var isSettled: Bool { isSaved }
  func settled() async { await saved() }
}

extension TodoListViewModel: RestorableViewModel {
  struct Restoration: Codable, Sendable { var editing: String }
  var restoration: Restoration? { editingID.map { Restoration(editing: $0) } }
  func restore(_ restoration: Restoration) { resumeEditing(id: restoration.editing) }
}

extension WebHook {
  fileprivate static let copyToClipboard = WebHook("CopyToClipboard")
}
