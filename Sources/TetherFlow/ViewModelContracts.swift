/// A view model whose inputs start work that must outlive the process that took them — a write
/// to a store — and that can say when that work is done.
///
/// A view layer that may lose its process between a gesture and its effect asks: a web session
/// acknowledges a page's gesture (so the page forgets it) only once every view model on the
/// stack is settled, and a page whose server dies first sends the gesture again to the next
/// server. A view model that writes nothing need not adopt it.
///
/// ```swift
/// extension TodoListViewModel: SettlingViewModel {
///   var isSettled: Bool { isSaved }
///   func settled() async { await saved() }
/// }
/// ```
@MainActor
public protocol SettlingViewModel: AnyObject {
  /// Whether every write the view model's inputs started so far is done.
  var isSettled: Bool { get }

  /// Returns once ``isSettled`` is true.
  func settled() async
}

/// A view model with transient state worth carrying when its screen is rebuilt elsewhere — the
/// item being edited, a draft's step — as a `Codable` value it declares.
///
/// A web session carries the value in the signed token its page holds, as it carries an open
/// alert's actions, so a session rebuilt from the token on another server (its own died, or a
/// load balancer chose another) gives it back to the rebuilt view model. Keep it small: it
/// travels with every change of what a page shows.
///
/// ```swift
/// extension TodoListViewModel: RestorableViewModel {
///   struct Restoration: Codable, Sendable { var editing: String }
///   var restoration: Restoration? { editingID.map { Restoration(editing: $0) } }
///   func restore(_ restoration: Restoration) { resumeEditing(id: restoration.editing) }
/// }
/// ```
@MainActor
public protocol RestorableViewModel: AnyObject {
  /// What the view model keeps.
  associatedtype Restoration: Codable & Sendable

  /// The state to carry, or `nil` for none.
  var restoration: Restoration? { get }

  /// Brings the state back, on a view model built afresh for the same screen.
  ///
  /// - Parameter restoration: A value ``restoration`` gave.
  func restore(_ restoration: Restoration)
}
