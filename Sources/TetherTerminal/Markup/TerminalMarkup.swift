import Tether
import TetherFlow

/// A screen of the terminal layer written as markup: what it shows (``body``) and what each of
/// its actions asks of the view model (``handle(_:)``) — the shape of TetherWeb's `WebScreen`.
///
/// ```swift
/// final class CourseDetailTerminalScreen: TerminalScreen {
///   enum Action { case remove, more }
///   let detail: CourseDetail
///
///   init(_ detail: CourseDetail) { self.detail = detail }
///
///   var body: TerminalMarkup<Action> {
///     vstack {
///       text(detail.title).bold()
///       hstack {
///         button("Remove", role: .destructive).onPress(.remove)
///         button("More…").onPress(.more)
///       }
///     }
///   }
///
///   func handle(_ action: Action) {
///     switch action {
///     case .remove: detail.removeRequested()
///     case .more: detail.moreRequested()
///     }
///   }
/// }
/// ```
///
/// The layer owns focus and keys: Tab and Shift-Tab move between the controls in layout order,
/// the arrows move to the nearest control that way, Enter and Space press, Escape cancels a
/// field (and otherwise goes back), and shortcuts are declared on the markup with
/// `onKey(_:_:)`. Only the focused control is drawn as focused.
/// ``TerminalScreenView`` shows a screen wherever a ``TerminalView`` is asked for.
@MainActor
public protocol TerminalScreen: AnyObject {
  /// What the screen's controls and shortcuts send.
  associatedtype Action

  /// What the screen shows; read inside the app's `observe { }`, so a change to anything it
  /// read draws it again.
  @TerminalMarkupBuilder<Action> var body: TerminalMarkup<Action> { get }

  /// Sends one action to the view model.
  ///
  /// - Parameter action: What the key meant.
  func handle(_ action: Action)
}

extension TerminalScreen where Action == Never {
  /// A screen that sends nothing has nothing to handle.
  public func handle(_ action: Never) {}
}

/// The action of markup that calls its view model itself, as a SwiftUI button does: a screen
/// whose body is a `TerminalMarkup<TerminalCall>` declares no action type and no
/// ``TerminalScreen/handle(_:)`` — the layer runs the call.
///
/// ```swift
/// final class CounterScreen: TerminalScreen {
///   let model: CounterModel
///   init(_ model: CounterModel) { self.model = model }
///
///   var body: TerminalMarkup<TerminalCall> {
///     text("Count: \(model.count)")
///     button("Add one", key: "+").onPress(model.increment)
///   }
/// }
/// ```
///
/// A typed ``TerminalScreen/Action`` still suits a screen whose keys a test or another layer
/// names; both kinds of screen are drawn and tested alike.
public typealias TerminalCall = @MainActor () -> Void

extension TerminalScreen where Action == TerminalCall {
  /// Runs the call the key made.
  public func handle(_ call: TerminalCall) { call() }
}

/// A piece of a terminal screen, written with ``TerminalMarkupBuilder``: text, stacks, boxes and
/// controls, `if`, `switch` and ``ForEach(_:row:)``, and the actions its keys send.
///
/// Each node's name comes from where it stands (its statement, the branch of an `if`, a
/// ``ForEach(_:row:)`` row's id), so a control keeps its focus and state (a list's selection,
/// a field's cursor) from one frame to the next, and one that appears or goes never moves
/// them from another.
@MainActor
public struct TerminalMarkup<Action> {
  indirect enum Node {
    case text(String, wraps: Bool)
    case stack(TerminalAxis, spacing: Int, [Node])
    case box(title: String?, [Node])
    case control(TerminalControl<Action>)
    case canvas(any TerminalView)
    case spacer
    case divider
    case group([Node])
    case branch(String, [Node])
    case keyed([(key: String, nodes: [Node])])
    case styled(CellStyle, Node)
    case framed(width: Int?, height: Int?, Node)
    case shortcut(Key, Action, Node)
  }

  var nodes: [Node]

  init(_ nodes: [Node]) {
    self.nodes = nodes
  }

