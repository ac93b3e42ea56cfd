/// Which control of a screen has focus, as state: the order Tab follows, and where focus goes
/// when the focused control goes away. The view model (or the screen's view) decides; a view
/// layer only shows it — a web page focuses the element the server names, a terminal draws the
/// cursor in the focused field.
///
/// The rule when the focused control goes away (a deleted row, a field hidden) is the list
/// selection's: focus goes to the nearest control after it that is still there, else the
/// nearest before it, else nowhere.
///
/// ```swift
/// var focus = FocusOrder(["new-todo", "row-1", "row-2"], focused: "new-todo")
/// focus.next()  // "row-1"
/// focus.update(order: ["new-todo", "row-2"])  // row-1 deleted: "row-2"
/// ```
public struct FocusOrder<ID: Hashable>: Equatable {
  /// The focusable controls, in Tab order.
  public private(set) var order: [ID]
  /// The control with focus, if any; always one of ``order``.
  public private(set) var focused: ID?

  /// Creates a focus order.
  ///
  /// - Parameters:
  ///   - order: The focusable controls, in Tab order; a repeated id counts once, where it first
  ///     stands.
  ///   - focused: The control with focus at first (focus on appear); ignored unless it is in
  ///     `order`.
  public init(_ order: [ID], focused: ID? = nil) {
    self.order = Self.unique(order)
    self.focused = focused.flatMap { self.order.contains($0) ? $0 : nil }
  }

  /// Focuses `id`, as a click on a control or a model's decision does (focus back in the
  /// new-item field after submit).
  ///
  /// - Parameter id: The control.
  /// - Returns: Whether it is focusable (in ``order``); focus is unchanged when it is not.
  @discardableResult
  public mutating func focus(_ id: ID) -> Bool {
    guard order.contains(id) else { return false }
    focused = id
    return true
  }

  /// Takes focus away from every control (Escape out of a field, say).
  public mutating func blur() {
    focused = nil
  }

  /// Tab: the next control, after the last the first; the first when none has focus.
  public mutating func next() {
    guard !order.isEmpty else { return }
    guard let focused, let index = order.firstIndex(of: focused) else {
      self.focused = order.first
      return
    }
    self.focused = order[(index + 1) % order.count]
  }

  /// Shift-Tab: the previous control, before the first the last; the last when none has focus.
  public mutating func previous() {
    guard !order.isEmpty else { return }
    guard let focused, let index = order.firstIndex(of: focused) else {
      self.focused = order.last
      return
    }
    self.focused = order[(index + order.count - 1) % order.count]
  }

  /// The controls changed (rows added, deleted or moved). Focus stays on its control if it is
  /// still there; else it goes to the nearest control after it in the old order that is still
  /// there, else the nearest one before it, else nowhere.
  ///
  /// - Parameter newOrder: The focusable controls now, in Tab order.
  public mutating func update(order newOrder: [ID]) {
    let old = order
    order = Self.unique(newOrder)
    guard let focused, !order.contains(focused) else { return }
    let remaining = Set(order)
    guard let index = old.firstIndex(of: focused) else {
      self.focused = nil
      return
    }
    self.focused =
      old[(index + 1)...].first { remaining.contains($0) }
      ?? old[..<index].last { remaining.contains($0) }
  }

  private static func unique(_ ids: [ID]) -> [ID] {
    var seen = Set<ID>()
    return ids.filter { seen.insert($0).inserted }
  }
}

extension FocusOrder: Sendable where ID: Sendable {}
