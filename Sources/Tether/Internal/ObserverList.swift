/// The part of an observer list that does not depend on the value type: the ids, the
/// bookkeeping, and the search. An ``ObservationToken`` cancels through it without being
/// generic, and without running unspecialized generic code.
///
/// The mutable state of both list classes is `@exclusivity(unchecked)`. Dynamic exclusivity
/// checks would be most of a `set` here (one `swift_beginAccess` per field access, several per
/// stage of a `map.map` chain), and they can never fire on these fields: every access is a short read or
/// write inside this file; observer closures are called only after the access that loaded them
/// has ended, and removed closures and queued values are released only after their access has
/// ended (they are moved out first). No access to these fields is ever open while user code
/// runs. `Property.storage` is unchecked as well; `modify { }`, the one place that runs user
/// code inside an access to it, guards against writes with `isModifying` instead.
@usableFromInline
internal class ObserverListBase {
  /// The property or signal that owns this list through a `let`. Not counted, to avoid a
  /// cycle; read only by `add`, which runs while the owner is alive (it is the caller).
  @usableFromInline @exclusivity(unchecked)
  final unowned(unsafe) var owner: AnyObject?
  /// Observer ids, ascending, parallel to the generic list's actions. A removed observer keeps
  /// its slot until compaction, marked with `removedFlag` (masked out when searching, so the
  /// order holds).
  @usableFromInline @exclusivity(unchecked)
  final var ids: ContiguousArray<UInt64> = []
  @usableFromInline @exclusivity(unchecked)
  final var nextID: UInt64 = 1
  /// Removed entries still in the arrays.
  @usableFromInline @exclusivity(unchecked)
  final var tombstones = 0
  @usableFromInline @exclusivity(unchecked)
  final var isDelivering = false
  /// Clears, drops or compacts the action at an index: created by the generic list in
  /// specialized code, so cancelling never runs unspecialized generic code.
  @usableFromInline
  final let releaseAction: (ObserverListBase, Int) -> Void

  @usableFromInline
  static var removedFlag: UInt64 { 1 << 62 }

  @usableFromInline
  init(releaseAction: @escaping (ObserverListBase, Int) -> Void) {
    self.releaseAction = releaseAction
  }

  /// The number of live observers.
  @inlinable
  final var count: Int { ids.count - tombstones }

  /// Removes the observer with `id`; unknown or already removed ids are ignored.
  @usableFromInline
  final func removeObserver(id: UInt64) {
    guard let index = index(of: id) else { return }
    ids[index] |= Self.removedFlag
    tombstones += 1
    releaseAction(self, index)
  }

  /// Binary search: ids are assigned in ascending order and keep it.
  @usableFromInline
  final func index(of id: UInt64) -> Int? {
    var low = 0
    var high = ids.count
    let mask = ~Self.removedFlag
    while low < high {
      let mid = (low &+ high) / 2
      let candidate = ids[mid]
      let midID = candidate & mask
      if midID == id {
        return candidate == id ? mid : nil
      } else if midID < id {
        low = mid &+ 1
      } else {
        high = mid
      }
    }
    return nil
  }

  /// Adds an entry that tells `tracker` *that* the value changed.
  ///
  /// The entry holds the tracker `unowned(unsafe)`: the tracker removes its entries before it
  /// can be freed (see ``DependencyTracker``).
  ///
  /// - Returns: The entry's id, for ``removeObserver(id:)``.
  @usableFromInline
  func addDependent(_ tracker: DependencyTracker) -> UInt64 {
    preconditionFailure("ObserverListBase is abstract: only ObserverList<Value> is created")
  }
}

/// The observers of one ``Property`` or ``Signal``, and the delivery loop.
///
/// Design constraints, all on the hot path:
/// - no locks: the list is confined to its owner's isolation domain;
/// - no allocation per `send` (the arrays and their closures already exist);
/// - 24 bytes per observer (an id and a closure) plus the token;
/// - subscribe is an append; cancel is a binary search on the ascending ids, O(1) at the tail;
/// - re-entrancy: a `send` during a delivery is queued and delivered, in order, after the
///   current value reaches every observer; the stack never grows with re-entrant sends;
/// - everything a client calls is `@inlinable`, so it runs specialized for the value type.
@usableFromInline
internal final class ObserverList<Value>: ObserverListBase {
  /// One observer's closure.
  ///
  /// A struct, not the bare closure: a generic container stores a bare function value at its
  /// most general abstraction (argument *and* result indirect), so each closure made in
  /// specialized code was wrapped in a reabstraction thunk, called on every delivery. A struct
  /// field keeps its own declared abstraction, `(Value) -> Void`, which the closures are made in.
  @usableFromInline
  struct Action {
    @usableFromInline let call: (Value) -> Void

    @inlinable
    init(_ call: @escaping (Value) -> Void) { self.call = call }

    /// The action a removed observer's slot holds until compaction: it does nothing, and owns
    /// no context.
    @inlinable
    static var removed: Action { Action { _ in } }
  }

