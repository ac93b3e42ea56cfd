import Tether
import TetherFlow

/// Sizes of terminal markup: how many rows a node wants at a width (`nil`: a share of what is
/// left) and how many columns it needs of itself (`nil`: a share of what is left).
@MainActor
enum TerminalMarkupLayout<Action> {
  typealias Node = TerminalMarkup<Action>.Node

  /// A node with its name.
  struct Named {
    let id: String
    let node: Node
  }

  /// The children a stack lays out: groups, branches and `ForEach` rows are opened into their
  /// nodes, each named by where it stands under `parent`.
  static func children(of nodes: [Node], under parent: String) -> [Named] {
    var result: [Named] = []
    for (index, node) in nodes.enumerated() {
      open(node, id: "\(parent).\(index)", into: &result)
    }
    return result
  }

  private static func open(_ node: Node, id: String, into result: inout [Named]) {
    switch node {
    case .group(let nodes):
      for (index, child) in nodes.enumerated() { open(child, id: "\(id).\(index)", into: &result) }
    case .branch(let name, let nodes):
      for (index, child) in nodes.enumerated() {
        open(child, id: "\(id)\(name).\(index)", into: &result)
      }
    case .keyed(let items):
      for item in items {
        for (index, child) in item.nodes.enumerated() {
          open(child, id: "\(id).k\(item.key).\(index)", into: &result)
        }
      }
    default:
      result.append(Named(id: id, node: node))
    }
  }

  /// The rows `node` wants at `width`; `nil` for a node that takes a share of what is left.
  static func height(_ node: Node, width: Int) -> Int? {
    switch node {
    case .text(let content, let wraps): lines(content, wraps: wraps, width: width).count
    case .stack(.vertical, let spacing, let nodes):
      stackHeight(children(of: nodes, under: "").map(\.node), spacing: spacing, width: width)
    case .stack(.horizontal, let spacing, let nodes):
      rowHeight(children(of: nodes, under: "").map(\.node), spacing: spacing, width: width)
    case .box(_, let nodes):
      stackHeight(
        children(of: nodes, under: "").map(\.node), spacing: 0, width: max(0, width - 4)
      ).map { $0 + 2 }
    case .control(let control):
      switch control.kind {
      case .list: nil
      case .area(_, _, let rows): rows
      default: 1
      }
    case .canvas(let view): view.preferredHeight(width: width)
    case .spacer: nil
    case .divider: 1
    case .group, .branch, .keyed:
      stackHeight(children(of: [node], under: "").map(\.node), spacing: 0, width: width)
    case .styled(_, let inner), .shortcut(_, _, let inner): height(inner, width: width)
    case .framed(let columns, let rows, let inner):
      rows ?? height(inner, width: columns.map { min($0, width) } ?? width)
    }
  }

  /// The columns `node` needs of itself; `nil` for one that takes a share of what is left.
  static func naturalWidth(_ node: Node) -> Int? {
    switch node {
    case .text(let content, let wraps):
      wraps ? nil : lines(content, wraps: false, width: 0).map(DisplayWidth.of).max() ?? 0
    case .stack(.vertical, _, let nodes):
      widest(children(of: nodes, under: "").map(\.node))
    case .stack(.horizontal, let spacing, let nodes):
      totalWidth(children(of: nodes, under: "").map(\.node), spacing: spacing)
    case .control(let control):
      switch control.kind {
      case .button: DisplayWidth.of(control.caption) + 4
      case .checkbox: DisplayWidth.of(control.label) + 4
      case .choice(let options, _, _, _):
        options.map { DisplayWidth.of($0) + 4 }.reduce(0, +) + max(0, options.count - 1)
      case .field, .area, .list: nil
      }
    case .group, .branch, .keyed: widest(children(of: [node], under: "").map(\.node))
    case .styled(_, let inner), .shortcut(_, _, let inner): naturalWidth(inner)
    case .framed(let columns, _, let inner): columns ?? naturalWidth(inner)
    case .box, .canvas, .spacer, .divider: nil
    }
  }

  /// The rows of `nodes` one under another; `nil` if any takes a share.
  static func stackHeight(_ nodes: [Node], spacing: Int, width: Int) -> Int? {
    var total = 0
    var shown = 0
    for node in nodes {
      guard let rows = height(node, width: width) else { return nil }
      if rows > 0 { shown += 1 }
      total += rows
    }
    return total + spacing * max(0, shown - 1)
  }

  private static func rowHeight(_ nodes: [Node], spacing: Int, width: Int) -> Int? {
    var tallest = 0
    for (node, columns) in zip(nodes, widths(nodes, spacing: spacing, in: width)) {
      guard let rows = height(node, width: columns) else { return nil }
      tallest = max(tallest, rows)
    }
    return tallest
  }

  private static func widest(_ nodes: [Node]) -> Int? {
    var widest = 0
    for node in nodes {
      guard let columns = naturalWidth(node) else { return nil }
      widest = max(widest, columns)
    }
    return widest
  }

  private static func totalWidth(_ nodes: [Node], spacing: Int) -> Int? {
    var total = spacing * max(0, nodes.count - 1)
    for node in nodes {
      guard let columns = naturalWidth(node) else { return nil }
      total += columns
    }
    return total
  }

  /// Each child's columns in a row `width` wide: its own width first; when those do not all
  /// fit, the widest gives up columns first (a long title is cut before the short count beside
  /// it). Then the children with none share what is left, the first ones taking a column more
  /// when it does not divide evenly.
  static func widths(_ nodes: [Node], spacing: Int, in width: Int) -> [Int] {
    let room = max(0, width - spacing * max(0, nodes.count - 1))
    var result = nodes.map { _ in 0 }
    var flexible: [Int] = []
    for (index, node) in nodes.enumerated() {
      guard let own = naturalWidth(node) else {
        flexible.append(index)
        continue
      }
      result[index] = min(own, room)
    }
    var over = result.reduce(0, +) - room
    while over > 0, let widest = result.indices.max(by: { result[$0] < result[$1] }) {
      let next = result.filter { $0 < result[widest] }.max() ?? 0
      let cut = min(over, max(1, result[widest] - next))
      result[widest] -= cut
      over -= cut
    }
    let left = max(0, room - result.reduce(0, +))
    guard !flexible.isEmpty else { return result }
    for (position, index) in flexible.enumerated() {
      result[index] = left / flexible.count + (position < left % flexible.count ? 1 : 0)
    }
    return result
  }

  /// Each child's rows in a column `height` tall: its own rows first, then the children that
  /// take a share divide what is left.
  static func heights(_ nodes: [Node], spacing: Int, width: Int, in height: Int) -> [Int] {
    let wanted = nodes.map { Self.height($0, width: width) }
    let shown = wanted.filter { $0 != 0 }.count
    let fixed = wanted.reduce(0) { $0 + ($1 ?? 0) } + spacing * max(0, shown - 1)
    let flexible = wanted.filter { $0 == nil }.count
    let left = max(0, height - fixed)
    var position = 0
    return wanted.map { rows in
      if let rows { return rows }
      defer { position += 1 }
      return left / flexible + (position < left % flexible ? 1 : 0)
    }
  }

  /// The lines of `content` at `width`: wrapped at spaces with `wraps`, else one per line break.
  static func lines(_ content: String, wraps: Bool, width: Int) -> [String] {
    let paragraphs = content.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    guard wraps, width > 0 else { return paragraphs }
    return paragraphs.flatMap { TextWrapping.wrap($0, width: width) }
  }
}
