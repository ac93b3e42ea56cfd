import Tether
import TetherFlow

/// A control as the last frame laid it out: where it stands, and what it sends.
@MainActor
struct TerminalFocusTarget<Action> {
  let id: String
  let frame: Rect
  let control: TerminalControl<Action>
}

/// What a frame of markup found: its controls in layout order, its shortcuts, and the control
/// the view model asks focus for.
@MainActor
struct TerminalMarkupFrame<Action> {
  var targets: [TerminalFocusTarget<Action>] = []
  var shortcuts: [(key: Key, action: Action)] = []
  var wanted: String?
}

/// Lays markup out in a frame and draws it. It runs twice per frame: once to find the controls
/// (so focus is settled before anything is drawn), once to draw with focus known.
@MainActor
struct TerminalMarkupRenderer<Action> {
  typealias Node = TerminalMarkup<Action>.Node
  typealias Layout = TerminalMarkupLayout<Action>

  /// The states kept from frame to frame, by control name.
  let states: TerminalControlStates
  /// Sends an action to the screen.
  let send: (Action) -> Void
  /// The focused control's name; `nil` while finding the controls.
  let focused: String?
  let drawing: Bool
  var canvas: Canvas
  var found = TerminalMarkupFrame<Action>()

  /// Lays out and draws `nodes` in `frame`, one under another.
  mutating func render(_ nodes: [Node], in frame: Rect) {
    stack(.vertical, spacing: 0, nodes, id: "s", frame: frame, style: .plain, inRow: false)
  }

  private mutating func node(
    _ node: Node, id: String, frame: Rect, style: CellStyle, inRow: Bool
  ) {
    guard frame.width > 0, frame.height > 0 else { return }
    switch node {
    case .text(let content, let wraps):
      guard drawing else { return }
      for (row, line) in Layout.lines(content, wraps: wraps, width: frame.width).prefix(
        frame.height
      ).enumerated() {
        canvas.draw(line, x: frame.x, y: frame.y + row, maxWidth: frame.width, style: style)
      }
    case .stack(let axis, let spacing, let nodes):
      stack(axis, spacing: spacing, nodes, id: id, frame: frame, style: style, inRow: inRow)
    case .box(let title, let nodes):
      box(title, nodes, id: id, frame: frame, style: style, inRow: inRow)
    case .control(let control):
      self.control(control, id: id, frame: frame, style: style, inRow: inRow)
    case .canvas(let view):
      if drawing { view.draw(in: &canvas, frame: frame) }
    case .spacer:
      break
    case .divider:
      if drawing {
        canvas.draw(
          String(repeating: "─", count: frame.width), x: frame.x, y: frame.y,
          style: style.adding(CellStyle(dim: true)))
      }
    case .group, .branch, .keyed:
      stack(.vertical, spacing: 0, [node], id: id, frame: frame, style: style, inRow: inRow)
    case .styled(let added, let inner):
      self.node(inner, id: id, frame: frame, style: style.adding(added), inRow: inRow)
    case .framed(let columns, let rows, let inner):
      let sized = Rect(
        x: frame.x, y: frame.y, width: min(columns ?? frame.width, frame.width),
        height: min(rows ?? frame.height, frame.height))
      self.node(inner, id: id, frame: sized, style: style, inRow: inRow)
    case .shortcut(let key, let action, let inner):
      if !drawing, !inRow { found.shortcuts.append((key, action)) }
      self.node(inner, id: id, frame: frame, style: style, inRow: inRow)
    }
  }

  private mutating func stack(
    _ axis: TerminalAxis, spacing: Int, _ nodes: [Node], id: String, frame: Rect,
    style: CellStyle, inRow: Bool
  ) {
    let children = Layout.children(of: nodes, under: id)
    let plain = children.map(\.node)
    switch axis {
    case .vertical:
      var y = frame.y
      let heights = Layout.heights(plain, spacing: spacing, width: frame.width, in: frame.height)
      for (child, rows) in zip(children, heights) {
        let rows = min(rows, frame.y + frame.height - y)
        // A child with no rows (an empty error line) takes no room and no spacing.
        guard rows > 0 else { continue }
        node(
          child.node, id: child.id, frame: Rect(x: frame.x, y: y, width: frame.width, height: rows),
          style: style, inRow: inRow)
        y += rows + spacing
      }
    case .horizontal:
      var x = frame.x
      for (child, columns) in zip(children, Layout.widths(plain, spacing: spacing, in: frame.width))
      {
        guard columns > 0 else { continue }
        node(
          child.node, id: child.id,
          frame: Rect(x: x, y: frame.y, width: columns, height: frame.height), style: style,
          inRow: inRow)
        x += columns + spacing
      }
    }
  }

