import Tether
import TetherFlow
@_spi(HandBuilt) import TetherWeb
import Todos

/// TodoMVC's web screen as it was written before markup (at 956fa93): a hand-built tree with
/// string ids, handlers registered by id, and a row cache — kept here as W8's baseline, so the
/// markup screen is measured beside it in one run. Its toggles' flags are kept here (the view
/// model no longer exports them), and its style element is left out (the markup screen's look
/// is a style sheet file, not part of the page).
///
/// TodoMVC on the web, in the template's markup and class names (`.todoapp`, `.new-todo`,
/// `.toggle-all`, `.todo-list li.completed/.editing`, `.toggle`, `label`, `.destroy`, `.edit`,
/// `.todo-count strong`, `.filters a.selected`, `.clear-completed`), so browser tests written
/// for TodoMVC apps can drive it. It maps gestures to the view model's inputs and its outputs
/// to HTML; every rule is the view model's.
@MainActor
final class HandBuiltTodosScreen: WebView {
  private let todos: TodoListViewModel
  private let newTodo: TextField
  private let edit: TextField
  private let newTodoFocused: Property<Bool>
  private let editFocused: Property<Bool>
  private let toggleAll: Checkbox
  /// Each row's toggle, by item id: made once per item, so its edit numbers and the version
  /// of the flag it shows carry from render to render.
  private var toggles: [String: Checkbox] = [:]
  /// Each row's flag, for its toggle.
  private var completions: [String: MutableProperty<Bool>] = [:]
  private let allCompleted = MutableProperty(false)
  /// Keeps the flags in step with the view model's rows, as its model update did.
  private var rowsToken: ObservationToken?
  /// Each row as last rendered, by what it shows: a keystroke in the new-item field, or a
  /// change to one row, renders no other row again.
  private let rows = WebRenderCache()

  /// What a row shows: the row, and while it is edited, the edit field's text.
  private struct RowKey: Hashable {
    var row: TodoListViewModel.Row
    var editText: String?
  }

