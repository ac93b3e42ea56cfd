import Tether
import TetherFlow

/// A ``TerminalScreen`` shown as a ``TerminalView``: it draws the screen's markup, keeps each
/// control's state and the focus from frame to frame, and turns keys into the screen's
/// actions. ``TerminalNavigator/init(stack:screens:)`` makes one per screen.
///
/// Keys go, in order:
/// 1. to the focused control: a field edits and sends its submit (Enter) and cancel (Escape),
///    a list moves its selection and sends its choice (Enter), a button and a checkbox answer
///    Enter and Space, a radio group and tabs answer ← and →;
/// 2. to the shortcuts declared with `onKey(_:_:)`, first declared first;
/// 3. to focus: Tab and Shift-Tab go to the next and previous control in layout order (round
///    the screen), ↓ and ↑ to the next and previous, → and ← to the nearest control on that side.
///
/// A key none of them uses goes back to the navigator: Escape, Backspace and ← go back, `q`
/// quits.
@MainActor
public final class TerminalScreenView<Screen: TerminalScreen>: TerminalView,
  TerminalFocusReporting
{
  /// The screen shown.
  public let screen: Screen
  private let states = TerminalControlStates()
  /// Bumped by every key the screen uses: a frame reads it, so a key that moved only focus or
  /// a cursor still draws a new frame.
  private let revision = MutableProperty(0)
  private var found = TerminalMarkupFrame<Screen.Action>()
  private var focusedID: String?
  private var focusIndex = 0
  private var lastWanted: String?
  private var lastFrame: Rect?
  /// Whether focus is still where the layer put it: until a key or the view model places it,
  /// it goes to the first control each frame, so a list whose rows arrive after a load takes
  /// it from the button that was alone before.
  private var focusIsAutomatic = true
  /// Whether the screen may have changed since its controls were last found.
  private var isStale = true

  /// Shows `screen`.
  ///
  /// - Parameter screen: The screen.
  public init(_ screen: Screen) {
    self.screen = screen
  }

  /// What a person calls the focused control: a button's title, a field's label.
  public var focusedLabel: String? {
    found.targets.first { $0.id == focusedID }?.control.label
  }

  /// The labels of the controls focus can rest on, in layout order.
  public var controlLabels: [String] { found.targets.map(\.control.label) }

  /// A screen takes the rows it is given.
  public func preferredHeight(width: Int) -> Int? { nil }

  /// Draws the screen's markup in `frame`, with focus settled first.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    _ = revision.value
    lastFrame = frame
    let nodes = screen.body.nodes
    find(nodes, in: frame, canvas: canvas)
    var painter = TerminalMarkupRenderer<Screen.Action>(
      states: states, send: sender, focused: focusedID, drawing: true,
      canvas: Canvas(width: 0, height: 0))
    // The painter draws on the caller's canvas itself: swapped in and out, never copied.
    swap(&painter.canvas, &canvas)
    painter.render(nodes, in: frame)
    swap(&painter.canvas, &canvas)
    states.endFrame()
  }

  /// Handles `key` by the rules above; `false` for a key the screen does not use.
  public func handle(_ key: Key) -> Bool {
    if isStale {
      // An action or an edit since the last frame may have changed what is shown: the key goes
      // to what the screen shows now, not to the last frame drawn (a key before any frame is
      // laid out at a common terminal's size).
      let frame = lastFrame ?? Rect(x: 0, y: 0, width: 80, height: 24)
      find(screen.body.nodes, in: frame, canvas: Canvas(width: 0, height: 0))
      states.endFrame()
    }
    let used = dispatch(key)
    if used {
      isStale = true
      revision.value &+= 1
    }
    return used
  }

  /// The screen's first list's selected row, as ``TerminalNavigator/snapshot()`` keeps it.
  public var restorationKey: String? { states.restorationKey }

  /// Selects the row `key` names in the screen's first list, now or when it is drawn.
  public func restore(_ key: String) { states.restore(key) }

  private func find(_ nodes: [TerminalMarkup<Screen.Action>.Node], in frame: Rect, canvas: Canvas) {
    states.beginFrame()
    var finder = TerminalMarkupRenderer<Screen.Action>(
      states: states, send: sender, focused: nil, drawing: false, canvas: canvas)
    finder.render(nodes, in: frame)
    found = finder.found
    isStale = false
    settleFocus()
  }

  /// Focus goes where the view model asks when it asks anew; a focused control that went
  /// passes focus to the one now at its place.
  private func settleFocus() {
    let targets = found.targets
    if found.wanted != lastWanted {
      lastWanted = found.wanted
      if let wanted = found.wanted {
        focusedID = wanted
        focusIsAutomatic = false
      }
    }
    if focusIsAutomatic {
      focusedID = nil
      focusIndex = 0
    }
    if let index = targets.firstIndex(where: { $0.id == focusedID }) {
      focusIndex = index
    } else if let wanted = found.wanted {
      focusedID = wanted
    } else if !targets.isEmpty {
      // Focus a key did not put there never rests on a destructive button: Enter on a screen
      // just shown must not delete anything.
      let place = min(focusIndex, targets.count - 1)
      let safe = (targets[place...] + targets[..<place]).first { !$0.control.isDestructive }
      focusedID = (safe ?? targets[place]).id
    } else {
      focusedID = nil
    }
  }

  private func send(_ action: Screen.Action) {
    screen.handle(action)
  }

  /// `send` for what the controls' states keep (a list's choice): it holds this view weakly,
  /// since the view owns those states.
  private var sender: (Screen.Action) -> Void {
    { [weak self] action in self?.send(action) }
  }

  private func dispatch(_ key: Key) -> Bool {
    let targets = found.targets
    let current = targets.firstIndex { $0.id == focusedID }
    if let current, handleFocused(key, targets[current]) { return true }
    if let shortcut = found.shortcuts.first(where: { $0.key == key }) {
      send(shortcut.action)
      return true
    }
    guard !targets.isEmpty else { return false }
    let position = current ?? -1
    switch key {
    case .tab: moveFocus(to: targets[(position + 1) % targets.count])
    case .backTab: moveFocus(to: targets[(position - 1 + targets.count) % targets.count])
    case .down where position + 1 < targets.count: moveFocus(to: targets[position + 1])
    case .up where position > 0: moveFocus(to: targets[position - 1])
    case .left, .right:
      guard let current, let next = nearest(to: targets[current], right: key == .right) else {
        return false
      }
      moveFocus(to: next)
    default: return false
    }
    return true
  }

  private func moveFocus(to target: TerminalFocusTarget<Screen.Action>) {
    focusIsAutomatic = false
    focusedID = target.id
    focusIndex = found.targets.firstIndex { $0.id == target.id } ?? focusIndex
    if let onFocus = target.control.onFocus { send(onFocus) }
  }

  /// The control beside `target` on one side: the nearest by columns, then by rows.
  private func nearest(to target: TerminalFocusTarget<Screen.Action>, right: Bool)
    -> TerminalFocusTarget<Screen.Action>?
  {
    let from = target.frame
    let candidates = found.targets.filter {
      right ? $0.frame.x >= from.x + from.width : $0.frame.x + $0.frame.width <= from.x
    }
    return candidates.min { first, second in
      distance(from, first.frame, right: right) < distance(from, second.frame, right: right)
    }
  }

  private func distance(_ from: Rect, _ to: Rect, right: Bool) -> (Int, Int) {
    let columns = right ? to.x - (from.x + from.width) : from.x - (to.x + to.width)
    // Rows apart: 0 for controls that share a row, else how many rows the nearer edge is off.
    let rows =
      to.y >= from.y + from.height
      ? to.y - (from.y + from.height) + 1
      : from.y >= to.y + to.height ? from.y - (to.y + to.height) + 1 : 0
    return (columns, rows)
  }

  private func handleFocused(_ key: Key, _ target: TerminalFocusTarget<Screen.Action>) -> Bool {
    let control = target.control
    switch control.kind {
    case .button:
      guard key == .enter || key == .character(" "), let action = control.onPress else {
        return false
      }
      send(action)
    case .checkbox(let isOn, let binding, let onToggle):
      guard key == .enter || key == .character(" ") else { return false }
      binding?.value.toggle()
      if let onToggle { send(onToggle(!isOn)) }
    case .choice(let options, let selected, let onSelect, _):
      let next = key == .left ? selected - 1 : key == .right ? selected + 1 : -1
      guard options.indices.contains(next), let onSelect else { return false }
      send(onSelect(next))
    case .field(let text, _):
      switch key {
      case .enter:
        guard let action = control.onSubmit else { return false }
        send(action)
      case .escape:
        guard let action = control.onCancel else { return false }
        send(action)
      default:
        return states.field(target.id, text).handle(key)
      }
    case .area(let text, _, _):
      if key == .escape {
        guard let action = control.onCancel else { return false }
        send(action)
        return true
      }
      return states.area(target.id, text).handle(key)
    case .list(let list):
      guard let screenKey = key.screenKey else { return false }
      if screenKey == .activate, list.onChoose == nil { return false }
      return states.list(target.id, list, send: sender).handle(screenKey)
    }
    return true
  }
}

