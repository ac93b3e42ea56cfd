import Tether
import TetherFlow

/// A rectangle of cells.
public struct Rect: Equatable, Sendable {
  /// The left column.
  public var x: Int
  /// The top row.
  public var y: Int
  /// Columns.
  public var width: Int
  /// Rows.
  public var height: Int

  /// Creates a rectangle; negative sizes count as 0.
  ///
  /// - Parameters:
  ///   - x: The left column.
  ///   - y: The top row.
  ///   - width: Columns.
  ///   - height: Rows.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }
}

/// A view of the terminal layer: it draws itself into a rectangle of a ``Canvas`` and may
/// handle keys.
///
/// Views read view-model properties while drawing; the app draws frames inside
/// `observe { }`, so every property a frame read is a dependency and a change redraws the
/// screen once per burst. No view needs to subscribe by hand.
///
/// A view with state worth keeping (``ListView``'s selection) implements TetherFlow's
/// `ScreenRestorable`, which every terminal view adopts with nothing to keep by default, so
/// ``TerminalNavigator/snapshot()`` can take it.
@MainActor
public protocol TerminalView: ScreenRestorable {
  /// The rows this view wants at `width`, or `nil` to take what is left.
  func preferredHeight(width: Int) -> Int?
  /// Draws the view into `frame` of `canvas`.
  func draw(in canvas: inout Canvas, frame: Rect)
  /// Handles `key`; returns `true` if it was used.
  func handle(_ key: Key) -> Bool
}

extension TerminalView {
  /// One row by default.
  public func preferredHeight(width: Int) -> Int? { 1 }
  /// Keys are not handled by default.
  public func handle(_ key: Key) -> Bool { false }
}

/// Stacks views top to bottom: fixed-height views get their rows, flexible ones share the rest.
@MainActor
public final class VStack: TerminalView {
  /// The views, top first.
  public let children: [any TerminalView]
  private let spacing: Int

  /// Creates a stack.
  ///
  /// - Parameters:
  ///   - spacing: Blank rows between views.
  ///   - children: The views, top first.
  public init(spacing: Int = 0, _ children: [any TerminalView]) {
    self.children = children
    self.spacing = spacing
  }

  /// Flexible if any child is; otherwise the children's rows and the spacing.
  public func preferredHeight(width: Int) -> Int? {
    var total = spacing * max(0, children.count - 1)
    for child in children {
      guard let height = child.preferredHeight(width: width) else { return nil }
      total += height
    }
    return total
  }

  /// Lays the children out top to bottom and draws them.
  public func draw(in canvas: inout Canvas, frame: Rect) {
    let heights = children.map { $0.preferredHeight(width: frame.width) }
    let fixed = heights.reduce(0) { $0 + ($1 ?? 0) } + spacing * max(0, children.count - 1)
    let flexibleCount = heights.filter { $0 == nil }.count
    let share = flexibleCount > 0 ? max(0, frame.height - fixed) / flexibleCount : 0
    var y = frame.y
    for (child, height) in zip(children, heights) {
      let rows = min(height ?? share, frame.y + frame.height - y)
      // A child with no rows (a hidden spinner) takes no room; the ones after it still draw.
      guard rows > 0 else { continue }
      child.draw(in: &canvas, frame: Rect(x: frame.x, y: y, width: frame.width, height: rows))
      y += rows + spacing
    }
  }

  /// Offers the key to each child in turn.
  public func handle(_ key: Key) -> Bool {
    children.contains { $0.handle(key) }
  }
}
