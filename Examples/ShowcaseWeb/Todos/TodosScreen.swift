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
    case add, commitEdit, cancelEdit, clearCompleted
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
      element("style") { Self.style }
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
        .onSubmit(.add)
        .focused(todos.focus == .newTodo)
      }
      section(.class("main"), .hidden(todos.isEmpty)) {
        checkbox(todos.allCompleted, label: "Mark all as complete", .class("toggle-all"))
          .onChange { .setAllCompleted($0) }
        label { "Mark all as complete" }.onClick(.setAllCompleted(!todos.allCompleted))
        ul(.class("todo-list")) {
          ForEach(todos.rows) { row in item(row) }
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
                .href("/" + (["todos"] + filter.pathTail).joined(separator: "/")),
                .class("selected", when: filter == todos.filter)
              ) { filter.title }
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
        textField(todos.editTitle, label: "Edit todo", .class("edit"))
          .onSubmit(.commitEdit).onCancel(.cancelEdit).onBlur(.commitEdit)
          .focused(todos.focus == .edit(row.id))
      }
    }
  }

  func handle(_ action: Action, gesture: WebGesture?) {
    switch action {
    // The gesture's id names the new item: a page that sends Enter again (its server died
    // before acknowledging it) adds nothing twice.
    case .add: todos.addRequested(id: gesture?.id)
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

  /// The item being edited, so that a page whose server dies during an edit goes on with it on
  /// the next server: the Enter it sends again then finds the edit field there.
  var restorationKey: String? { todos.editingID.map { Self.editing + $0 } }

  func restore(_ key: String) {
    guard key.hasPrefix(Self.editing) else { return }
    todos.resumeEditing(id: String(key.dropFirst(Self.editing.count)))
  }

  private static let editing = "edit:"

  /// Settled once every change is written: the page keeps a gesture (and sends it again after
  /// a reconnect) until then.
  var isSettled: Bool { todos.isSaved }

  func settled() async { await todos.saved() }

  /// The template's look, written for this page: no child combinators or entities, since a
  /// style element's text is written escaped.
  static let style = """
    .todoapp { background: #fff; color: #111; margin: 4.2rem 0 1rem; position: relative;
      box-shadow: 0 2px 4px rgba(0,0,0,0.2), 0 25px 50px rgba(0,0,0,0.1); }
    .todoapp h1 { position: absolute; top: -3.6rem; width: 100%; font-size: 3.5rem;
      font-weight: 200; text-align: center; color: #b83f45; margin: 0; }
    .todoapp .header { margin: 0; padding: 0; border: 0; }
    .new-todo, .edit { width: 100%; font: inherit; font-size: 1.4rem; line-height: 1.4em;
      border: 0; padding: 0.9rem 1rem 0.9rem 3.6rem; box-sizing: border-box; color: inherit;
      background: rgba(0,0,0,0.003); box-shadow: inset 0 -2px 1px rgba(0,0,0,0.03); }
    .new-todo::placeholder { font-style: italic; color: #767676; }
    .todoapp .main { position: relative; border-top: 1px solid #e6e6e6; }
    .toggle-all { position: absolute; right: 100%; bottom: 100%; opacity: 0; width: 1px;
      height: 1px; border: 0; }
    .toggle-all + label { position: absolute; top: -3.4rem; left: 0; width: 3.4rem;
      height: 3.4rem; font-size: 0; display: flex; align-items: center; justify-content: center;
      cursor: pointer; }
    .toggle-all + label::before { content: "❯"; font-size: 1.4rem; color: #767676;
      transform: rotate(90deg); }
    .toggle-all:checked + label::before { color: #111; }
    .toggle-all:focus-visible + label { outline: 2px solid #b83f45; }
    .todo-list { margin: 0; padding: 0; list-style: none; }
    .todo-list li { position: relative; font-size: 1.4rem; border-bottom: 1px solid #ededed; }
    .todo-list li .view { display: flex; align-items: center; }
    .todo-list li .toggle { width: 1.6rem; height: 1.6rem; margin: 0 0.9rem 0 1rem;
      accent-color: #3a7d5c; flex: none; }
    .todo-list li label { flex: 1; padding: 0.9rem 0.5rem; word-break: break-all;
      line-height: 1.2; }
    .todo-list li.completed label { color: #767676; text-decoration: line-through; }
    .todo-list li .destroy { border: 0; background: none; font-size: 1.6rem; color: #af5b5e;
      width: 2.6rem; height: 2.6rem; margin-right: 0.5rem; cursor: pointer; opacity: 0; }
    .todo-list li .destroy::after { content: "×"; }
    .todo-list li:hover .destroy, .todo-list li .destroy:focus { opacity: 1; }
    .todo-list li.editing .view { display: none; }
    .todo-list li .edit { padding-left: 3.6rem; border: 1px solid #999; }
    .todoapp .footer { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center;
      justify-content: space-between; padding: 0.6rem 1rem; color: #595959; font-size: 0.9rem;
      border-top: 1px solid #e6e6e6; }
    .filters { display: flex; gap: 0.3rem; margin: 0; padding: 0; list-style: none; }
    .filters a { color: inherit; text-decoration: none; padding: 0.15rem 0.45rem;
      border: 1px solid transparent; border-radius: 3px; }
    .filters a:hover { border-color: #e8bdbd; }
    .filters a.selected { border-color: #ce4646; }
    .clear-completed { border: 0; background: none; color: inherit; font: inherit;
      cursor: pointer; }
    .clear-completed:hover { text-decoration: underline; }
    .todoapp .error { color: #b00020; padding: 0.5rem 1rem; margin: 0; }
    .todoapp [hidden] { display: none; }
    @media (prefers-color-scheme: dark) {
      .todoapp { background: #1c1c21; color: #f2f2f7; }
      .todo-list li { border-bottom-color: #2c2c33; }
      .todo-list li.completed label, .new-todo::placeholder, .todoapp .footer { color: #a0a0a8; }
    }
    """
}
