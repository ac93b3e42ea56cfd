/// The part of an observer list that does not depend on the value type: the ids, the
/// bookkeeping, and the search. An ``ObservationToken`` cancels through it without being
/// generic, and without running unspecialized generic code.
///
/// The mutable state of both list classes is `@exclusivity(unchecked)`. Dynamic exclusivity
/// checks would be most of a `set` here (one `swift_beginAccess` per field access, several per
/// stage of a `map.map` chain), and they can never fire on these fields: every access is a short read or
/// write inside this file; observers are called only after the access that loaded them
/// has ended, and removed observers and queued values are released only after their access has
/// ended (they are moved out first). No access to these fields is ever open while user code
/// runs. `Property.storage` is unchecked as well; `modify { }`, the one place that runs user
/// code inside an access to it, guards against writes with `isModifying` instead.
@usableFromInline
internal class ObserverListBase {
  /// The property or signal that owns this list through a `let`. Not counted, to avoid a
  /// cycle; read only by `add`, which runs while the owner is alive (it is the caller).
  @usableFromInline @exclusivity(unchecked)
  final unowned(unsafe) var owner: AnyObject?
  /// Observer ids, ascending, parallel to the generic list's entries. A removed observer keeps
  /// its slot until compaction, marked with `removedFlag`; an entry the list owns (see
  /// ``ObserverList``) is marked with `ownedFlag`. Both are masked out when searching, so the
  /// order holds.
  @usableFromInline @exclusivity(unchecked)
  final var ids: ContiguousArray<UInt64> = []
  @usableFromInline @exclusivity(unchecked)
  final var nextID: UInt64 = 1
  /// Removed entries still in the arrays.
  @usableFromInline @exclusivity(unchecked)
  final var tombstones = 0
  @usableFromInline @exclusivity(unchecked)
  final var isDelivering = false
  /// The index of the entry being called, so that a stage can ask, after running the app's
  /// code, whether that code removed it (``isCallingRemovedEntry``). 32 bits, beside
  /// `isDelivering`: every property has a list, so its size is a session's memory.
  @usableFromInline @exclusivity(unchecked)
  final var callingIndex: Int32 = 0
  /// Clears, drops or compacts the entry at an index: created by the generic list in
  /// specialized code, so cancelling never runs unspecialized generic code.
  @usableFromInline
  final let releaseAction: (ObserverListBase, Int) -> Void

  @usableFromInline
  static var removedFlag: UInt64 { 1 << 62 }
  @usableFromInline
  static var ownedFlag: UInt64 { 1 << 61 }
  /// Marks an entry that is a ``DependencyTracker`` (an `observe { }` that read the value),
  /// told *that* the value changed; it has no token or closure.
  @usableFromInline
  static var dependentFlag: UInt64 { 1 << 60 }

  @usableFromInline
  init(releaseAction: @escaping (ObserverListBase, Int) -> Void) {
    self.releaseAction = releaseAction
  }

  /// The number of live observers.
  @inlinable
  final var count: Int { ids.count - tombstones }

  /// Whether the entry being called was removed while it ran: a stage that has run the app's
  /// code (a `map`'s transform) asks before it touches its target, which that code may have
  /// freed (freeing a stage removes its entry first).
  @inlinable
  final var isCallingRemovedEntry: Bool { ids[Int(callingIndex)] & Self.removedFlag != 0 }

  /// Removes the observer with `id`; unknown or already removed ids are ignored.
  @usableFromInline
  final func removeObserver(id: UInt64) {
    guard let index = index(of: id) else { return }
    ids[index] |= Self.removedFlag
    tombstones += 1
    releaseAction(self, index)
  }

  /// Makes the list the owner of the entry with `id` (a detached token): it is released when
  /// the entry is removed, or with the list.
  @usableFromInline
  final func own(id: UInt64) -> Bool {
    guard let index = index(of: id), ids[index] & Self.ownedFlag == 0 else { return false }
    ids[index] |= Self.ownedFlag
    return true
  }

