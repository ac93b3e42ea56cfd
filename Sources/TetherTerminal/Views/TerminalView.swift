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

/// A custom drawing for the terminal layer: it draws itself into a rectangle of a ``Canvas``
/// and may handle keys. Screens are markup (``TerminalScreen``); a `TerminalView` is for what
/// markup has no words for — a picture in shade blocks, a chart — placed in markup with
/// ``canvas(_:)``. ``TerminalScreenView`` is one: it shows a screen's markup.
///
/// Views read view-model properties while drawing; the app draws frames inside
/// `observe { }`, so every property a frame read is a dependency and a change redraws the
/// screen once per burst. No view needs to subscribe by hand.
///
/// A view with state worth keeping (a list's selection) implements TetherFlow's
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
