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
struct TodosScreen: WebScreen {
  let todos: TodoListViewModel

  var body: Markup<WebCall> {
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
        .onSubmit { todos.addRequested(id: $0?.id) }  // by the gesture: a resent Enter adds once
        .focused(todos.focus == .newTodo)
      }
      section(.class("main"), .hidden(todos.isEmpty)) {
        checkbox(todos.allCompleted, label: "Mark all as complete", .class("toggle-all"))
          .onChange(todos.setAllCompleted)
        label { "Mark all as complete" }.onClick { todos.setAllCompleted(!todos.allCompleted) }
        ul(.class("todo-list")) {
          ForEach(todos.rows) { row in
            // A row is drawn again only when it changes: a keystroke draws none.
            Cached(row) { item(row) }
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
              .onClick { todos.show(filter) }
            }
          }
        }
        button("Clear completed", .class("clear-completed"), .hidden(todos.completedCount == 0))
          .onClick(todos.clearCompleted)
      }
      // Copying needs the page's own script: a client hook, given the list's text.
      div(.class("copy"), .hidden(todos.isEmpty)) {
        button("Copy list", .class("copy-list")).hook(.copyToClipboard, value: todos.listText)
          .onHookEvent("copied", todos.listCopied).onHookEvent("failed", todos.copyFailed)
        span(.class("copy-status"), .role("status")) { todos.copyStatus ?? "" }
      }
      p(.class("open-tabs"), .role("status"), .hidden(todos.openTabs == nil)) {
        todos.openTabs ?? ""
      }
    }
  }

  @MarkupBuilder<WebCall>
  private func item(_ row: TodoListViewModel.Row) -> Markup<WebCall> {
    let id = row.id  // what the calls keep of the row
    li(.class("completed", when: row.completed), .class("editing", when: row.isEditing)) {
      div(.class("view")) {
        checkbox(row.completed, label: "Toggle \(row.title)", .class("toggle"))
          .onChange { todos.setCompleted($0, id: id) }
        label { row.title }.onDoubleClick { todos.startEditing(id: id) }
        button(.class("destroy"), .ariaLabel("Delete \(row.title)"))
          .onClick { todos.destroy(id: id) }
      }
      if row.isEditing {
        // Focus is not the row's: the field follows it on its own.
        Component {
          textField(todos.editTitle, label: "Edit todo", .class("edit"))
            .onSubmit(todos.commitEdit).onCancel(todos.cancelEdit).onBlur(todos.commitEdit)
            .focused(todos.focus == .edit(row.id))
        }
      }
    }
  }
}

extension WebHook {
  /// Copies its value to the clipboard when its element is clicked, and says whether it did
  /// (`copied`, with the text, or `failed`): `copy-to-clipboard.js`.
  public static let copyToClipboard = WebHook("CopyToClipboard")
}
