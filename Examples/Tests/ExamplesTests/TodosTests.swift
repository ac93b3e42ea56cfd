import Testing
import Tether
import TetherTesting
import Todos

/// A store that fails every call, for the error path.
private struct BrokenStore: TodoStore {
  func load(list id: String) async throws(TodoStoreError) -> [Todo] {
    throw .unavailable("disk on fire")
  }
  func save(_ todos: [Todo], list id: String) async throws(TodoStoreError) {
    throw .unavailable("disk on fire")
  }
}

/// TodoMVC's rules (tastejs/todomvc `app-spec.md`) on the view model alone.
@MainActor
@Suite struct TodosTests {
  private func loaded(_ store: any TodoStore = InMemoryTodoStore(), list: String = "a") async
    -> TodoListViewModel
  {
    let todos = TodoListViewModel(store: store, listID: list)
    await todos.viewDidLoad()
    return todos
  }

  private func add(_ titles: String..., to todos: TodoListViewModel) {
    for title in titles {
      todos.newTitle.value = title
      todos.addRequested()
    }
  }

  @Test func addingTrimsAppendsClearsAndIgnoresBlankTitles() async {
    let todos = await loaded()
    add("  Buy milk ", "Walk the dog", "   ", "", to: todos)
    #expect(todos.todos.map(\.title) == ["Buy milk", "Walk the dog"])
    #expect(todos.newTitle.value == "   " || todos.newTitle.value == "")
    todos.newTitle.value = "Read"
    todos.addRequested()
    #expect(todos.newTitle.value == "", "cleared after adding")
    #expect(todos.focus == .newTodo)
    #expect(todos.itemsLeft == "3 items left" && todos.activeCount == 3)
  }

  @Test func togglingAndToggleAllAndTheCount() async {
    let todos = await loaded()
    add("One", "Two", to: todos)
    let ids = todos.todos.map(\.id)
    todos.toggle(id: ids[0])
    #expect(todos.itemsLeft == "1 item left" && todos.completedCount == 1)
    #expect(!todos.allCompleted)
    todos.toggleAllRequested()
    #expect(todos.allCompleted && todos.itemsLeft == "0 items left")
    todos.toggleAllRequested()
    #expect(todos.todos.allSatisfy { !$0.completed })
    todos.setCompleted(true, id: ids[1])
    #expect(todos.rows.map(\.completed) == [false, true])
  }

  @Test func editingSavesTrimmedCancelsAndAnEmptyTitleDeletes() async {
    let todos = await loaded()
    add("Buy milk", "Walk", to: todos)
    let ids = todos.todos.map(\.id)
    todos.startEditing(id: ids[0])
    #expect(todos.editTitle.value == "Buy milk" && todos.focus == .edit(ids[0]))
    #expect(todos.rows.first?.isEditing == true)
    todos.editTitle.value = "  Buy oat milk "
    todos.commitEdit()
    #expect(todos.todos[0].title == "Buy oat milk" && todos.editingID == nil)
    #expect(todos.focus == .newTodo)
    todos.startEditing(id: ids[1])
    todos.editTitle.value = "Run"
    todos.cancelEdit()
    #expect(todos.todos[1].title == "Walk", "Escape keeps the title")
    todos.startEditing(id: ids[1])
    todos.editTitle.value = "  "
    todos.commitEdit()
    #expect(todos.todos.map(\.title) == ["Buy oat milk"], "an emptied title deletes")
  }

  @Test func filtersFollowThePathTailBothWays() async {
    let todos = await loaded()
    add("One", "Two", "Three", to: todos)
    todos.toggle(id: todos.todos[1].id)
    todos.show(.active)
    #expect(todos.rows.map(\.title) == ["One", "Three"])
    #expect(todos.pathTail.value == ["active"])
    todos.pathTail.value = ["completed"]  // Back, or a link
    #expect(todos.filter == .completed && todos.rows.map(\.title) == ["Two"])
    todos.pathTail.value = []
    #expect(todos.filter == .all && todos.rows.count == 3)
    todos.pathTail.value = ["nonsense"]
    #expect(todos.filter == .all, "an unknown tail changes nothing")
    // A toggle under a filter takes the row out of it.
    todos.show(.active)
    todos.toggle(id: todos.todos[0].id)
    #expect(todos.rows.map(\.title) == ["Three"])
  }

  @Test func clearCompletedAndDestroy() async {
    let todos = await loaded()
    add("One", "Two", "Three", to: todos)
    todos.toggle(id: todos.todos[0].id)
    todos.toggle(id: todos.todos[2].id)
    todos.clearCompleted()
    #expect(todos.todos.map(\.title) == ["Two"] && todos.completedCount == 0)
    todos.destroy(id: todos.todos[0].id)
    #expect(todos.isEmpty && todos.rows.isEmpty)
  }

  @Test func theListIsKeptPerListAndComesBackOnANewScreen() async {
    let store = InMemoryTodoStore()
    let first = await loaded(store, list: "browser-1")
    add("Milk", "Bread", to: first)
    first.toggle(id: first.todos[1].id)
    await first.saved()
    let again = await loaded(store, list: "browser-1")
    #expect(again.todos == first.todos)
    add("Eggs", to: again)
    #expect(again.todos.map(\.id) == [1, 2, 3], "ids go on from the saved ones")
    let other = await loaded(store, list: "browser-2")
    #expect(other.isEmpty, "another browser has its own list")
  }

  @Test func tabMovesFocusBetweenTheFieldAndTheList() async {
    let todos = await loaded()
    todos.tabPressed()
    #expect(todos.focus == .newTodo, "an empty list takes no focus")
    add("One", to: todos)
    todos.tabPressed()
    #expect(todos.focus == .list)
    todos.tabPressed()
    #expect(todos.focus == .newTodo)
    todos.tabPressed()
    todos.destroy(id: todos.todos[0].id)
    #expect(todos.focus == .newTodo, "the emptied list gives focus back to the field")
  }

  @Test func aBrokenStoreIsReportedAndTheListStillWorks() async {
    let todos = await loaded(BrokenStore())
    #expect(todos.errorMessage == TodoStoreError.unavailable("").userMessage)
    add("Milk", to: todos)
    await todos.saved()
    #expect(todos.todos.map(\.title) == ["Milk"], "nothing lost on the page")
  }

  @Test func theScreenIsFreedWithItsStore() async {
    await withLeakTracking { leaks in
      let todos = leaks.track(await loaded())
      add("Milk", to: todos)
      await todos.saved()
    }
  }
}