/// The state each control keeps from frame to frame, by the control's name; a control that is
/// no longer shown loses its state.
@MainActor
final class TerminalControlStates {
  private var lists: [String: any TerminalListState] = [:]
  private var fields: [String: TerminalFieldState] = [:]
  private var areas: [String: TerminalAreaState] = [:]
  private var shown: Set<String> = []
  private var firstList: String?
  private var pendingRestore: String?

  func beginFrame() {
    shown = []
    firstList = nil
  }

  func endFrame() {
    lists = lists.filter { shown.contains($0.key) }
    fields = fields.filter { shown.contains($0.key) }
    areas = areas.filter { shown.contains($0.key) }
  }

  func list<Action>(
    _ id: String, _ node: TerminalListNode<Action>, send: @escaping (Action) -> Void
  ) -> any TerminalListState {
    shown.insert(id)
    let state = node.attach(lists[id])
    lists[id] = state
    // The actions of this frame's markup: a row chosen sends what the screen shows now.
    state.onActivate = { index in node.onChoose.map { send($0(index)) } }
    state.onMove = { index in node.onMove.map { send($0(index)) } }
    if firstList == nil {
      firstList = id
      if let key = pendingRestore {
        pendingRestore = nil
        state.restore(key)
      }
    }
    return state
  }

  func field(_ id: String, _ text: MutableProperty<String>) -> TerminalFieldState {
    state(id, text, in: &fields)
  }

  func area(_ id: String, _ text: MutableProperty<String>) -> TerminalAreaState {
    state(id, text, in: &areas)
  }

  /// The state kept for the text control `id`: a new one when it is bound to other text.
  private func state<State: TerminalTextState>(
    _ id: String, _ text: MutableProperty<String>, in states: inout [String: State]
  ) -> State {
    shown.insert(id)
    if let kept = states[id], kept.bound.text === text { return kept }
    let state = State(text)
    states[id] = state
    return state
  }

  var restorationKey: String? { firstList.flatMap { lists[$0]?.restorationKey } }

  func restore(_ key: String) {
    if let firstList, let state = lists[firstList] {
      state.restore(key)
    } else {
      pendingRestore = key
    }
  }
}

/// A view that says which of its controls has focus: what a terminal test reads to reach a
/// control as a person does.
@MainActor
public protocol TerminalFocusReporting {
  /// What a person calls the focused control.
  var focusedLabel: String? { get }
  /// The labels of the controls focus can rest on, in layout order.
  var controlLabels: [String] { get }
}
