import Tether
import TetherFlow

// The compiled companion of the Swift blocks in the doc comments of `Sources/TetherFlow`
// (DocSnippetTests checks that each appears here). Nothing here runs; it must compile.
enum TetherFlowDocComments {
  struct Services {
    var courses = CourseService()
  }
  struct CourseService {}
  struct Course { var id = 1 }
  @MainActor final class CourseDetailViewModel {
    let course = Course()
    let titleText = "Course"
  }
  @MainActor final class CourseListViewModel {
    init(service: CourseService) {}
    let title = "Courses"
    let route = Signal<CourseDetailViewModel>.pipe().output
    func removalConfirmed(id: Int) {}
    func moveToTopConfirmed(id: Int) {}
  }
  enum AppDestination {
    case courseList(CourseListViewModel)
    case courseDetail(CourseDetailViewModel)
    case salutations(SalutationPickerViewModel)
  }
  typealias ShowcaseDestination = AppDestination

  // Sources/TetherFlow/OptimisticWrites.swift
  struct Todo {}
  struct TodoChange {
    func applied(to todos: [Todo]) -> [Todo] { todos }
  }
  struct TodoList {
    var todos: [Todo] = []
    var version = 0
  }
  enum TodoStoreError: Error {
    case refused
    var isRefusal: Bool { true }
  }
  final class TodoStore: Sendable {
    func apply(_ change: TodoChange, to list: String) async throws(TodoStoreError) -> Int { 1 }
    func load(list: String) async throws(TodoStoreError) -> TodoList { TodoList() }
  }
  @MainActor static func makeWrites(store: TodoStore, listID: String) {
    let writes = OptimisticWrites<[Todo], TodoChange, TodoStoreError>(
      initial: [], apply: { change, todos in change.applied(to: todos) },
      write: { change throws(TodoStoreError) in try await store.apply(change, to: listID) },
      load: { () throws(TodoStoreError) in
        let list = try await store.load(list: listID)
        return (list.todos, list.version)
      },
      retry: RetryPolicy(maximumAttempts: .max, when: { !$0.isRefusal }) { _ in .seconds(1) })
    _ = writes
  }

  // Sources/TetherFlow/ListStream.swift
  struct LogLine: Identifiable { var id: Int }
  @MainActor final class LogViewModel {
    let lines = ListStream<LogLine>(limit: 500)

    func received(_ line: LogLine) {
      lines.insert(line)  // the 501st line pushes the oldest off the screen
    }
  }

  // Sources/TetherFlow/FlowController.swift
  typealias AppServices = Services
  @MainActor final class CoursesFlow: FlowController {
    let services: AppServices
    private let lifetime = Lifetime()

    init(services: AppServices) { self.services = services }

    func start(on navigator: any Navigator<AppDestination>) -> Screen<AppDestination> {
      let list = CourseListViewModel(service: services.courses)
      list.route.observe { [weak navigator] detail in
        navigator?.push(
          Screen(
            .courseDetail(detail), title: detail.titleText,
            path: ["course", "\(detail.course.id)"]))
      }.store(in: lifetime)
      return Screen(.courseList(list), title: list.title, path: ["courses"], owner: self)
    }
  }

  @MainActor final class MainFlow: FlowController {
    init(services: Services) {}
    func start(on navigator: any Navigator<AppDestination>) -> Screen<AppDestination> {
      CoursesFlow(services: Services()).start(on: navigator)
    }
  }

  // Sources/TetherFlow/FlowController+Opening.swift
  @MainActor static func opening(services: Services) async {
    let stack = ScreenStack<AppDestination>()
    MainFlow(services: services).startFlow(on: stack)
    let path = ScreenPath(parsing: "/gallery/photo/7")
    do {
      try await MainFlow(services: services).open(path, on: stack)
    } catch {
      stack.present(.pageNotFound(at: path, error))  // or use openPresentingFailure(_:on:)
    }
  }

  // Sources/TetherFlow/Navigator.swift
  @MainActor static func alertActions(
    navigator: any Navigator<AppDestination>, list: CourseListViewModel, lifetime: Lifetime
  ) {
    enum CoursesAction: Codable { case remove(id: Int), moveToTop(id: Int) }

    navigator.alertActions(CoursesAction.self).observe { action in
      switch action {
      case .remove(let id): list.removalConfirmed(id: id)
      case .moveToTop(let id): list.moveToTopConfirmed(id: id)
      }
    }
    .store(in: lifetime)
  }

  @MainActor final class Greeting {
    var salutation = "Hello"
    func use(_ salutation: String) {}
  }
  @MainActor final class SalutationPickerViewModel {
    init(current: String) {}
    let chosen = Signal<String>.pipe().output
  }
  @MainActor static func sheets(
    navigator: any Navigator<AppDestination>, greeting: Greeting
  ) async {
    let picker = SalutationPickerViewModel(current: greeting.salutation)
    let sheet = Screen(ShowcaseDestination.salutations(picker), title: "Salutation")
    if let chosen = await navigator.presentSheet(sheet, until: picker.chosen) {
      greeting.use(chosen)
    }
  }

