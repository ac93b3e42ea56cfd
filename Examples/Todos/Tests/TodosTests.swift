import Clocks
import Synchronization
import Testing
import Tether
import TetherPubSub
import TetherTesting
import Todos

/// An in-memory store that fails every call while it is down: the outage path.
private final class FlakyStore: TodoStore {
  let inner = InMemoryTodoStore()
  let isDown = Mutex(true)
  let failures = Mutex(0)

  private func check() throws(TodoStoreError) {
    if isDown.withLock({ $0 }) {
      failures.withLock { $0 += 1 }
      throw .unavailable("disk on fire")
    }
  }
  func load(list id: String) async throws(TodoStoreError) -> TodoList {
    try check()
    return await inner.load(list: id)
  }
  func apply(_ change: TodoChange, to id: String) async throws(TodoStoreError) -> Int {
    try check()
    return try await inner.apply(change, to: id)
  }
  func changes(of id: String) -> AsyncStream<TodoList> { inner.changes(of: id) }
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

  /// Presence: each screen showing a list says so, and every screen of that list counts them;
  /// a closed screen leaves, and another list's screens are not counted.
  @Test func aListOpenInTwoTabsSaysSoAndAClosedTabLeaves() async throws {
    let pubsub = PubSub(transport: InProcessPubSub().transport())
    try await pubsub.start()
    let store = InMemoryTodoStore()
    let first = TodoListViewModel(store: store, listID: "shared", pubsub: pubsub)
    await first.viewDidLoad()
    await expectEventually { first.openTabs == nil && pubsub.subscriberCount == 1 }
    var second: TodoListViewModel? = TodoListViewModel(
      store: store, listID: "shared", pubsub: pubsub)
    await second?.viewDidLoad()
    let elsewhere = TodoListViewModel(store: store, listID: "another", pubsub: pubsub)
    await elsewhere.viewDidLoad()
    await expectEventually { first.openTabs == "Open in 2 tabs" }
    #expect(second?.openTabs == "Open in 2 tabs")
    #expect(elsewhere.openTabs == nil)
    second = nil
    await expectEventually { first.openTabs == nil }
    await pubsub.shutdown()
  }

  @Test func addingTrimsAppendsClearsAndIgnoresBlankTitles() async {
    let todos = await loaded()
    add("  Buy milk ", "Walk the dog", "   ", to: todos)
    #expect(todos.todos.map(\.title) == ["Buy milk", "Walk the dog"])
    #expect(todos.newTitle.value == "   ", "a blank title is not added, and not cleared")
    add("", to: todos)
    #expect(todos.todos.count == 2, "nor is an empty one")
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
    #expect(todos.itemsLeftNoun == "item left")
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
    #expect(first.isSaved)
    let again = await loaded(store, list: "browser-1")
    #expect(again.todos == first.todos)
    add("Eggs", to: again)
    #expect(Set(again.todos.map(\.id)).count == 3, "each item has its own id")
    let other = await loaded(store, list: "browser-2")
    #expect(other.isEmpty, "another browser has its own list")
  }

  @Test func aChangeOnOneScreenReachesAnotherShowingTheSameListAndNoOther() async throws {
    let store = InMemoryTodoStore()
    let tab1 = await loaded(store, list: "browser-1")
    let tab2 = await loaded(store, list: "browser-1")
    let stranger = await loaded(store, list: "browser-2")
    add("Milk", "Bread", to: tab1)
    await expectEventually { tab2.todos.map(\.title) == ["Milk", "Bread"] }
    tab2.toggle(id: tab2.todos[0].id)
    await expectEventually { tab1.todos.first?.completed == true }
    tab1.startEditing(id: tab1.todos[1].id)
    tab1.editTitle.value = "Rye bread"
    tab1.commitEdit()
    await expectEventually { tab2.todos.last?.title == "Rye bread" }
    tab2.destroy(id: tab2.todos[0].id)
    await expectEventually { tab1.todos.map(\.title) == ["Rye bread"] }
    #expect(stranger.isEmpty, "another browser's list never shows them")
  }