  /// Nothing.
  public static var empty: TerminalMarkup { TerminalMarkup([]) }

  /// One node standing for the whole markup.
  var single: Node { nodes.count == 1 ? nodes[0] : .group(nodes) }

  /// Applies `change` to each control at the top of the markup.
  func mapControls(_ change: (inout TerminalControl<Action>) -> Void) -> TerminalMarkup {
    TerminalMarkup(nodes.map { Self.mapControl($0, change) })
  }

  private static func mapControl(_ node: Node, _ change: (inout TerminalControl<Action>) -> Void)
    -> Node
  {
    switch node {
    case .control(var control):
      change(&control)
      return .control(control)
    case .styled(let style, let inner): return .styled(style, mapControl(inner, change))
    case .framed(let width, let height, let inner):
      return .framed(width: width, height: height, mapControl(inner, change))
    case .shortcut(let key, let action, let inner):
      return .shortcut(key, action, mapControl(inner, change))
    default: return node
    }
  }
}

/// The direction a stack lays its children out in.
public enum TerminalAxis: Sendable {
  case vertical, horizontal
}

/// Builds ``TerminalMarkup`` from Swift code: views and text as statements, `if`, `if let`,
/// `switch` and `for` as in any Swift code, and ``ForEach(_:row:)`` for rows keyed by their id.
@resultBuilder
@MainActor
public enum TerminalMarkupBuilder<Action> {
  /// A view.
  public static func buildExpression(_ markup: TerminalMarkup<Action>) -> TerminalMarkup<Action> {
    markup
  }

  /// Text, one line (cut with "…" when it does not fit).
  public static func buildExpression(_ text: String) -> TerminalMarkup<Action> {
    TerminalMarkup([.text(text, wraps: false)])
  }

  /// A block's statements, named by place.
  public static func buildBlock(_ components: TerminalMarkup<Action>...) -> TerminalMarkup<Action> {
    TerminalMarkup(components.map(\.single))
  }

  /// An `if` without `else`.
  public static func buildOptional(_ component: TerminalMarkup<Action>?) -> TerminalMarkup<Action> {
    TerminalMarkup([.branch("a", component?.nodes ?? [])])
  }

  /// The first branch of an `if`/`else` or `switch`.
  public static func buildEither(first component: TerminalMarkup<Action>) -> TerminalMarkup<
    Action
  > {
    TerminalMarkup([.branch("a", component.nodes)])
  }

  /// The second branch of an `if`/`else` or `switch`.
  public static func buildEither(second component: TerminalMarkup<Action>) -> TerminalMarkup<
    Action
  > {
    TerminalMarkup([.branch("b", component.nodes)])
  }

  /// A `for` loop's passes, named by their place ( ``ForEach(_:row:)`` names them by id).
  public static func buildArray(_ components: [TerminalMarkup<Action>]) -> TerminalMarkup<Action> {
    TerminalMarkup([.group(components.map(\.single))])
  }

  /// `if #available`.
  public static func buildLimitedAvailability(_ component: TerminalMarkup<Action>)
    -> TerminalMarkup<Action>
  {
    component
  }
}

/// Markup for each element of `data`, each named by its element's id: a row's controls keep
/// their focus and state when rows before it come or go.
///
/// ```swift
/// ForEach(board.columns) { column in
///   text(column.title)
/// }
/// ```
@MainActor
public func ForEach<Data: Sequence, Action>(
  _ data: Data, @TerminalMarkupBuilder<Action> row: (Data.Element) -> TerminalMarkup<Action>
) -> TerminalMarkup<Action> where Data.Element: Identifiable {
  var seen = Set<String>()
  var items: [(key: String, nodes: [TerminalMarkup<Action>.Node])] = []
  for element in data {
    var key = "\(element.id)"
    // Two rows with one id would share names: the second is named apart.
    if !seen.insert(key).inserted { key += "#\(items.count)" }
    items.append((key, row(element).nodes))
  }
  return TerminalMarkup([.keyed(items)])
}
