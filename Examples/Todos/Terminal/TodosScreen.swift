import Tether
import TetherFlow
import TetherTerminal
import Todos

/// TodoMVC in the terminal: the same view model as the web page, which decides focus (Tab
/// goes between the new-item field and the list by its rule). In the list, Space toggles,
/// Enter or `e` edits in place, `x` deletes, `a` toggles all, `c` clears completed, `1` `2` `3`
/// filter; a field takes those characters as text while it has focus. The keys are shown on
/// screen.
final class TodosTerminalScreen: TerminalScreen {
  enum Action {
    case add, tab, moved(Int), edit(Int), toggle, editSelected, destroy, toggleAll, clear
    case show(TodoListViewModel.Filter), commit, cancel
  }

  private let todos: TodoListViewModel
  /// The list's selected row, as the list reports it.
  private var selected = 0

  init(_ todos: TodoListViewModel) { self.todos = todos }

  var body: TerminalMarkup<Action> {
    vstack {
      textField(todos.newTitle, placeholder: "What needs to be done?", label: "New todo")
        .onSubmit(.add).focused(todos.focus == .newTodo)
      text("")
      if let message = todos.errorMessage { text(message).foreground(.red) }
      if todos.isEmpty {
        spacer()
      } else {
        list(todos.rows, label: "Todos", onChoose: { .edit($0) }, onMove: { .moved($0) }) { row in
          text((row.completed ? "[x] " : "[ ] ") + row.title)
        }
        .focused(todos.focus == .list)
        .onKey(" ", .toggle).onKey("e", .editSelected).onKey("x", .destroy).onKey(.delete, .destroy)
        .onKey("a", .toggleAll).onKey("c", .clear)
        .onKey("1", .show(.all)).onKey("2", .show(.active)).onKey("3", .show(.completed))
      }
      if case .edit = todos.focus {
        text("Edit (Enter saves, Esc cancels):").dim()
        textField(todos.editTitle, label: "Edit todo").onSubmit(.commit).onCancel(.cancel)
          .focused(true)
      }
      if !todos.isEmpty { text(footer) }
      if let openTabs = todos.openTabs { text(openTabs).dim() }
      text(hint).dim()
    }
    .onKey(.tab, .tab).onKey(.backTab, .tab)
  }

  private var footer: String {
    let filters = TodoListViewModel.Filter.allCases.enumerated().map { index, filter in
      filter == todos.filter ? "[\(index + 1) \(filter.title)]" : " \(index + 1) \(filter.title) "
    }
    let clear = todos.completedCount > 0 ? "  c Clear completed" : ""
    return "\(todos.itemsLeft)  \(filters.joined(separator: " "))\(clear)"
  }

  private var hint: String {
    switch todos.focus {
    case .newTodo: "Type a todo, Enter adds · Tab list · Ctrl-C quit"
    case .list: "Space toggle · Enter/e edit · x delete · a all · Tab field · Esc back · q quit"
    case .edit: "Enter saves · Esc cancels"
    }
  }

  func handle(_ action: Action) {
    let rows = todos.rows
    let row = rows.indices.contains(selected) ? rows[selected] : nil
    switch action {
    case .add: todos.addRequested()
    case .tab: todos.tabPressed()
    case .moved(let index): selected = index
    case .edit(let index):
      if rows.indices.contains(index) { todos.startEditing(id: rows[index].id) }
    case .toggle: if let row { todos.toggle(id: row.id) }
    case .editSelected: if let row { todos.startEditing(id: row.id) }
    case .destroy: if let row { todos.destroy(id: row.id) }
    case .toggleAll: todos.toggleAllRequested()
    case .clear: todos.clearCompleted()
    case .show(let filter): todos.show(filter)
    case .commit: todos.commitEdit()
    case .cancel: todos.cancelEdit()
    }
  }
}
