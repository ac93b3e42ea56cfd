/// A view model's event in one declaration: everyone observes the ``Signal``, and only the
/// view model sends on it.
///
/// ```swift
/// @MainActor final class PhotoListViewModel {
///   @Event var route: Signal<Route>
///
///   func userPressed(_ photo: Photo) {
///     if photo.forSale { _route.send(.detail(photo.id)) }
///   }
/// }
/// // …
/// viewModel.route.observe { route in navigator.show(route) }  // the read-only side
/// ```
///
/// The sending side is the wrapper itself, `_route`, which Swift makes private to the type
/// that declares it (and to that type's extensions in the same file): no view, flow or test can
/// send. The wrapped value, `route`, is the ``Signal`` everyone may observe; it has no setter.
///
/// Use `@Event` for what a view does once (a route, an alert, "item deleted") and
/// ``Output`` for state (anything a view shows).
@propertyWrapper
public struct Event<Value> {
  @usableFromInline
  internal let signal: Signal<Value>

  /// Creates an event with no observers.
  @inlinable
  public init() {
    signal = Signal()
  }

  /// The events, to observe: sending is the declaring type's alone (``send(_:)`` on `_name`).
  @inlinable
  public var wrappedValue: Signal<Value> { signal }

  /// Delivers `value` to every current observer, synchronously and in order (see
  /// ``Signal/Emitter/send(_:)``).
  ///
  /// - Parameter value: The event.
  @inlinable
  public func send(_ value: Value) {
    signal.observers.send(value)
  }
}

extension Event where Value == Void {
  /// Delivers an event that carries no data.
  @inlinable
  public func send() {
    send(())
  }
}
