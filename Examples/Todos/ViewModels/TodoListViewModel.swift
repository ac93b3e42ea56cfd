import Foundation
import Tether
import TetherFlow
import TetherPubSub

/// TodoMVC's one screen (https://github.com/tastejs/todomvc, `app-spec.md`): a field for new
/// items, the list with its filter, each item's toggle, edit in place and delete, toggle all,
/// the count left and clear completed. Every rule of the specification is here; the terminal
/// and the web views only map gestures to these inputs and these outputs to cells or HTML.
///
/// The list is kept in a ``TodoStore`` under `listID` after every change, in order, so a
/// reload (the web page) or a new run (the terminal) shows it again.
@MainActor
public final class TodoListViewModel {
  /// Which items the list shows.
  public enum Filter: String, CaseIterable, Sendable {
    /// Every item.
    case all
    /// Items not done.
    case active
    /// Items done.
    case completed

    /// The filter's link text.
    public var title: String {
      switch self {
      case .all: "All"
      case .active: "Active"
      case .completed: "Completed"
      }
    }

    /// The filter's part of the screen's path: none for all, `active`, `completed`.
    public var pathTail: [String] { self == .all ? [] : [rawValue] }

    /// The filter a path tail names, if any.
    ///
    /// - Parameter tail: The path components after the screen's own.
    public init?(pathTail tail: [String]) {
      switch tail {
      case []: self = .all
      case ["active"]: self = .active
      case ["completed"]: self = .completed
      default: return nil
      }
    }

    func includes(_ todo: Todo) -> Bool {
      switch self {
      case .all: true
      case .active: !todo.completed
      case .completed: todo.completed
      }
    }
  }

  /// One row of the list as shown.
  public struct Row: Identifiable, Hashable, Sendable {
    /// The item's id.
    public var id: String
    /// Its title.
    public var title: String
    /// Whether it is done.
    public var completed: Bool
    /// Whether it is being edited in place.
    public var isEditing: Bool
  }

  /// Which control has focus: the screen's state, which the views apply.
  public enum Focus: Hashable, Sendable {
    /// The new-item field (on appear, and after adding).
    case newTodo
    /// The list (a terminal moves a selection in it; a page focuses its controls itself).
    case list
    /// The edit field of the item with this id.
    case edit(String)
  }

  /// The screen's title.
  public let title = "Todos"
  /// The new item's title as typed: the field writes it, and `addRequested()` clears it.
  public let newTitle = MutableProperty("")
  /// The title of the item being edited, as typed.
  public let editTitle = MutableProperty("")
  /// The filter as path components (`[]`, `["active"]`, `["completed"]`), both ways: the flow
  /// gives it to the screen, so the address follows the filter and Back sets it.
  public let pathTail = MutableProperty<[String]>([])

  /// Every item, in order.
  @Output public private(set) var todos: [Todo] = []
  /// The filter.
  @Output public private(set) var filter: Filter = .all
  /// The rows the filter shows.
  @Output public private(set) var rows: [Row] = []
  /// The item being edited, if any.
  @Output public private(set) var editingID: String? = nil
  /// Which control has focus.
  @Output public private(set) var focus: Focus = .newTodo
  /// Items not done.
  @Derived(\TodoListViewModel.$todos, { $0.count { !$0.completed } }) public var activeCount: Int
  /// Items done.
  @Derived(\TodoListViewModel.$todos, { $0.count(where: \.completed) })
  public var completedCount: Int
  /// What follows the number in ``itemsLeft``: "item left", "items left" (the web's template
  /// sets the number apart).
  @Derived(\TodoListViewModel.$activeCount, { $0 == 1 ? "item left" : "items left" })
  public var itemsLeftNoun: String
  /// "1 item left", "3 items left".
  @Derived(\TodoListViewModel.$activeCount, { "\($0) \($0 == 1 ? "item" : "items") left" })
  public var itemsLeft: String
  /// Why the list could not be loaded or saved, if it could not; the screen keeps trying, and
  /// the message goes once the store answers again.
  @Output public private(set) var errorMessage: String? = nil

  /// "Open in 2 tabs" while this list is open in more than one tab or terminal, on any node
  /// (presence, with a `PubSub`); `nil` otherwise.
  @Output public private(set) var openTabs: String? = nil

  /// The list as plain text, one item a line (`[x] Walk the dog`): what "Copy list" copies.
  @Derived(
    \TodoListViewModel.$todos,
    { $0.map { ($0.completed ? "[x] " : "[ ] ") + $0.title }.joined(separator: "\n") })
  public var listText: String
  /// What the last copy of the list did ("Copied 3 todos"), until the list changes.
  @Output public private(set) var copyStatus: String? = nil

