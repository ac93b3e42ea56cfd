import TetherFlow

/// The keys a page forwards to its session.
public enum WebKey: String, Sendable, CaseIterable {
  /// ↑.
  case arrowUp = "ArrowUp"
  /// ↓.
  case arrowDown = "ArrowDown"
  /// Enter.
  case enter = "Enter"
  /// Escape.
  case escape = "Escape"
  /// Home.
  case home = "Home"
  /// End.
  case end = "End"

  /// The key in the vocabulary every view layer shares.
  public var screenKey: ScreenKey {
    switch self {
    case .arrowUp: .up
    case .arrowDown: .down
    case .home: .home
    case .end: .end
    case .enter: .activate
    case .escape: .cancel
    }
  }
}
