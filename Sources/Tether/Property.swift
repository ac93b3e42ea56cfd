import Observation
import TetherTrackingSupport

/// Observable state with a current value: read-only to the code that holds it.
///
/// A property always has a value. Observing it delivers **the current value first, followed by
/// every change**, so a view that binds late still shows the right state (the "Driver"
/// semantics of RxCocoa, without a scheduler):
///
/// ```swift
/// final class PhotoListViewModel {
///   private let _isLoading = MutableProperty(false)
///   var isLoading: Property<Bool> { _isLoading }     // outputs are read-only by type
/// }
/// // …
/// // Runs now, then on each change.
/// let token = viewModel.isLoading.observe { spinner.isAnimating = $0 }
/// ```
///
/// Derived properties (`map(_:)`, ``combineLatest(with:)``, ``skipRepeats()``…) are
/// properties too: they hold their value, replay it, and keep their sources alive.
///
/// > Note: `Property` is deliberately not `Sendable`. The compiler confines each property to the
/// > isolation domain that owns it (normally a `@MainActor` view model), so observers always run
/// > there and no lock is taken to read, set or deliver a value. Move values between domains with `async` calls or
/// > with ``values``.
///
/// Every change is delivered, including a value equal to the previous one; use
/// ``skipRepeats()`` when only distinct values matter.
public class Property<Value> {
  /// The current value. Unchecked by the runtime's exclusivity enforcement (a `set` paid two
  /// `swift_beginAccess` calls for it): our own accesses never overlap, and the one place user
  /// code runs inside an access, ``MutableProperty/modify(_:)``, guards writes with
  /// `isModifying` instead.
  @usableFromInline @exclusivity(unchecked)
  internal final var storage: Value
  /// Set while `modify { }` holds `storage` in place, so a write from inside it traps with a
  /// clear message rather than corrupting the value being modified.
  @usableFromInline @exclusivity(unchecked)
  internal final var isModifying = false
  /// Whether an Observation tracking may have registered this property since it last told
  /// Observation of a change: the gate that keeps the registrar off the hot path.
  ///
  /// Set by every read of ``value`` outside Tether's tracking (the only way a
  /// `withObservationTracking` can register it), cleared when a change is reported. Clearing
  /// is exact because Observation's trackings are one-shot: reporting a change ends every
  /// tracking that had registered the property, so until the next read nothing is watching.
  @usableFromInline @exclusivity(unchecked)
  internal final var mayBeObserved = false
  @usableFromInline
  internal final let observers: ObserverList<Value>
  /// What a derived property keeps alive besides its subscriptions: its sources, timers.
  @usableFromInline
  internal final var retained: [AnyObject] = []
  /// A derived property's subscriptions to its sources, cancelled first thing in `deinit`.
  ///
  /// Their closures reach this property unretained (a weak reference cost a boxed variable
  /// access and side-table reference counting on every delivery; a retained one, a retain and
  /// a release per stage). That is safe because:
  /// - `deinit` cancels these before any other teardown can run code, and cancelling marks an
  ///   entry removed before anything is released: once this property starts to deinitialize,
  ///   no source calls the closures again;
  /// - a closure that runs the app's code before it updates this property (a `map`'s
  ///   transform) asks its source's list whether that code removed it
  ///   (`isCallingRemovedEntry`) before it touches the property;
  /// - freed by one of its own observers, this property's list outlives it until the delivery
  ///   ends (`ownerWillBeFreed`), and `update` touches the property no more after its send
  ///   (the Observation path, which runs the app's code before the send, holds it).
  @usableFromInline
  internal final var subscriptions: [ObservationToken] = []
  /// This property's registrar for Apple's Observation, made by the first read of ``value``
  /// outside Tether's own tracking (most properties never need one).
  @usableFromInline
  internal final var observationLink: ObservationLink?

  /// Creates a property whose value never changes.
  ///
  /// - Parameter value: The constant value, replayed to every observer.
  @inlinable
  public init(value: Value) {
    storage = value
    observers = ObserverList(owner: nil)
    observers.owner = self
  }