  /// The list's text, `text`, was copied to the clipboard (by the page).
  public func listCopied(_ text: String) {
    let count = text.isEmpty ? 0 : text.split(separator: "\n").count
    copyStatus = "Copied \(count) \(count == 1 ? "todo" : "todos")"
  }

  /// The page could not copy the list (the browser refused).
  public func copyFailed() {
    copyStatus = "Could not copy: the browser did not allow it"
  }

  /// Whether there are no items: the list and the footer are hidden.
  public var isEmpty: Bool { todos.isEmpty }
  /// Whether every item is done (the toggle-all box is ticked).
  public var allCompleted: Bool { !todos.isEmpty && activeCount == 0 }

  private let store: any TodoStore
  private let listID: String
  private let pubsub: PubSub?
  /// Every tab showing this list, while the screen follows them.
  private var tabs: Property<[PresenceEntry<TodoTab>]>?
  private var tabsToken: ObservationToken?
  /// Ends this screen's presence with it.
  public let lifetime = Lifetime()
  private let makeID: @MainActor () -> String
  private var focusBeforeEditing: Focus = .newTodo
  /// The edit ``resumeEditing(id:)`` goes on with once the list is loaded.
  private var editToResume: String?
  private var tailToken: ObservationToken?
  private let loading: Command<Void, TodoList, TodoStoreError>

  /// The newest list the store has shown (loaded, or from ``TodoStore/changes(of:)``).
  private let stored: Property<TodoList?>
  private var storedToken: ObservationToken?
  /// The list as stored with the changes made here on top, written in order and retried while
  /// the store is down (TetherFlow's `OptimisticWrites`): a change is on screen before it is
  /// saved, and a change from elsewhere does not take it away.
  private let writes: OptimisticWrites<[Todo], TodoChange, TodoStoreError>
  private var writesTokens: [ObservationToken] = []
  /// Why a title or a change was refused for good, shown until the next change is made (a
  /// store's outage message, by contrast, goes as soon as the store answers).
  private var refusal: String?

  /// Creates the screen for the list `listID` of `store`.
  ///
  /// - Parameters:
  ///   - store: Where the list is kept.
  ///   - listID: Which list: one per browser (a cookie) or per terminal user.
  ///   - pubsub: Where the tabs showing a list say they are there (``openTabs``); none unless
  ///     given.
  ///   - retryDelay: How long to wait before trying a failed load or write again.
  ///   - clock: The clock that waits.
  ///   - makeID: Makes the id of an item added without one (see ``addRequested(id:)``).
  public init(
    store: any TodoStore, listID: String, pubsub: PubSub? = nil, retryDelay: Duration = .seconds(1),
    clock: any Clock<Duration> = ContinuousClock(),
    makeID: @escaping @MainActor () -> String = { UUID().uuidString.lowercased() }
  ) {
    self.store = store
    self.listID = listID
    self.pubsub = pubsub
    self.makeID = makeID
    loading = Command(reentry: .refuse) { () async throws(TodoStoreError) -> TodoList in
      try await store.load(list: listID)
    }
    // A refusal is for good: the change is dropped and the person told. An outage is tried
    // again until the store is back.
    writes = OptimisticWrites(
      initial: [], apply: { change, todos in change.applied(to: todos) },
      write: { change throws(TodoStoreError) in try await store.apply(change, to: listID) },
      load: { () throws(TodoStoreError) in
        let list = try await store.load(list: listID)
        return (list.todos, list.version)
      },
      retry: RetryPolicy(
        maximumAttempts: .max, clock: clock,
        when: { if case .refused = $0 { false } else { true } }
      ) { _ in retryDelay })
    // Changes made anywhere — another tab, another node — arrive as an `AsyncSequence`; the
    // property takes each one, and the screen merges it with its own unsaved changes.
    stored = Property(initial: nil, then: store.changes(of: listID).map { Optional($0) })
    storedToken = stored.observe { [weak self] list in
      guard let self, let list else { return }
      receive(list)
    }
    tailToken = pathTail.observe { [weak self] tail in
      guard let self, let filter = Filter(pathTail: tail) else { return }
      show(filter)
    }
    writesTokens = [
      writes.$value.observe { [weak self] _ in self?.refresh() },
      writes.$outage.observe { [weak self] outage in
        guard let self else { return }
        errorMessage = outage?.userMessage ?? refusal
      },
      writes.dropped.observe { [weak self] _, error in
        guard let self else { return }
        refusal = error.userMessage
        errorMessage = refusal
      },
    ]
  }

