/// A view with transient state worth keeping when its stack is rebuilt — a list's selected row —
/// as a string key. Every view layer's views can adopt it; ``ScreenPresenter`` reads and restores
/// the keys for a ``ScreenStackSnapshot``.
@MainActor
public protocol ScreenRestorable: AnyObject {
  /// The view's state as a key (a list: its selected row's id), or `nil` for none.
  var restorationKey: String? { get }

  /// Brings back the state a key describes, on a view built afresh for the same screen.
  ///
  /// - Parameter key: A key this kind of view returned from ``restorationKey``.
  func restore(_ key: String)
}

extension ScreenRestorable {
  /// No state to keep.
  public var restorationKey: String? { nil }

  /// Nothing to restore.
  public func restore(_ key: String) {}
}