  private mutating func box(
    _ title: String?, _ nodes: [Node], id: String, frame: Rect, style: CellStyle, inRow: Bool
  ) {
    if drawing, frame.width >= 2, frame.height >= 2 {
      // The box holding focus is drawn bright: in a board, it says which column keys go to.
      let holdsFocus = focused.map { $0.hasPrefix(id + ".") } ?? false
      let border = holdsFocus ? CellStyle(bold: true, foreground: .cyan) : CellStyle(dim: true)
      canvas.drawBox(
        frame, title: title ?? "", titleStyle: holdsFocus ? border : CellStyle(bold: true),
        rounded: true, borderStyle: border)
    }
    let inside = Rect(
      x: frame.x + 2, y: frame.y + 1, width: frame.width - 4, height: frame.height - 2)
    stack(.vertical, spacing: 0, nodes, id: id, frame: inside, style: style, inRow: inRow)
  }

  private mutating func control(
    _ control: TerminalControl<Action>, id: String, frame: Rect, style: CellStyle, inRow: Bool
  ) {
    if !drawing, !inRow {
      // A control that cannot take focus now (disabled, an empty list) cannot be asked for it.
      if control.isEnabled, control.isFocusable {
        found.targets.append(TerminalFocusTarget(id: id, frame: frame, control: control))
        if control.wantsFocus, found.wanted == nil { found.wanted = id }
      }
      if let key = control.key, let action = control.onPress, control.isEnabled {
        found.shortcuts.append((.character(key), action))
      }
    }
    let isFocused = drawing && !inRow && focused == id
    var style = style
    if !control.isEnabled { style = style.adding(CellStyle(dim: true)) }
    switch control.kind {
    case .button(let role):
      guard drawing else { return }
      var look = style.adding(CellStyle(bold: control.isEnabled, inverse: isFocused))
      if role == .destructive, control.isEnabled { look.foreground = .red }
      canvas.draw(
        "[ \(control.caption) ]", x: frame.x, y: frame.y, maxWidth: frame.width, style: look)
    case .checkbox(let isOn, _, _):
      guard drawing else { return }
      let mark = isOn ? "[x]" : "[ ]"
      let line = control.label.isEmpty ? mark : "\(mark) \(control.label)"
      canvas.draw(
        line, x: frame.x, y: frame.y, maxWidth: frame.width,
        style: style.adding(CellStyle(bold: isFocused, inverse: isFocused)))
    case .choice(let options, let selected, _, let looksLikeTabs):
      guard drawing else { return }
      choice(options, selected: selected, tabs: looksLikeTabs, focused: isFocused, frame, style)
    case .field(let text, let placeholder):
      let state = states.field(id, text)
      if drawing { field(state, placeholder: placeholder, focused: isFocused, frame, style) }
    case .area(let text, let placeholder, _):
      let state = states.area(id, text)
      if drawing { area(state, placeholder: placeholder, focused: isFocused, frame, style) }
    case .list(let list):
      let state = states.list(id, list, send: send)
      if drawing { self.list(list, state: state, id: id, focused: isFocused, frame, style) }
    }
  }

  private mutating func choice(
    _ options: [String], selected: Int, tabs: Bool, focused: Bool, _ frame: Rect,
    _ style: CellStyle
  ) {
    var x = frame.x
    for (index, option) in options.enumerated() {
      let room = frame.x + frame.width - x
      guard room > 0 else { break }
      let isSelected = index == selected
      // Marked in the text too, not only in reverse: a terminal read aloud, or without colour,
      // still says which is chosen.
      let label =
        tabs
        ? (isSelected ? "[\(option)]" : " \(option) ")
        : (isSelected ? "(•) \(option)" : "( ) \(option)")
      let look =
        isSelected
        ? style.adding(CellStyle(bold: true, inverse: focused || tabs))
        : style.adding(CellStyle(dim: tabs))
      x += canvas.draw(label, x: x, y: frame.y, maxWidth: room, style: look) + (tabs ? 1 : 2)
    }
  }

