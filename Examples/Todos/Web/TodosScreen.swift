import ShowcaseFlows
import Tether
import TetherFlow
import TetherWeb
import Todos

/// TodoMVC on the web, in the template's markup and class names (`.todoapp`, `.new-todo`,
/// `.toggle-all`, `.todo-list li.completed/.editing`, `.toggle`, `label`, `.destroy`, `.edit`,
/// `.todo-count strong`, `.filters a.selected`, `.clear-completed`), so browser tests written
/// for TodoMVC apps drive it. It maps gestures to the view model's inputs and its outputs
/// to HTML; every rule is the view model's.
@MainActor
final class TodosScreen: WebScreen {
  enum Action {
    /// Enter in the new-todo field, with its gesture: its id names the new item, so a page
    /// that sends Enter again (its server died before acknowledging it) adds nothing twice.
    case add(WebGesture?)
    case commitEdit, cancelEdit, clearCompleted
    case edit(id: String)
    case destroy(id: String)
    case setCompleted(id: String, Bool)
    case setAllCompleted(Bool)
    case show(TodoListViewModel.Filter)
  }

  private let todos: TodoListViewModel

  init(_ todos: TodoListViewModel) {
    self.todos = todos
  }

  var body: Markup<Action> {
    section(.class("todoapp")) {
      // The error line is above the field: between the field and the list it would sit under
      // the toggle-all arrow. It, the list and the footer are always there, hidden when empty
      // (as the specification asks), so a first item changes attributes, not the app.
      p(.class("error"), .role("alert"), .hidden(todos.errorMessage == nil)) {
        todos.errorMessage ?? ""
      }
      header(.class("header")) {
        h1 { "todos" }
        textField(
          todos.newTitle, placeholder: "What needs to be done?", label: "New todo",
          .class("new-todo")
        )
        .onSubmit { .add($0) }
        .focused(todos.focus == .newTodo)
      }
      section(.class("main"), .hidden(todos.isEmpty)) {
        checkbox(todos.allCompleted, label: "Mark all as complete", .class("toggle-all"))
          .onChange { .setAllCompleted($0) }
        label { "Mark all as complete" }.onClick(.setAllCompleted(!todos.allCompleted))
        ul(.class("todo-list")) {
          ForEach(todos.rows) { row in
            // A row is drawn again only when it changes: a keystroke draws none.
            Cached(row) { self.item(row) }
          }
        }
      }
      footer(.class("footer"), .hidden(todos.isEmpty)) {
        span(.class("todo-count")) {
          strong { "\(todos.activeCount)" }
          " " + todos.itemsLeftNoun
        }
        ul(.class("filters")) {
          ForEach(TodoListViewModel.Filter.allCases, id: \.self) { filter in
            li {
              a(
                .href(TodosFlow.path(showing: filter)),
                .class("selected", when: filter == todos.filter)
              ) {
                filter.title
              }
              .onClick(.show(filter))
            }
          }
        }
        button("Clear completed", .class("clear-completed"), .hidden(todos.completedCount == 0))
          .onClick(.clearCompleted)
      }
    }
  }

  @MarkupBuilder<Action>
  private func item(_ row: TodoListViewModel.Row) -> Markup<Action> {
    li(.class("completed", when: row.completed), .class("editing", when: row.isEditing)) {
      div(.class("view")) {
        checkbox(row.completed, label: "Toggle \(row.title)", .class("toggle"))
          .onChange { .setCompleted(id: row.id, $0) }
        label { row.title }.onDoubleClick(.edit(id: row.id))
        button(.class("destroy"), .ariaLabel("Delete \(row.title)")).onClick(.destroy(id: row.id))
      }
      if row.isEditing {
        // Focus is not the row's: the field follows it on its own.
        Component {
          textField(self.todos.editTitle, label: "Edit todo", .class("edit"))
            .onSubmit(.commitEdit).onCancel(.cancelEdit).onBlur(.commitEdit)
            .focused(self.todos.focus == .edit(row.id))
        }
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .add(let gesture): todos.addRequested(id: gesture?.id)
    case .commitEdit: todos.commitEdit()
    case .cancelEdit: todos.cancelEdit()
    case .clearCompleted: todos.clearCompleted()
    case .edit(let id): todos.startEditing(id: id)
    case .destroy(let id): todos.destroy(id: id)
    case .setCompleted(let id, let completed): todos.setCompleted(completed, id: id)
    case .setAllCompleted(let completed): todos.setAllCompleted(completed)
    case .show(let filter): todos.show(filter)
    }
  }
}