  /// The screen appeared: load the list (and, if the store does not answer, keep trying), and
  /// say this tab is showing it.
  public func viewDidLoad() async {
    await followTabs()
    switch await loading.run() {
    case .success(let loaded):
      receive(loaded)
    case .failure(let error):
      errorMessage = error.userMessage
      writes.loadIfNeeded()
    case .refused, .disabled, .cancelled:
      break
    }
  }

  /// Tracks this screen on the list's presence topic until it is gone, and counts the tabs.
  private func followTabs() async {
    guard let pubsub, tabs == nil else { return }
    let topic = PresenceTopic<TodoTab>("todos.\(listID).tabs")
    let tabs = pubsub.presence(on: topic)
    self.tabs = tabs
    tabsToken = tabs.observe { [weak self] entries in
      self?.openTabs = entries.count > 1 ? "Open in \(entries.count) tabs" : nil
    }
    // The count is a courtesy: a list whose id cannot name a topic, or a node whose transport
    // is down, shows none, and the list works as ever.
    try? await pubsub.track(makeID(), meta: TodoTab(), on: topic, owner: self)
  }

  /// Enter in the new-item field: adds an item with the trimmed title, unless it is empty,
  /// and clears the field.
  ///
  /// - Parameter id: The new item's id. A gesture that may be sent again (a page whose server
  ///   died before answering) passes an id of its own, the same each time, so the retry adds
  ///   nothing twice; `nil` makes a new one.
  public func addRequested(id: String? = nil) {
    let text = String(
      newTitle.value.trimmingCharacters(in: .whitespacesAndNewlines)
        .prefix(TodoChange.maximumTitleLength))
    guard !text.isEmpty else { return }
    // Text the store would refuse is refused here, where the person sees why; the field keeps
    // it to mend.
    if let refusal = TextInputRule.oneLine.refusal(of: text, naming: "A title")
      ?? (todos.count >= TodoChange.maximumItems ? TodoChange.listFullMessage : nil)
    {
      self.refusal = refusal
      errorMessage = refusal
      return
    }
    newTitle.value = ""
    focus = .newTodo
    submit(.add(Todo(id: id ?? makeID(), title: text)))
  }

  /// An item's toggle.
  ///
  /// - Parameters:
  ///   - completed: Done or not.
  ///   - id: The item.
  public func setCompleted(_ completed: Bool, id: String) {
    guard let todo = todos.first(where: { $0.id == id }), todo.completed != completed else {
      return
    }
    submit(.setCompleted(ids: [id], completed: completed))
  }

  /// An item's toggle, flipped.
  ///
  /// - Parameter id: The item.
  public func toggle(id: String) {
    guard let todo = todos.first(where: { $0.id == id }) else { return }
    setCompleted(!todo.completed, id: id)
  }

  /// The toggle-all box: every item done, or, when all are, none.
  ///
  /// - Parameter completed: Done or not, for every item.
  public func setAllCompleted(_ completed: Bool) {
    let changing = todos.filter { $0.completed != completed }.map(\.id)
    guard !changing.isEmpty else { return }
    submit(.setCompleted(ids: changing, completed: completed))
  }

  /// The toggle-all box flipped.
  public func toggleAllRequested() {
    setAllCompleted(!allCompleted)
  }

  /// An item's delete button.
  ///
  /// - Parameter id: The item.
  public func destroy(id: String) {
    if editingID == id { endEditing() }
    guard todos.contains(where: { $0.id == id }) else {
      refresh()
      return
    }
    submit(.delete(ids: [id]))
  }

  /// Double-click on an item (or its key in the terminal): edit its title in place.
  ///
  /// - Parameter id: The item.
  public func startEditing(id: String) {
    guard let todo = todos.first(where: { $0.id == id }) else { return }
    editTitle.value = todo.title
    if editingID == nil { focusBeforeEditing = focus }
    editingID = id
    focus = .edit(id)
    refresh()
  }

  /// Goes on editing the item `id` on a screen built afresh (its page's server died during the
  /// edit): at once if the list is loaded, else as soon as it is. The page then sends its
  /// typed text and its Enter again, and they reach this edit.
  ///
  /// - Parameter id: The item that was being edited.
  public func resumeEditing(id: String) {
    if !writes.isLoaded {
      editToResume = id
    } else {
      startEditing(id: id)
    }
  }