  private mutating func field(
    _ state: TerminalFieldState, placeholder: String, focused: Bool, _ frame: Rect,
    _ style: CellStyle
  ) {
    guard frame.width > 2 else { return }
    let text = state.shownText
    canvas.draw(focused ? "›" : " ", x: frame.x, y: frame.y, style: style.adding(.init(bold: true)))
    let x = frame.x + 2
    let width = frame.width - 2
    if text.isEmpty {
      canvas.draw(
        placeholder, x: x, y: frame.y, maxWidth: width, style: style.adding(.init(dim: true)))
    }
    let window = state.editor.window(width: width, scroll: state.scroll, columns: DisplayWidth.of)
    state.scroll = window.firstCharacter
    if !window.visible.isEmpty {
      canvas.draw(window.visible, x: x, y: frame.y, maxWidth: width, style: style)
    }
    guard focused else { return }
    // The cursor: the character under it in reverse, or a reversed space at the end (over an
    // empty field, the placeholder's first character, dimmed).
    let characters = Array(state.editor.text)
    let cursor = state.editor.cursor
    var under: Character = cursor < characters.count ? characters[cursor] : " "
    var look = style.adding(CellStyle(inverse: true))
    if text.isEmpty, let first = placeholder.first {
      under = first
      look.dim = true
    }
    canvas.draw(
      String(DisplayWidth.of(under) == 0 ? " " : under), x: x + window.cursorColumn, y: frame.y,
      maxWidth: width - window.cursorColumn, style: look)
  }

  private mutating func area(
    _ state: TerminalAreaState, placeholder: String, focused: Bool, _ frame: Rect,
    _ style: CellStyle
  ) {
    guard frame.width > 2 else { return }
    let text = state.shownText
    let lines = state.lines
    let width = frame.width - 2
    canvas.draw(focused ? "›" : " ", x: frame.x, y: frame.y, style: style.adding(.init(bold: true)))
    if text.isEmpty {
      canvas.draw(
        placeholder, x: frame.x + 2, y: frame.y, maxWidth: width,
        style: style.adding(.init(dim: true)))
    }
    let cursorLine = lines.lastIndex { $0.start <= state.cursor } ?? 0
    if cursorLine < state.scroll { state.scroll = cursorLine }
    if cursorLine >= state.scroll + frame.height { state.scroll = cursorLine - frame.height + 1 }
    for row in 0..<frame.height {
      let index = state.scroll + row
      guard lines.indices.contains(index) else { break }
      canvas.draw(
        lines[index].text, x: frame.x + 2, y: frame.y + row, maxWidth: width, style: style)
      guard focused, index == cursorLine else { continue }
      let before = Array(lines[index].text).prefix(state.cursor - lines[index].start)
      let column = DisplayWidth.of(String(before))
      let characters = Array(lines[index].text)
      let under = before.count < characters.count ? characters[before.count] : " "
      if column < width {
        canvas.draw(
          String(under), x: frame.x + 2 + column, y: frame.y + row, maxWidth: width - column,
          style: style.adding(CellStyle(inverse: true)))
      }
    }
  }

  private mutating func list(
    _ list: TerminalListNode<Action>, state: any TerminalListState, id: String, focused: Bool,
    _ frame: Rect, _ style: CellStyle
  ) {
    let visible = max(1, frame.height / list.rowHeight)
    state.pageSize = visible
    let selected = min(state.index, max(0, list.count - 1))
    if selected < state.offset { state.offset = selected }
    if selected >= state.offset + visible { state.offset = selected - visible + 1 }
    state.offset = max(0, min(state.offset, list.count - visible))
    for slot in 0..<visible {
      let index = state.offset + slot
      guard index < list.count else { break }
      let y = frame.y + slot * list.rowHeight
      let rows = min(list.rowHeight, frame.y + frame.height - y)
      // Only the focused list marks its selection: in a board, one `›` says where keys go.
      let marked = focused && index == selected
      let look = marked ? style.adding(CellStyle(inverse: true)) : style
      if marked {
        canvas.fill(x: frame.x, y: y, width: frame.width, height: rows, style: look)
        canvas.draw("›", x: frame.x, y: y, style: look.adding(CellStyle(bold: true)))
      }
      stack(
        .vertical, spacing: 0, list.rowNodes(index), id: "\(id).r\(index)",
        frame: Rect(x: frame.x + 2, y: y, width: frame.width - 2, height: rows), style: look,
        inRow: true)
    }
    if list.count > visible, frame.width > 0 {
      let indicator = "\(selected + 1)/\(list.count)"
      canvas.draw(
        indicator, x: frame.x + frame.width - DisplayWidth.of(indicator),
        y: frame.y + frame.height - 1, style: CellStyle(dim: true))
    }
  }
}

extension TerminalControl {
  /// Whether this is a button that does what cannot be undone.
  var isDestructive: Bool {
    if case .button(.destructive) = kind { return true }
    return false
  }

  /// Whether focus can rest here: a list with no rows has nothing to select.
  var isFocusable: Bool {
    if case .list(let list) = kind { return list.count > 0 }
    return true
  }
}

extension CellStyle {
  /// This style with `other`'s attributes added, and its colour if it has one.
  func adding(_ other: CellStyle) -> CellStyle {
    CellStyle(
      bold: bold || other.bold, dim: dim || other.dim, underline: underline || other.underline,
      inverse: inverse || other.inverse, foreground: other.foreground ?? foreground)
  }
}
