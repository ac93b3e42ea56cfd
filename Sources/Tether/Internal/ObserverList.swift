/// The part of an observer list that does not depend on the value type, so that an
/// ``ObservationToken`` can remove its observer without being generic.
@usableFromInline
internal class ObserverListBase {
  /// The property or signal that owns this list through a `let`. Not counted, to avoid a
  /// cycle; read only by `add`, which runs while the owner is alive (it is the caller).
  @usableFromInline
  final unowned(unsafe) var owner: AnyObject?

  @usableFromInline
  init() {}

  /// Removes the observer with `id`; unknown or already removed ids are ignored.
  @usableFromInline
  func removeObserver(id: UInt64) {}

  /// Adds an observer that is told *that* the value changed, for dependency tracking.
  @usableFromInline
  func addChangeObserver(_ action: @escaping () -> Void) -> ObservationToken {
    ObservationToken(owner: nil, list: nil, id: 0)
  }
}

/// The observers of one ``Property`` or ``Signal``, and the delivery loop.
///
/// Design constraints, all on the hot path:
/// - no locks: the list is confined to its owner's isolation domain;
/// - no allocation per `send` (the entries array and its closures already exist);
/// - 24 bytes per observer (an id and a closure) plus the token;
/// - subscribe is an append; cancel is a binary search on the ascending ids, O(1) at the tail;
/// - re-entrancy: a `send` during a delivery is queued and delivered, in order, after the
///   current value reaches every observer; the stack never grows with re-entrant sends.
@usableFromInline
internal final class ObserverList<Value>: ObserverListBase {
  @usableFromInline
  struct Entry {
    @usableFromInline var id: UInt64
    @usableFromInline var action: ((Value) -> Void)?

    @inlinable
    init(id: UInt64, action: @escaping (Value) -> Void) {
      self.id = id
      self.action = action
    }
  }

  @usableFromInline var entries: ContiguousArray<Entry> = []
  @usableFromInline var nextID: UInt64 = 1
  /// Removed entries still in `entries` (their `action` is nil).
  @usableFromInline var tombstones = 0
  @usableFromInline var isDelivering = false
  /// Values sent re-entrantly during a delivery, waiting their turn.
  @usableFromInline var pending: ContiguousArray<Value> = []

  @inlinable
  init(owner: AnyObject?) {
    super.init()
    self.owner = owner
  }

  /// The number of live observers.
  @inlinable
  var count: Int { entries.count - tombstones }

  @inlinable
  func add(_ action: @escaping (Value) -> Void) -> ObservationToken {
    let id = nextID
    nextID &+= 1
    entries.append(Entry(id: id, action: action))
    return ObservationToken(owner: owner, list: self, id: id)
  }

  /// Delivers `value` to every observer, or queues it if a delivery is under way.
  @inlinable
  func send(_ value: Value) {
    if entries.isEmpty { return }
    if isDelivering {
      pending.append(value)
      return
    }
    isDelivering = true
    deliver(value)
    if !pending.isEmpty { drainPending() }
    isDelivering = false
    if tombstones != 0 { compactIfNeeded() }
  }

  /// Calls `replay` for a freshly added observer under the same re-entrancy rules as `send`.
  @inlinable
  func replay(_ value: Value, to action: (Value) -> Void) {
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

  @inlinable
  func deliver(_ value: Value) {
    // Observers added during this delivery start with the next value; removed ones are
    // tombstoned (nil), so indices below `end` stay valid while callbacks run.
    let end = entries.count
    var index = 0
    while index < end {
      if let action = entries[index].action {
        action(value)
      }
      index &+= 1
    }
  }

  @usableFromInline
  func drainPending() {
    var head = 0
    while head < pending.count {
      let value = pending[head]
      head += 1
      deliver(value)
    }
    pending = []
  }

  @usableFromInline
  override func removeObserver(id: UInt64) {
    guard let index = index(of: id) else { return }
    // Move the closure out before the slot changes: releasing it may run a `deinit` that
    // touches this list, which must not happen inside an access to `entries`.
    let removed = entries[index].action
    if !isDelivering && index == entries.count - 1 {
      entries.removeLast()
      while let last = entries.last, last.action == nil {
        entries.removeLast()
        tombstones -= 1
      }
    } else {
      entries[index].action = nil
      tombstones += 1
      if !isDelivering { compactIfNeeded() }
    }
    withExtendedLifetime(removed) {}
  }

  @usableFromInline
  override func addChangeObserver(_ action: @escaping () -> Void) -> ObservationToken {
    add { _ in action() }
  }

  /// Binary search: ids are assigned in ascending order and entries keep that order.
  @usableFromInline
  func index(of id: UInt64) -> Int? {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) / 2
      let midID = entries[mid].id
      if midID == id {
        return entries[mid].action == nil ? nil : mid
      } else if midID < id {
        low = mid + 1
      } else {
        high = mid
      }
    }
    return nil
  }

  @usableFromInline
  func compactIfNeeded() {
    // Amortized O(1): sweep only when tombstones are at least half the entries.
    guard tombstones * 2 >= entries.count, !isDelivering else { return }
    entries.removeAll { $0.action == nil }
    tombstones = 0
  }
}