  /// The observers' closures, parallel to `ids`; ``Action/removed`` once removed.
  @usableFromInline @exclusivity(unchecked)
  final var actions: ContiguousArray<Action> = []
  /// Values sent re-entrantly during a delivery, waiting their turn, each with the number of
  /// entries the list had when it was sent: an observer added later must not receive it (it
  /// would see the past), and entries are only appended while a delivery is under way, so
  /// that count is exactly the set of observers that existed at the send.
  @usableFromInline @exclusivity(unchecked)
  final var pending: ContiguousArray<(value: Value, end: Int)> = []

  @inlinable
  init(owner: AnyObject?) {
    super.init { list, index in
      // Safe downcast: this closure is only ever stored in, and called with, this very list.
      unsafeDowncast(list, to: ObserverList<Value>.self).releaseAction(at: index)
    }
    self.owner = owner
  }

  @inlinable
  final func add(_ action: @escaping (Value) -> Void) -> ObservationToken {
    let id = nextID
    nextID &+= 1
    ids.append(id)
    actions.append(Action(action))
    return ObservationToken(owner: owner, list: self, id: id)
  }

  /// Delivers `value` to every observer, or queues it if a delivery is under way.
  @inlinable
  final func send(_ value: Value) {
    if actions.isEmpty { return }
    if isDelivering {
      pending.append((value, actions.count))
      return
    }
    isDelivering = true
    deliver(value, upTo: actions.count)
    if !pending.isEmpty { drainPending() }
    isDelivering = false
    if tombstones != 0 { compactIfNeeded() }
  }

  /// Calls `action` for a freshly added observer under the same re-entrancy rules as `send`.
  @inlinable
  final func replay(_ value: Value, to action: (Value) -> Void) {
    if isDelivering {
      action(value)
      return
    }
    isDelivering = true
    action(value)
    if !pending.isEmpty { drainPending() }
    isDelivering = false
    if tombstones != 0 { compactIfNeeded() }
  }

  /// Calls `action` with each of `values`, in order, as one delivery: an event sent meanwhile
  /// (by `action`, say) is queued until the last of them (`prepend`).
  @inlinable
  final func replay(_ values: [Value], to action: (Value) -> Void) {
    if isDelivering {
      for value in values { action(value) }
      return
    }
    isDelivering = true
    for value in values { action(value) }
    if !pending.isEmpty { drainPending() }
    isDelivering = false
    if tombstones != 0 { compactIfNeeded() }
  }

  /// Calls the observers at indices below `end`: those that existed when `value` was sent.
  @inlinable
  final func deliver(_ value: Value, upTo end: Int) {
    // Observers added during this delivery get the current value from `replay` and only later
    // sends; removed ones are tombstoned (`Action.removed`), and nothing is compacted while a delivery is
    // under way, so indices below `end` keep naming the same observers while callbacks run.
    var index = 0
    while index < end {
      actions[index].call(value)
      index &+= 1
    }
  }

  @inlinable
  final func drainPending() {
    var head = 0
    while head < pending.count {
      let (value, end) = pending[head]
      head += 1
      deliver(value, upTo: end)
    }
    // Release the delivered values after the write to `pending`, not inside it: a value's
    // `deinit` may send on this list.
    let delivered = pending
    pending = []
    withExtendedLifetime(delivered) {}
  }

  /// Drops the action of an entry `removeObserver` has just marked removed.
  @inlinable
  final func releaseAction(at index: Int) {
    // Move the closure out before the arrays change: releasing it may run a `deinit` that
    // touches this list, which must not happen inside an access to `actions`.
    let removed = actions[index]
    if !isDelivering && index == actions.count - 1 {
      // The common case (the newest observer goes first): shrink instead of tombstoning, and
      // take any tombstones that end the arrays with it.
      repeat {
        ids.removeLast()
        actions.removeLast()
        tombstones -= 1
      } while (ids.last ?? 0) & Self.removedFlag != 0
    } else {
      actions[index] = .removed
      if !isDelivering { compactIfNeeded() }
    }
    withExtendedLifetime(removed) {}
  }

  @usableFromInline
  override final func addDependent(_ tracker: DependencyTracker) -> UInt64 {
    let id = nextID
    nextID &+= 1
    ids.append(id)
    if tracker.isDebugging {
      // `observe(debug:)` says what changed: the value's type and the value it changed to.
      actions.append(
        Action { [unowned(unsafe) tracker] value in
          tracker.setNeedsRun(because: "a Property<\(Value.self)> it read became \(value)")
        })
    } else {
      actions.append(Action { [unowned(unsafe) tracker] _ in tracker.setNeedsRun() })
    }
    return id
  }

  @inlinable
  final func compactIfNeeded() {
    // Amortized O(1): sweep only when tombstones are at least half the entries.
    guard tombstones * 2 >= ids.count, !isDelivering else { return }
    var kept = 0
    for index in ids.indices where ids[index] & Self.removedFlag == 0 {
      ids[kept] = ids[index]
      actions.swapAt(kept, index)
      kept += 1
    }
    ids.removeLast(ids.count - kept)
    actions.removeLast(actions.count - kept)
    tombstones = 0
  }
}
