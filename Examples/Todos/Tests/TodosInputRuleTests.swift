import Synchronization
import Testing
import Tether
import TetherTesting
import Todos

/// A store that refuses one title for good (as a store whose rules are stricter than the
/// screen's would), and keeps everything else.
private final class RefusingStore: TodoStore {
  let inner = InMemoryTodoStore()
  let attempts = Mutex(0)

  func load(list id: String) async throws(TodoStoreError) -> TodoList {
    await inner.load(list: id)
  }
  func apply(_ change: TodoChange, to id: String) async throws(TodoStoreError) -> Int {
    if case .add(let todo) = change, todo.title == "Refused" {
      attempts.withLock { $0 += 1 }
      throw .refused("This store keeps no item called Refused.")
    }
    return try await inner.apply(change, to: id)
  }
  func changes(of id: String) -> AsyncStream<TodoList> { inner.changes(of: id) }
}

/// Finding 7 of the second attack run: control characters in a title, and a write a store
/// refuses for good.
@MainActor
@Suite struct TodosInputRuleTests {
  @Test func aTitleWithAControlCharacterIsRefusedWithAVisibleMessage() async throws {
    let store = InMemoryTodoStore()
    let todos = TodoListViewModel(store: store, listID: "l")
    await todos.viewDidLoad()
    todos.newTitle.value = "Mi\u{0}lk"
    todos.addRequested()
    #expect(todos.errorMessage == "A title cannot hold control characters (U+0000).")
    #expect(todos.newTitle.value == "Mi\u{0}lk", "the field keeps the text to mend")
    #expect(todos.todos.isEmpty)
    todos.newTitle.value = "Milk"
    todos.addRequested()
    await todos.saved()
    #expect(await store.load(list: "l").todos.map(\.title) == ["Milk"])
    #expect(todos.errorMessage == nil, "a good write takes the message away")

    // An edit in place follows the same rule.
    todos.startEditing(id: todos.todos[0].id)
    todos.editTitle.value = "Milk\u{1B}[2J"
    todos.commitEdit()
    #expect(todos.errorMessage == "A title cannot hold control characters (U+001B).")
    #expect(todos.editingID != nil, "the edit stays open to mend")
    #expect(await store.load(list: "l").todos.map(\.title) == ["Milk"])
  }

  @Test func aWriteRefusedForGoodIsReportedAndDroppedAndLaterWritesGoThrough() async throws {
    let store = RefusingStore()
    let todos = TodoListViewModel(store: store, listID: "l", retryDelay: .seconds(3_600))
    await todos.viewDidLoad()
    todos.newTitle.value = "Refused"
    todos.addRequested()
    todos.newTitle.value = "Bread"
    todos.addRequested()
    // With an hour between retries, only a write that is not retried lets this finish.
    await todos.saved()
    #expect(store.attempts.withLock { $0 } == 1, "tried once, never again")
    #expect(try await store.load(list: "l").todos.map(\.title) == ["Bread"])
    #expect(todos.todos.map(\.title) == ["Bread"], "the refused item leaves the screen")
    #expect(todos.errorMessage == "This store keeps no item called Refused.")
    #expect(todos.isSaved)
  }
}