  /// Enter in the edit field, or leaving it: saves the trimmed title; an empty one deletes
  /// the item.
  public func commitEdit() {
    guard let id = editingID else { return }
    let text = String(
      editTitle.value.trimmingCharacters(in: .whitespacesAndNewlines)
        .prefix(TodoChange.maximumTitleLength))
    if let refusal = TextInputRule.oneLine.refusal(of: text, naming: "A title") {
      self.refusal = refusal
      errorMessage = refusal
      return
    }
    endEditing()
    if text.isEmpty {
      destroy(id: id)
      return
    }
    guard let todo = todos.first(where: { $0.id == id }), todo.title != text else {
      refresh()
      return
    }
    submit(.setTitle(id: id, title: text))
  }

  /// Escape in the edit field: leaves the item as it was.
  public func cancelEdit() {
    guard editingID != nil else { return }
    endEditing()
    refresh()
  }

  /// Removes every item that is done.
  public func clearCompleted() {
    let done = todos.filter(\.completed).map(\.id)
    guard !done.isEmpty else { return }
    submit(.delete(ids: done))
  }

  /// Tab: the next of the new-item field and the list (TetherFlow's `FocusOrder`); while an
  /// item is edited, Tab does nothing.
  public func tabPressed() {
    guard editingID == nil else { return }
    var order = FocusOrder<Focus>(isEmpty ? [.newTodo] : [.newTodo, .list], focused: focus)
    order.next()
    if let next = order.focused { focus = next }
  }

  /// Shows the items `filter` keeps.
  ///
  /// - Parameter filter: The filter.
  public func show(_ filter: Filter) {
    guard filter != self.filter else { return }
    self.filter = filter
    if pathTail.value != filter.pathTail { pathTail.value = filter.pathTail }
    refresh()
  }

  /// Waits until every change made here so far is written (if the store is down, until it is
  /// back).
  public func saved() async {
    await writes.saved()
  }

  /// Whether every change made here is written: nothing would be lost if this process ended
  /// now.
  public var isSaved: Bool { writes.isSaved }

  /// Focus goes back where it was when editing began (the list, in a terminal).
  private func endEditing() {
    editingID = nil
    editTitle.value = ""
    focus = focusBeforeEditing
  }

  /// A snapshot from the store: shown unless a newer one was.
  private func receive(_ list: TodoList) {
    writes.receive(list.todos, version: list.version)
    if writes.isLoaded, let id = editToResume {
      editToResume = nil
      startEditing(id: id)
    }
  }

  /// Shows `change` at once, and writes it (after the changes before it).
  private func submit(_ change: TodoChange) {
    // A new change takes the last refusal's message away once it is written.
    refusal = nil
    writes.submit(change)
  }

  /// Shows the stored list with the changes made here on top, and the outputs that follow.
  private func refresh() {
    let list = writes.value
    // An item deleted elsewhere while it was edited here: the edit ends.
    if let editingID, !list.contains(where: { $0.id == editingID }) { endEditing() }
    // A copy's confirmation speaks of the list as it was copied.
    if list != todos { copyStatus = nil }
    // Each output is Equatable: one set to the value it holds delivers nothing.
    todos = list
    // An emptied list cannot keep focus: it goes back to the new-item field.
    if list.isEmpty, focus == .list { focus = .newTodo }
    rows = list.filter(filter.includes).map {
      Row(id: $0.id, title: $0.title, completed: $0.completed, isEditing: $0.id == editingID)
    }
  }
}

/// A gesture's effect is kept once every change it made is written: a page forgets the gesture
/// only then, and sends it again to the next server if this one dies first.
extension TodoListViewModel: SettlingViewModel {
  /// Whether every change is written (``isSaved``).
  public var isSettled: Bool { isSaved }

  /// Returns once every change is written (``saved()``).
  public func settled() async { await saved() }
}

/// The item being edited travels with the page, so a page whose server dies during an edit
/// goes on with it on the next server: the Enter it sends again then finds the edit field.
extension TodoListViewModel: RestorableViewModel {
  /// The item being edited.
  public struct Restoration: Codable, Sendable, Equatable {
    /// The item's id.
    public var editing: String
  }

  /// The item being edited, if any.
  public var restoration: Restoration? { editingID.map { Restoration(editing: $0) } }

  /// Goes on editing the item (``resumeEditing(id:)``).
  public func restore(_ restoration: Restoration) { resumeEditing(id: restoration.editing) }
}

extension TodoListViewModel: @MainActor LifetimeProvider {}

/// What a tab showing a TodoMVC list says of itself on the list's presence topic: nothing but
/// that it is there.
public struct TodoTab: Codable, Sendable, Equatable {
  /// A tab.
  public init() {}
}
