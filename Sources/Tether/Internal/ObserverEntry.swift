/// One observer of an ``ObserverList``: its closure, and the token that ends it.
///
/// The token and the entry are one object, so an observation costs one allocation besides its
/// closure. The list holds its entries unretained: the token's owner (the app, a derived
/// property) keeps it, and its `deinit` removes the entry. A detached token (an observation
/// that outlives its token, such as an `AsyncSequence`'s) is owned by the list instead
/// (`ObserverListBase.ownedFlag`).
@usableFromInline
internal final class ObserverEntry<Value>: ObservationToken {
  /// A `let` of a class: called through a reference the list does not retain, the closure is
  /// borrowed in place, where a closure loaded from an array element is retained and released
  /// around every call.
  @usableFromInline
  let call: (Value) -> Void

  @inlinable
  init(_ call: @escaping (Value) -> Void, owner: AnyObject?, list: ObserverListBase, id: UInt64) {
    self.call = call
    super.init(owner: owner, list: list, id: id)
  }

  deinit {
    // Before `call` is destroyed: the list copies the closure if it is running.
    if id & Self.detachedFlag == 0 { removeObserver() }
  }
}

/// What waits for the end of a delivery on an ``ObserverList``.
@usableFromInline
internal final class DeliveryBacklog<Value> {
  /// Values sent re-entrantly during the delivery, waiting their turn, each with the number of
  /// entries the list had when it was sent: an observer added later must not receive it (it
  /// would see the past), and entries are only appended while a delivery is under way, so
  /// that count is exactly the set of observers that existed at the send.
  @usableFromInline
  var pending: ContiguousArray<(value: Value, end: Int)> = []
  /// The closures of entries removed during the delivery: one may be running.
  @usableFromInline
  var removedCalls: ContiguousArray<(Value) -> Void> = []
  /// Owned entries removed during the delivery, released when it ends.
  @usableFromInline
  var removedOwned: ContiguousArray<Unmanaged<ObserverEntry<Value>>> = []
  /// The list's reference to itself while its owner is gone and the delivery still runs.
  @usableFromInline
  var keptAlive: Unmanaged<ObserverList<Value>>?

  @inlinable
  init() {}
}