  @Test func aScreenBuiltAfreshGoesOnWithTheEditOnceItsListIsLoaded() async throws {
    let store = InMemoryTodoStore()
    _ = try await store.apply(.add(Todo(id: "m", title: "Milk")), to: "l")
    let todos = TodoListViewModel(store: store, listID: "l")
    // What a page's resume token restores, before the list is there.
    todos.resumeEditing(id: "m")
    #expect(todos.editingID == nil)
    await todos.viewDidLoad()
    #expect(todos.editingID == "m")
    #expect(todos.focus == .edit("m"))
    #expect(todos.editTitle.value == "Milk")
    // The Enter the page sends again then saves the edit.
    todos.editTitle.value = "Oat milk"
    todos.commitEdit()
    await todos.saved()
    #expect(await store.load(list: "l").todos.map(\.title) == ["Oat milk"])
    // On a loaded screen it starts at once.
    todos.resumeEditing(id: "m")
    #expect(todos.editingID == "m")
  }

  @Test func anItemDeletedElsewhereWhileEditedHereEndsTheEdit() async throws {
    let store = InMemoryTodoStore()
    let tab1 = await loaded(store, list: "l")
    let tab2 = await loaded(store, list: "l")
    add("Milk", to: tab1)
    await expectEventually { tab2.todos.count == 1 }
    tab1.startEditing(id: tab1.todos[0].id)
    tab2.destroy(id: tab2.todos[0].id)
    await expectEventually { tab1.editingID == nil && tab1.isEmpty }
    #expect(tab1.focus == .newTodo)
  }

  @Test func anAddRetriedWithItsIDAddsOnce() async {
    let store = InMemoryTodoStore()
    let page = await loaded(store, list: "l")
    page.newTitle.value = "Milk"
    page.addRequested(id: "gesture-7")
    await page.saved()
    // The node died before answering; the page sends the gesture again to a rebuilt screen.
    let rebuilt = await loaded(store, list: "l")
    rebuilt.newTitle.value = "Milk"
    rebuilt.addRequested(id: "gesture-7")
    await rebuilt.saved()
    #expect(await store.load(list: "l").todos.map(\.title) == ["Milk"])
    #expect(rebuilt.todos.map(\.id) == ["gesture-7"])
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

  @Test func aStoreThatIsDownIsReportedNothingIsLostAndItRecovers() async throws {
    let store = FlakyStore()
    let clock = TestClock()
    let todos = TodoListViewModel(store: store, listID: "a", clock: clock)
    await todos.viewDidLoad()
    #expect(todos.errorMessage == TodoStoreError.unavailable("").userMessage)
    add("Milk", "Bread", to: todos)
    todos.toggle(id: todos.todos[0].id)
    #expect(todos.todos.map(\.title) == ["Milk", "Bread"], "nothing lost on the page")
    #expect(!todos.isSaved)
    await expectEventually { store.failures.withLock { $0 } >= 2 }
    // The retry may start its 1 s wait only after an advance (a loaded machine): advance again
    // until it has run, rather than once onto a wait that had not begun.
    for _ in 0..<100 where store.failures.withLock({ $0 }) < 3 {
      await clock.advance(by: .seconds(1))
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(store.failures.withLock { $0 } >= 3)
    #expect(todos.errorMessage != nil, "still down, still said")
    store.isDown.withLock { $0 = false }
    for _ in 0..<100 where !todos.isSaved {
      await clock.advance(by: .seconds(1))
      try await Task.sleep(for: .milliseconds(10))
    }
    await todos.saved()
    #expect(todos.isSaved && todos.errorMessage == nil)
    let kept = await store.inner.load(list: "a").todos
    #expect(kept.map(\.title) == ["Milk", "Bread"] && kept[0].completed)
  }

  @Test func theScreenIsFreedWithItsStore() async {
    await withLeakTracking { leaks in
      let todos = leaks.track(await loaded())
      add("Milk", to: todos)
      await todos.saved()
    }
  }
}