  init(_ todos: TodoListViewModel) {
    self.todos = todos
    newTodoFocused = todos.$focus.map { $0 == .newTodo }
    editFocused = todos.$focus.map { if case .edit = $0 { true } else { false } }
    newTodo = TextField(
      todos.newTitle, placeholder: "What needs to be done?", label: "New todo",
      className: "new-todo", isFocused: newTodoFocused,
      // The gesture's id names the new item: a page that sends Enter again (its server died
      // before acknowledging it) adds nothing twice.
      onSubmit: { todos.addRequested(id: WebGesture.current?.id) })
    edit = TextField(
      todos.editTitle, label: "Edit todo", className: "edit", isFocused: editFocused,
      onSubmit: { todos.commitEdit() }, onCancel: { todos.cancelEdit() },
      onBlur: { todos.commitEdit() })
    toggleAll = Checkbox(
      Property(allCompleted), label: "Mark all as complete", className: "toggle-all"
    ) { todos.setAllCompleted($0) }
    rowsToken = todos.$rows.observe { [weak self] rows in
      guard let self else { return }
      if allCompleted.value != todos.allCompleted { allCompleted.value = todos.allCompleted }
      for row in rows where completions[row.id].map({ $0.value != row.completed }) ?? false {
        completions[row.id]?.value = row.completed
      }
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

  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    // The error line, the list and the footer are always in the page, hidden when empty (as
    // the specification asks), so the first item or error changes attributes and the list's
    // rows, never the whole app (and never the field being typed in). The error line is above
    // the field: between the field and the list it would sit under the toggle-all arrow.
    let error = todos.errorMessage
    var sections: [HTMLNode] = [
      .element(
        "p", id: "\(id).error",
        [("class", "error"), ("role", "alert")] + (error == nil ? [("hidden", "")] : []),
        [.text(error ?? "")]),
      .element(
        "header", id: "\(id).header", [("class", "header")],
        [
          .element("h1", id: "\(id).h1", [], [.text("todos")]),
          newTodo.render(id: "\(id).new", in: context),
        ]),
    ]
    sections.append(main(id: id, in: context))
    sections.append(footer(id: id, in: context))
    return .element("section", id: id, [("class", "todoapp")], sections)
  }

  private func main(id: String, in context: WebRenderContext) -> HTMLNode {
    let toggleAllID = "\(id).toggle-all"
    let listed = Set(todos.todos.map(\.id))
    toggles = toggles.filter { listed.contains($0.key) }
    completions = completions.filter { listed.contains($0.key) }
    let editText = todos.editingID == nil ? nil : todos.editTitle.value
    let items = todos.rows.map { row in
      rows.element(
        "\(id).todo-\(row.id)", key: RowKey(row: row, editText: row.isEditing ? editText : nil),
        in: context
      ) { id, context in item(row, id: id, in: context) }
    }
    rows.sweep()
    return .element(
      "section", id: "\(id).main",
      [("class", "main")] + (todos.isEmpty ? [("hidden", "")] : []),
      [
        toggleAll.render(id: toggleAllID, in: context),
        .element(
          "label", id: "\(id).toggle-all-label", [("for", toggleAllID)],
          [.text("Mark all as complete")]),
        .element(
          "ul", id: "\(id).list", [("class", "todo-list")], items),
      ])
  }

  /// The row's toggle: bound to the item's flag, each tick sent to the view model.
  private func toggle(for row: TodoListViewModel.Row) -> Checkbox {
    let label = "Toggle \(row.title)"
    if let toggle = toggles[row.id] {
      toggle.label = label
      return toggle
    }
    let todoID = row.id
    let completion = MutableProperty(row.completed)
    completions[todoID] = completion
    let toggle = Checkbox(Property(completion), label: label, className: "toggle") {
      [todos] in todos.setCompleted($0, id: todoID)
    }
    toggles[todoID] = toggle
    return toggle
  }

  private func item(
    _ row: TodoListViewModel.Row, id: String, in context: WebRenderContext
  ) -> HTMLNode {
    let todoID = row.id
    let toggle = "\(id).toggle"
    let label = "\(id).label"
    let destroy = "\(id).destroy"
    context.onDoubleClick(label) { [todos] in todos.startEditing(id: todoID) }
    context.onClick(destroy) { [todos] in todos.destroy(id: todoID) }
    var classes: [String] = []
    if row.completed { classes.append("completed") }
    if row.isEditing { classes.append("editing") }
    var children: [HTMLNode] = [
      .element(
        "div", id: "\(id).view", [("class", "view")],
        [
          self.toggle(for: row).render(id: toggle, in: context),
          .element("label", id: label, [("data-dblclick", "")], [.text(row.title)]),
          .element(
            "button", id: destroy,
            [("class", "destroy"), ("type", "button"), ("aria-label", "Delete \(row.title)")]),
        ])
    ]
    if row.isEditing { children.append(edit.render(id: "\(id).edit", in: context)) }
    return .element(
      "li", id: id, classes.isEmpty ? [] : [("class", classes.joined(separator: " "))], children)
  }

  private func footer(id: String, in context: WebRenderContext) -> HTMLNode {
    let left = todos.activeCount
    var parts: [HTMLNode] = [
      .element(
        "span", id: "\(id).count", [("class", "todo-count")],
        [
          .element("strong", id: "\(id).count-number", [], [.text("\(left)")]),
          .text(left == 1 ? " item left" : " items left"),
        ]),
      .element(
        "ul", id: "\(id).filters", [("class", "filters")],
        TodoListViewModel.Filter.allCases.map { filter in
          let link = "\(id).filter-\(filter.rawValue)"
          context.onClick(link) { [todos] in todos.show(filter) }
          var attributes: [(name: String, value: String)] = [
            ("href", "/" + (["todos"] + filter.pathTail).joined(separator: "/")),
            ("data-click", ""),
          ]
          if filter == todos.filter { attributes.insert(("class", "selected"), at: 0) }
          return .element(
            "li", id: "\(link).item", [],
            [.element("a", id: link, attributes, [.text(filter.title)])])
        }),
    ]
    let clear = "\(id).clear"
    var clearAttributes: [(name: String, value: String)] = [
      ("class", "clear-completed"), ("type", "button"),
    ]
    if todos.completedCount > 0 {
      context.onClick(clear) { [todos] in todos.clearCompleted() }
    } else {
      clearAttributes.append(("hidden", ""))
    }
    parts.append(.element("button", id: clear, clearAttributes, [.text("Clear completed")]))
    return .element(
      "footer", id: "\(id).footer",
      [("class", "footer")] + (todos.isEmpty ? [("hidden", "")] : []), parts)
  }
}
