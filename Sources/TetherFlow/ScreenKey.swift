/// The keys every view layer translates its own input into, so the rules they drive (moving
/// a list's selection, answering an alert, going back) are written once.
///
/// The terminal maps ↑/k, ↓/j, Home, End, PageUp, PageDown, Enter and Esc; the web page maps
/// ArrowUp, ArrowDown, Home, End, Enter and Escape. A layer with other gestures (a swipe, a
/// remote's Select) maps them the same way.
public enum ScreenKey: Hashable, Sendable, CaseIterable {
  /// Moves up one row.
  case up
  /// Moves down one row.
  case down
  /// Moves up one page.
  case pageUp
  /// Moves down one page.
  case pageDown
  /// Moves to the first row.
  case home
  /// Moves to the last row.
  case end
  /// Chooses: opens the selected row, presses an alert's default button (Enter, a click, a tap).
  case activate
  /// Backs out: presses an alert's cancel button, or goes back (Escape).
  case cancel
  /// Moves to the next control: an alert's next button (Tab, →).
  case next
  /// Moves to the previous control: an alert's previous button (Shift-Tab, ←).
  case previous
}