  /// Binary search: ids are assigned in ascending order and keep it.
  @usableFromInline
  final func index(of id: UInt64) -> Int? {
    var low = 0
    var high = ids.count
    let mask = ~(Self.removedFlag | Self.ownedFlag | Self.dependentFlag)
    while low < high {
      let mid = (low &+ high) / 2
      let candidate = ids[mid]
      let midID = candidate & mask
      if midID == id {
        return candidate & Self.removedFlag == 0 ? mid : nil
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
  /// The entry is the tracker itself, unretained: the tracker removes its entries before it
  /// can be freed (see ``DependencyTracker``), and telling it runs none of the app's code.
  ///
  /// - Returns: The entry's id, for ``removeObserver(id:)``.
  @usableFromInline
  final func addDependent(_ tracker: DependencyTracker) -> UInt64 {
    let id = nextID
    nextID &+= 1
    ids.append(id | Self.dependentFlag)
    appendEntry(Unmanaged.passUnretained(tracker).toOpaque())
    return id
  }

  /// Tells the tracker at `tracker` that the value changed, unless it is debugging: then it
  /// returns `false`, and the caller, which knows the value, says what changed.
  @usableFromInline
  static func tellDependent(_ tracker: UnsafeMutableRawPointer) -> Bool {
    Unmanaged<DependencyTracker>.fromOpaque(tracker)._withUnsafeGuaranteedRef { tracker in
      if tracker.isDebugging { return false }
      tracker.setNeedsRun()
      return true
    }
  }

  @usableFromInline
  func appendEntry(_ entry: UnsafeMutableRawPointer) {
    preconditionFailure("ObserverListBase is abstract: only ObserverList<Value> is created")
  }
}

/// The observers of one ``Property`` or ``Signal``, and the delivery loop.
///
/// Design constraints, all on the hot path:
/// - no locks: the list is confined to its owner's isolation domain;
/// - no allocation per `send`, and no reference counting per observer called: entries are
///   called through unretained references (see "Lifetimes" below);
/// - 16 bytes per observer in the list (an id and a reference) besides the token, which holds
///   the closure;
/// - subscribe is an append; cancel is a binary search on the ascending ids, O(1) at the tail;
/// - re-entrancy: a `send` during a delivery is queued and delivered, in order, after the
///   current value reaches every observer; the stack never grows with re-entrant sends;
/// - everything a client calls is `@inlinable`, so it runs specialized for the value type.
///
/// Lifetimes, without a retain per call: an observer may cancel itself, drop its token, or
/// free the whole chain it belongs to while it runs. So, while a delivery is under way:
/// - a removed entry's closure (and an owned entry) is kept until the delivery ends;
/// - the list itself is kept until the delivery ends if its owner is freed
///   (`ownerWillBeFreed()`);
/// - a stage that runs the app's code before it updates its target checks that it was not
///   removed meanwhile (``ObserverListBase/isCallingRemovedEntry``).
@usableFromInline
internal final class ObserverList<Value>: ObserverListBase {
  /// The observers, parallel to `ids`: an `ObserverEntry<Value>`, or a `DependencyTracker`
  /// where the id has `dependentFlag`. A removed entry's slot is never read (its id says it is
  /// removed) and is dropped at compaction.
  @usableFromInline @exclusivity(unchecked)
  final var entries: ContiguousArray<UnsafeMutableRawPointer> = []
  /// What waits for the end of the delivery under way, made the first time something does:
  /// most deliveries have nothing waiting, and most lists never have.
  @usableFromInline @exclusivity(unchecked)
  final var backlog: DeliveryBacklog<Value>?

  @inlinable
  init(owner: AnyObject?) {
    super.init { list, index in
      // Safe downcast: this closure is only ever stored in, and called with, this very list.
      unsafeDowncast(list, to: ObserverList<Value>.self).releaseEntry(at: index)
    }
    self.owner = owner
  }

  deinit {
    // Entries still here are owned ones (a live token keeps the list's owner, and with it the
    // list): end their tokens, then release them.
    for index in ids.indices where ids[index] & (Self.removedFlag | Self.dependentFlag) == 0 {
      let entry = Self.entry(entries[index])
      entry._withUnsafeGuaranteedRef { $0.forget() }
      if ids[index] & Self.ownedFlag != 0 { entry.release() }
    }
  }

  @inlinable
  final func add(_ action: @escaping (Value) -> Void) -> ObservationToken {
    let id = nextID
    nextID &+= 1
    let entry = ObserverEntry(action, owner: owner, list: self, id: id)
    ids.append(id)
    entries.append(Unmanaged.passUnretained(entry).toOpaque())
    return entry
  }

  @inlinable
  static func entry(_ pointer: UnsafeMutableRawPointer) -> Unmanaged<ObserverEntry<Value>> {
    Unmanaged.fromOpaque(pointer)
  }

  @usableFromInline
  override final func appendEntry(_ entry: UnsafeMutableRawPointer) {
    entries.append(entry)
  }

  /// Delivers `value` to every observer, or queues it if a delivery is under way.
  @inlinable
  final func send(_ value: Value) {
    if entries.isEmpty { return }
    if isDelivering {
      madeBacklog().pending.append((value, entries.count))
      return
    }
    isDelivering = true
    deliver(value, upTo: entries.count)
    endDelivery()
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
    endDelivery()
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
    endDelivery()
  }

  /// Calls the observers at indices below `end`: those that existed when `value` was sent.
  @inlinable
  final func deliver(_ value: Value, upTo end: Int) {
    // Observers added during this delivery get the current value from `replay` and only later
    // sends; removed ones are skipped, and nothing is compacted while a delivery is under
    // way, so indices below `end` keep naming the same observers while callbacks run.
    var index = 0
    while index < end {
      let kind = ids[index] & (Self.removedFlag | Self.dependentFlag)
      if kind == 0 {
        callingIndex = Int32(truncatingIfNeeded: index)
        // Unretained: an entry removed while it runs keeps its closure until the delivery
        // ends (`releaseEntry(at:)`), and the entry is never touched after its call.
        Self.entry(entries[index])._withUnsafeGuaranteedRef { $0.call(value) }
      } else if kind == Self.dependentFlag, !Self.tellDependent(entries[index]) {
        tellDebugging(entries[index], value)
      }
      index &+= 1
    }
  }

  /// `observe(debug:)` says what changed: the value's type and the value it changed to.
  @usableFromInline
  final func tellDebugging(_ tracker: UnsafeMutableRawPointer, _ value: Value) {
    Unmanaged<DependencyTracker>.fromOpaque(tracker)._withUnsafeGuaranteedRef {
      $0.setNeedsRun(because: "a Property<\(Value.self)> it read became \(value)")
    }
  }

  @inlinable
  final func madeBacklog() -> DeliveryBacklog<Value> {
    if let backlog { return backlog }
    let made = DeliveryBacklog<Value>()
    backlog = made
    return made
  }

  /// Ends a delivery: compacts, or, when something waits, delivers the values sent meanwhile
  /// and releases what waited for the end.
  @inlinable
  final func endDelivery() {
    if backlog != nil {
      endDeliveryWithBacklog()
    } else {
      isDelivering = false
      if tombstones != 0 { compactIfNeeded() }
    }
  }

  @inlinable
  final func endDeliveryWithBacklog() {
    if let backlog, !backlog.pending.isEmpty {
      var head = 0
      while head < backlog.pending.count {
        let (value, end) = backlog.pending[head]
        head += 1
        deliver(value, upTo: end)
      }
      // Release the delivered values after the write to `pending`, not inside it: a value's
      // `deinit` may send on this list.
      let delivered = backlog.pending
      backlog.pending = []
      withExtendedLifetime(delivered) {}
    }
    isDelivering = false
    if tombstones != 0 { compactIfNeeded() }
    guard let backlog else { return }
    self.backlog = nil
    let kept = backlog.keptAlive
    backlog.keptAlive = nil
    // Their `deinit`s may use this list (it is not delivering any more).
    Self.release(backlog)
    // Last: this may free the list.
    kept?.release()
  }

  @usableFromInline
  static func release(_ backlog: DeliveryBacklog<Value>) {
    for entry in backlog.removedOwned { entry.release() }
    backlog.removedOwned = []
    backlog.removedCalls = []
  }

  /// Called by the owner's `deinit`: if the owner is freed by one of its own observers, the
  /// delivery under way still runs on this list, so the list stays until that delivery ends.
  @inlinable
  final func ownerWillBeFreed() {
    guard isDelivering else { return }
    let backlog = madeBacklog()
    if backlog.keptAlive == nil { backlog.keptAlive = Unmanaged.passRetained(self) }
  }

  /// Drops the entry `removeObserver` has just marked removed.
  @inlinable
  final func releaseEntry(at index: Int) {
    // A tracker removing its dependency is alive, and runs no app code when told: nothing to
    // keep or release.
    let isDependent = ids[index] & Self.dependentFlag != 0
    if isDependent && isDelivering { return }
    let entry = Self.entry(entries[index])
    let isOwned = ids[index] & Self.ownedFlag != 0
    // The entry is alive here: its token is removing itself, or the list owns it.
    if isOwned { entry._withUnsafeGuaranteedRef { $0.forget() } }
    if isDelivering {
      // It may be the entry running now (or one further up this list's delivery): keep what
      // it runs until the delivery ends.
      if isOwned {
        madeBacklog().removedOwned.append(entry)
      } else {
        madeBacklog().removedCalls.append(entry._withUnsafeGuaranteedRef { $0.call })
      }
      return
    }
    if index == entries.count - 1 {
      // The common case (the newest observer goes first): shrink instead of tombstoning, and
      // take any tombstones that end the arrays with it.
      repeat {
        ids.removeLast()
        entries.removeLast()
        tombstones -= 1
      } while (ids.last ?? 0) & Self.removedFlag != 0
    } else {
      compactIfNeeded()
    }
    // After the arrays changed: the release may run a `deinit` that uses this list.
    if isOwned { entry.release() }
  }

  @inlinable
  final func compactIfNeeded() {
    // Amortized O(1): sweep only when tombstones are at least half the entries.
    guard tombstones * 2 >= ids.count, !isDelivering else { return }
    var kept = 0
    for index in ids.indices where ids[index] & Self.removedFlag == 0 {
      ids[kept] = ids[index]
      entries[kept] = entries[index]
      kept += 1
    }
    ids.removeLast(ids.count - kept)
    entries.removeLast(entries.count - kept)
    tombstones = 0
  }
}