  /// Creates a read-only view of `property` that follows its every change.
  ///
  /// Upcasting a ``MutableProperty`` to `Property` is free and usually enough; this wrapper
  /// also hides the mutable object from code that might downcast it.
  ///
  /// - Parameter property: The property to mirror. It is kept alive by the new property.
  public convenience init(_ property: Property<Value>) {
    self.init(derivedFrom: property, initial: property.storage)
    // Unretained: see `Property.subscriptions` for why this cannot dangle.
    let target = Unmanaged.passUnretained(self)
    subscriptions.append(
      property.observers.add { value in target._withUnsafeGuaranteedRef { $0.update(value) } })
  }

  deinit {
    observers.ownerWillBeFreed()
    for token in subscriptions { token.cancel() }
  }

  @inlinable
  internal init(derivedFrom source: AnyObject?, initial: Value) {
    storage = initial
    observers = ObserverList(owner: nil)
    observers.owner = self
    if let source { retained.append(source) }
  }

  /// The current value.
  ///
  /// Reading it inside ``observe(isolation:_:)`` makes that observation depend on this property.
  /// Reading it anywhere else registers it with Apple's Observation, so a SwiftUI `body`, a
  /// UIKit `updateProperties()` or a `withObservationTracking` closure that reads it is told of
  /// its next change (see <doc:UsingTetherWithSwiftUIAndUIKit>).
  public var value: Value {
    recordRead()
    return storage
  }

  /// Observes the current value now and every change after it.
  ///
  /// - Parameter action: Called synchronously with the current value before `observe`
  ///   returns, then with each new value, in order, on the property's isolation domain.
  /// - Returns: A token; the observation ends when it is cancelled or deallocated, so a token
  ///   that is not kept ends it at once (the compiler warns of an unused result). To tie the
  ///   observation to an object instead, use ``observe(for:_:)``.
  ///
  /// > Note: `action` is stored by the property until the token ends. Capture the view weakly
  /// > (`[weak self]`) if the view owns the token, or the view and the token keep each other.
  @inlinable
  public final func observe(_ action: @escaping (Value) -> Void) -> ObservationToken {
    let token = observers.add(action)
    observers.replay(storage, to: action)
    return token
  }

  /// The number of live observers, for diagnostics and tests.
  @inlinable
  public final var observerCount: Int { observers.count }

  /// Sets the stored value and delivers it to the observers.
  @inlinable
  internal final func update(_ newValue: Value) {
    if isModifying { modificationConflict() }
    // The Observation path is out of line: holding even a nil registrar reference here costs a
    // release call per set, on every stage of a chain.
    if mayBeObserved {
      // Observation's `willSet` runs the app's code, which may free this property: a stage
      // reaches it unretained, so it holds itself until its delivery is done.
      let held = Unmanaged.passRetained(self)
      storeReportingToObservation(newValue)
      observers.send(newValue)
      held.release()
    } else {
      storage = newValue
      observers.send(newValue)
    }
  }

  /// Stores `newValue` inside Observation's willSet / didSet.
  @usableFromInline
  internal final func storeReportingToObservation(_ newValue: Value) {
    let link = observationWillSet()
    storage = newValue
    link?.didSet()
  }

  /// Tells Observation that the value is about to change, and closes the gate: every tracking
  /// that registered this property ends with this change. A read made by Observation's own
  /// callbacks opens it again.
  @usableFromInline @discardableResult
  internal final func observationWillSet() -> ObservationLink? {
    mayBeObserved = false
    observationLink?.willSet()
    return observationLink
  }

  @usableFromInline
  internal final func modificationConflict() -> Never {
    preconditionFailure(
      "\(Self.self) was set from inside its own modify { }: mutate the inout value instead")
  }