  // Sources/TetherFlow/ScreenAlert.swift
  static func alertButton() -> ScreenAlert.Button {
    enum CourseAction: Codable, Equatable { case remove(id: Int) }

    let remove = ScreenAlert.Button("Remove", role: .confirm, action: CourseAction.remove(id: 2))
    return remove
  }

  // Sources/TetherFlow/ScreenPresenter.swift, ScreenStack.swift
  enum Key: Equatable {
    case escape, other
    var screenKey: ScreenKey? { nil }
  }
  @MainActor final class KeyView { func handle(_ key: Key) -> Bool { false } }
  @MainActor static func presenting(
    stack: ScreenStack<AppDestination>, key: Key, quitIfAsked: (Key) -> Void
  ) {
    func makeView(for screen: Screen<AppDestination>) -> KeyView { KeyView() }
    let presenter = ScreenPresenter(stack: stack) { screen in makeView(for: screen) }
    switch presenter.route(key.screenKey, isBack: key == .escape, toTopView: { $0.handle(key) }) {
    case .alert, .sheet, .view, .back: break
    case .unhandled: quitIfAsked(key)
    }
  }
  @MainActor static func rendering(
    services: Services, lifetime: Lifetime,
    render: @escaping (Screen<AppDestination>?, ScreenAlert?) -> Void
  ) {
    let stack = ScreenStack<ShowcaseDestination>()
    AppFlow(services: services).startFlow(on: stack)  // FlowController.startFlow(on:)
    observe { render(stack.screens.last, stack.alert) }.store(in: lifetime)
  }
  typealias AppFlow = MainFlow

  // Sources/TetherFlow/FieldBinding.swift
  struct EditedField {
    var sequence = 0
    var text = ""
  }
  @MainActor static func binding(field: EditedField) {
    var field = field
    let title = MutableProperty("")
    let binding = FieldBinding(title)
    let token = binding.updates.observe { update in
      if update.applies(toFieldAt: field.sequence) { field.text = update.value }
    }
    binding.userEdited("Buy milk", sequence: 1)  // title.value == "Buy milk"; no update
    title.value = ""  // update: "" after edit 1
    _ = token
  }

  // Sources/TetherFlow/FocusOrder.swift, LineEditor.swift
  static func editing() {
    var focus = FocusOrder(["new-todo", "row-1", "row-2"], focused: "new-todo")
    focus.next()  // "row-1"
    focus.update(order: ["new-todo", "row-2"])  // row-1 deleted: "row-2"
    var field = LineEditor("Buy mlk")
    field.apply(.moveLeft)
    field.apply(.insert("i"))
    print(field.text)  // "Buy milk"
  }

  // Sources/TetherFlow/ListSelection.swift
  struct Row: Identifiable, Equatable { var id: Int }
  @MainActor final class RowList {
    let rows = Property(value: [Row(id: 1), Row(id: 2)])
    func userReached(row: Int) async {}
    func userSelected(row: Int) {}
  }
  @MainActor static func selecting(list: RowList) {
    let selection = ListSelection(
      rows: list.rows,
      onMove: { row in Task { await list.userReached(row: row) } },
      onActivate: { list.userSelected(row: $0) })
    selection.handle(.down)  // the second row, and `onMove(1)`
    selection.handle(.activate)  // `onActivate(1)`
  }

  // Sources/TetherFlow/FileUpload.swift
  @MainActor static func uploading() -> ObservationToken {
    let photos = FileUpload(
      rules: FileUploadRules(accept: ["image/jpeg", "image/png"], maximumFileSize: 5_000_000))
    let arrivals = photos.completed.observe { entry in
      // Read or move `entry.file`, then let the entry go.
      photos.remove(entry.id)
    }
    return arrivals
  }

  // Sources/TetherFlow/TabSelection.swift
  enum Style: CaseIterable {
    case viewModel, bindings
    var pathComponent: String { "\(self)" }
  }
  @MainActor final class ProfileModel {
    let styleTabs = TabSelection(Style.allCases, selected: .viewModel) { $0.pathComponent }
  }
  enum ProfileDestination { case profile(ProfileModel) }
  @MainActor static func tabs(model: ProfileModel) -> Screen<ProfileDestination> {
    // In the view model: the binding styles, the one shown first being the path's own.
    let styleTabs = TabSelection(Style.allCases, selected: .viewModel) { $0.pathComponent }
    _ = styleTabs
    // …
    // In the flow: the screen's path follows the tab.
    return Screen(
      .profile(model), title: "Profile", path: ["profile"],
      pathTail: model.styleTabs.pathTail)
  }

  // Sources/TetherFlow/TextInputRule.swift
  @MainActor final class TitleForm {
    var errorMessage: String?
    func save(_ title: String) {
      if let refusal = TextInputRule.oneLine.refusal(of: title, naming: "A title") {
        errorMessage = refusal  // "A title cannot hold control characters (U+0000)."
        return
      }
    }
  }
}
