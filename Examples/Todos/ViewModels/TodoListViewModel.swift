import Foundation
import Tether
import TetherFlow

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
  public struct Row: Identifiable, Equatable, Sendable {
    /// The item's id.
    public var id: Int
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
    case edit(Int)
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
  @Output public private(set) var editingID: Int? = nil
  /// Which control has focus.
  @Output public private(set) var focus: Focus = .newTodo
  /// Items not done.
  @Output public private(set) var activeCount = 0
  /// Items done.
  @Output public private(set) var completedCount = 0
  /// "1 item left", "3 items left".
  @Output public private(set) var itemsLeft = "0 items left"
  /// Why the list could not be loaded or saved, if it could not.
  @Output public private(set) var errorMessage: String? = nil

  /// Whether there are no items: the list and the footer are hidden.
  public var isEmpty: Bool { todos.isEmpty }
  /// Whether every item is done (the toggle-all box is ticked).
  public var allCompleted: Bool { !todos.isEmpty && activeCount == 0 }

  private let store: any TodoStore
  private let listID: String
  private var nextID = 1
  private var saving: Task<Void, Never>?
  private var focusBeforeEditing: Focus = .newTodo
  private var tailToken: ObservationToken?
  private let loading: Command<Void, [Todo], TodoStoreError>

  /// Creates the screen for the list `listID` of `store`.
  ///
  /// - Parameters:
  ///   - store: Where the list is kept.
  ///   - listID: Which list: one per browser (a cookie) or per terminal user.
  public init(store: any TodoStore, listID: String) {
    self.store = store
    self.listID = listID
    loading = Command(reentry: .refuse) { () async throws(TodoStoreError) -> [Todo] in
      try await store.load(list: listID)
    }
    tailToken = pathTail.observe { [weak self] tail in
      guard let self, let filter = Filter(pathTail: tail) else { return }
      show(filter)
    }
  }

  /// The screen appeared: load the list.
  public func viewDidLoad() async {
    switch await loading.run(()) {
    case .success(let loaded):
      nextID = (loaded.map(\.id).max() ?? 0) + 1
      apply(loaded)
    case .failure(let error):
      errorMessage = error.userMessage
    case .refused, .disabled, .cancelled:
      break
    }
  }

  /// Enter in the new-item field: adds an item with the trimmed title, unless it is empty,
  /// and clears the field.
  public func addRequested() {
    let text = newTitle.value.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { return }
    var list = todos
    list.append(Todo(id: nextID, title: text))
    nextID += 1
    newTitle.value = ""
    focus = .newTodo
    apply(list)
  }

  /// An item's toggle.
  ///
  /// - Parameters:
  ///   - completed: Done or not.
  ///   - id: The item.
  public func setCompleted(_ completed: Bool, id: Int) {
    guard let index = todos.firstIndex(where: { $0.id == id }),
      todos[index].completed != completed
    else { return }
    var list = todos
    list[index].completed = completed
    apply(list)
  }

  /// An item's toggle, flipped.
  ///
  /// - Parameter id: The item.
  public func toggle(id: Int) {
    guard let todo = todos.first(where: { $0.id == id }) else { return }
    setCompleted(!todo.completed, id: id)
  }

  /// The toggle-all box: every item done, or, when all are, none.
  ///
  /// - Parameter completed: Done or not, for every item.
  public func setAllCompleted(_ completed: Bool) {
    apply(todos.map { Todo(id: $0.id, title: $0.title, completed: completed) })
  }

  /// The toggle-all box flipped.
  public func toggleAllRequested() {
    setAllCompleted(!allCompleted)
  }

  /// An item's delete button.
  ///
  /// - Parameter id: The item.
  public func destroy(id: Int) {
    if editingID == id { endEditing() }
    apply(todos.filter { $0.id != id })
  }

  /// Double-click on an item (or its key in the terminal): edit its title in place.
  ///
  /// - Parameter id: The item.
  public func startEditing(id: Int) {
    guard let todo = todos.first(where: { $0.id == id }) else { return }
    editTitle.value = todo.title
    if editingID == nil { focusBeforeEditing = focus }
    editingID = id
    focus = .edit(id)
    apply(todos, save: false)
  }

  /// Enter in the edit field, or leaving it: saves the trimmed title; an empty one deletes
  /// the item.
  public func commitEdit() {
    guard let id = editingID else { return }
    let text = editTitle.value.trimmingCharacters(in: .whitespacesAndNewlines)
    endEditing()
    if text.isEmpty {
      destroy(id: id)
      return
    }
    apply(todos.map { $0.id == id ? Todo(id: id, title: text, completed: $0.completed) : $0 })
  }

  /// Escape in the edit field: leaves the item as it was.
  public func cancelEdit() {
    guard editingID != nil else { return }
    endEditing()
    apply(todos, save: false)
  }

  /// Removes every item that is done.
  public func clearCompleted() {
    apply(todos.filter { !$0.completed })
  }

  /// Tab: the next of the new-item field and the list (TetherFlow's `FocusOrder`); while an
  /// item is edited, Tab does nothing.
  public func tabPressed() {
    guard editingID == nil else { return }
    var order = FocusOrder<Focus>(isEmpty ? [.newTodo] : [.newTodo, .list], focused: focus)
    order.next()
    if let next = order.focused, next != focus { focus = next }
  }

  /// Shows the items `filter` keeps.
  ///
  /// - Parameter filter: The filter.
  public func show(_ filter: Filter) {
    guard filter != self.filter else { return }
    self.filter = filter
    if pathTail.value != filter.pathTail { pathTail.value = filter.pathTail }
    apply(todos, save: false)
  }

  /// Waits until every change so far is saved.
  public func saved() async {
    await saving?.value
  }

  /// Focus goes back where it was when editing began (the list, in a terminal).
  private func endEditing() {
    editingID = nil
    editTitle.value = ""
    focus = focusBeforeEditing
  }

  /// Sets the items, the outputs that follow from them, and saves them (in order: each save
  /// waits for the one before).
  private func apply(_ list: [Todo], save: Bool = true) {
    if list != todos { todos = list }
    // An emptied list cannot keep focus: it goes back to the new-item field.
    if list.isEmpty, focus == .list { focus = .newTodo }
    let newRows = list.filter(filter.includes).map {
      Row(id: $0.id, title: $0.title, completed: $0.completed, isEditing: $0.id == editingID)
    }
    if newRows != rows { rows = newRows }
    let active = list.count { !$0.completed }
    if active != activeCount { activeCount = active }
    if list.count - active != completedCount { completedCount = list.count - active }
    let left = "\(active) \(active == 1 ? "item" : "items") left"
    if left != itemsLeft { itemsLeft = left }
    guard save else { return }
    let previous = saving
    let store = self.store
    let listID = self.listID
    saving = Task { [weak self] in
      await previous?.value
      do throws(TodoStoreError) {
        try await store.save(list, list: listID)
      } catch {
        self?.errorMessage = error.userMessage
      }
    }
  }
}