  /// Registers this property with the `observe { }` run on this thread, if there is one, and
  /// otherwise with Apple's Observation. Never both: an `observe { }` run is itself inside
  /// `withObservationTracking`, and must re-run once per change, not twice.
  @inlinable
  internal final func recordRead() {
    if let tracker = tether_get_current_tracker() {
      DependencyTracker.recordRead(of: observers, in: tracker)
    } else {
      registerObservationAccess()
    }
  }

  @usableFromInline
  internal final func registerObservationAccess() {
    let link: ObservationLink
    if let observationLink {
      link = observationLink
    } else {
      link = ObservationLink()
      observationLink = link
    }
    mayBeObserved = true
    link.access()
  }

  /// Keeps `object` (a source or a token) alive as long as this property.
  @usableFromInline
  internal final func retain(_ object: AnyObject) {
    retained.append(object)
  }
}

/// Read/write observable state: the mutable counterpart of ``Property``.
///
/// A view model owns its mutable properties privately and exposes them as ``Property``:
///
/// ```swift
/// @MainActor final class EntryViewModel {
///   private let fetcher = UserFetcher()
///   private let _userName = MutableProperty<String?>(nil)
///   var userName: Property<String?> { _userName }
///
///   func fetchUser() async {
///     _userName.value = try? await fetcher.fetchUser().name
///   }
/// }
/// ```
///
/// It is also a binding target: `property <~ source` makes it follow `source` until either
/// property is deallocated. See ``BindingTarget``.
public final class MutableProperty<Value>: Property<Value> {
  private var _lifetime: Lifetime?

  /// Creates a property holding `initial`.
  ///
  /// - Parameter initial: The first value, replayed to every observer until it changes.
  @inlinable
  public init(_ initial: Value) {
    super.init(derivedFrom: nil, initial: initial)
  }

  /// The current value. Setting it delivers the new value to every observer, synchronously
  /// and in order, before the setter returns (unless a delivery of this property is already
  /// under way: then the value is queued and delivered right after it, never lost).
  ///
  /// A mutation in place (`count.value += 1`, `items.value.append(item)`) is one write, as
  /// ``modify(_:)`` makes it: the value is changed where it is stored (an array is not copied)
  /// and delivered once, and it is no read, so it neither makes an `observe { }` depend on the
  /// property nor registers it with Observation (an `@Output` behaves the same way).
  @inlinable
  public override var value: Value {
    get {
      recordRead()
      return storage
    }
    set {
      update(newValue)
    }
    _modify {
      if isModifying { modificationConflict() }
      // A flag, not the registrar reference: see `update(_:)`.
      let reportsToObservation = mayBeObserved
      if reportsToObservation { observationWillSet() }
      isModifying = true
      // A `defer` runs whether the access ends normally or is abandoned by a throw (in
      // `modify(_:)`'s body), so observers always hear of what the value now holds.
      defer {
        isModifying = false
        if reportsToObservation { observationLink?.didSet() }
        observers.send(storage)
      }
      yield &storage
    }
  }

  /// Mutates the value in place and delivers the result once.
  ///
  /// Use it for collections, to change one element without copying the whole array:
  ///
  /// ```swift
  /// cells.modify { $0[index].isSelected = true }
  /// ```
  ///
  /// - Parameter body: Mutates the value in place. It must not set this property (that stops
  ///   the program with a message naming the mistake); reading it sees the value as modified
  ///   so far. If it throws, what it changed before throwing stays and is delivered, then the
  ///   error is rethrown.
  /// - Returns: Whatever `body` returns.
  @inlinable
  @discardableResult
  public func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    // The mutating accessor of `value` is the one rule: what `body` changed, even before a
    // throw, is delivered once (a view must never show a value the property no longer holds).
    try body(&value)
  }

  /// The lifetime of this property, which owns the bindings into it.
  internal var lifetime: Lifetime {
    if let _lifetime { return _lifetime }
    let lifetime = Lifetime()
    _lifetime = lifetime
    return lifetime
  }

  deinit {
    _lifetime?.end()
  }
}
