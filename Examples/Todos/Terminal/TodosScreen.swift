import Tether
import TetherFlow
import TetherTerminal
import Todos

/// TodoMVC in the terminal: the same view model as the web page. The new-item field and the
/// list take turns with Tab (the view model's focus); in the list, Space toggles, Enter or `e`
/// edits in place, `x` deletes, `a` toggles all, `c` clears completed, `1` `2` `3` filter.
/// The keys are shown on screen.
@MainActor
final class TodosTerminalScreen: TerminalView {
  private let todos: TodoListViewModel
  private let newTodo: TextField
  private let edit: TextField
  private let list: ListView<TodoListViewModel.Row>
  private let listFocused: Property<Bool>
  private let editing: Property<Bool>

  init(_ todos: TodoListViewModel) {
    self.todos = todos
    listFocused = todos.$focus.map { $0 == .list }
    editing = todos.$focus.map { if case .edit = $0 { true } else { false } }
    newTodo = TextField(
      todos.newTitle, placeholder: "What needs to be done?",
      isFocused: todos.$focus.map { $0 == .newTodo }, onSubmit: { todos.addRequested() })
    edit = TextField(
      todos.editTitle, isFocused: editing, onSubmit: { todos.commitEdit() },
      onCancel: { todos.cancelEdit() })
    list = ListView(rows: todos.$rows, format: Self.row) { index in
      guard todos.rows.indices.contains(index) else { return }
      todos.startEditing(id: todos.rows[index].id)
    }
  }

  func preferredHeight(width: Int) -> Int? { nil }

  func draw(in canvas: inout Canvas, frame: Rect) {
    guard frame.height > 0 else { return }
    var y = frame.y
    newTodo.draw(in: &canvas, frame: Rect(x: frame.x, y: y, width: frame.width, height: 1))
    y += 2
    if let message = todos.errorMessage {
      canvas.draw(
        message, x: frame.x, y: y, maxWidth: frame.width, style: CellStyle(foreground: .red))
      y += 1
    }
    let footerRows = todos.isEmpty ? 1 : 3
    let listRows = max(0, frame.y + frame.height - y - footerRows - (editing.value ? 2 : 0))
    if !todos.isEmpty, listRows > 0 {
      if !listFocused.value, !editing.value {
        // The selection shows only while the list has focus.
        canvas.draw(" ", x: frame.x, y: y, maxWidth: 0)
      }
      list.draw(in: &canvas, frame: Rect(x: frame.x, y: y, width: frame.width, height: listRows))
      y += listRows
    }
    if editing.value {
      canvas.draw(
        "Edit (Enter saves, Esc cancels):", x: frame.x, y: y, maxWidth: frame.width,
        style: CellStyle(dim: true))
      edit.draw(in: &canvas, frame: Rect(x: frame.x, y: y + 1, width: frame.width, height: 1))
      y += 2
    }
    if !todos.isEmpty {
      let filters = TodoListViewModel.Filter.allCases.enumerated().map { index, filter in
        filter == todos.filter ? "[\(index + 1) \(filter.title)]" : " \(index + 1) \(filter.title) "
      }.joined(separator: " ")
      let clear = todos.completedCount > 0 ? "  c Clear completed" : ""
      canvas.draw(
        "\(todos.itemsLeft)  \(filters)\(clear)", x: frame.x, y: y, maxWidth: frame.width)
      y += 1
    }
    if let openTabs = todos.openTabs, y < frame.y + frame.height - 1 {
      canvas.draw(openTabs, x: frame.x, y: y, maxWidth: frame.width, style: CellStyle(dim: true))
    }
    let hint =
      switch todos.focus {
      case .newTodo: "Type a todo, Enter adds · Tab list · Ctrl-C quit"
      case .list: "Space toggle · Enter/e edit · x delete · a all · Tab field · Esc back · q quit"
      case .edit: "Enter saves · Esc cancels"
      }
    canvas.draw(
      hint, x: frame.x, y: frame.y + frame.height - 1, maxWidth: frame.width,
      style: CellStyle(dim: true))
  }

  func handle(_ key: Key) -> Bool {
    if key == .tab || key == .backTab {
      todos.tabPressed()
      return true
    }
    switch todos.focus {
    case .newTodo:
      return newTodo.handle(key)
    case .edit:
      return edit.handle(key)
    case .list:
      return handleInList(key)
    }
  }

  private func handleInList(_ key: Key) -> Bool {
    let rows = todos.rows
    let selected = rows.indices.contains(list.selection.value) ? rows[list.selection.value] : nil
    switch key {
    case .character(" "):
      if let selected { todos.toggle(id: selected.id) }
    case .character("e"):
      if let selected { todos.startEditing(id: selected.id) }
    case .character("x"), .delete:
      if let selected { todos.destroy(id: selected.id) }
    case .character("a"):
      todos.toggleAllRequested()
    case .character("c"):
      todos.clearCompleted()
    case .character("1"):
      todos.show(.all)
    case .character("2"):
      todos.show(.active)
    case .character("3"):
      todos.show(.completed)
    default:
      return list.handle(key)
    }
    return true
  }

  private static func row(_ row: TodoListViewModel.Row, width: Int) -> [String] {
    [(row.completed ? "[x] " : "[ ] ") + row.title]
  }
}
