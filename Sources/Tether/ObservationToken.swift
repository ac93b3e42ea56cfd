/// A handle to one observation: cancelling it stops the deliveries it stands for.
///
/// Every way of observing in Tether returns a token: ``Property/observe(_:)``,
/// ``Signal/observe(_:)`` and ``observe(isolation:_:)``. The observation lasts exactly as long as
/// the token is alive or until ``cancel()`` is called, whichever comes first:
///
/// ```swift
/// final class PhotoListView {
///   private let lifetime = Lifetime()
///   private let spinner = Spinner()
///
///   init(viewModel: PhotoListViewModel) {
///     viewModel.isLoading.observe { [weak self] in self?.spinner.isHidden = !$0 }
///       .store(in: lifetime)
///   }
/// }
/// ```
///
/// > Note: A token keeps the property or signal it observes alive, so
/// > `viewModel.name.map { … }.observe { … }` keeps the derived property for as long as the
/// > token. Tokens are not `Sendable`: like the properties they observe, they belong to the
/// > isolation domain that created them.
///
/// Bindings made with `<~` are the one exception to "dropped token, ended observation": a
/// binding owns itself and ends when its target deallocates, so its token may be discarded.
/// See ``BindingTarget``.
public class ObservationToken: Hashable {
  // The three stored properties are `@exclusivity(unchecked)`: dynamic exclusivity checks on
  // them would be about a third of subscribe + cancel, and they can never fire. Each access is one load or store inside
  // this file. `removeObserver()` clears `id` before it calls into the list (a re-entrant
  // cancel from a released closure's `deinit` then sees 0 and returns), and each other field
  // is its own location: a `deinit` run by releasing `owner` can reach this token only through
  // `cancel()`, which reads `id` alone.
  /// The observed property or signal, kept alive by the observation.
  @usableFromInline @exclusivity(unchecked)
  internal final var owner: AnyObject?
  /// The observer list of `owner`. Not counted: `owner` owns the list through a `let`, and the
  /// token holds `owner` for as long as it reads `list`, so the list is alive whenever it is used.
  @usableFromInline @exclusivity(unchecked)
  internal final unowned(unsafe) var list: ObserverListBase?
  /// The observer's id in `list`; 0 once cancelled. The top bit marks a detached token.
  @usableFromInline @exclusivity(unchecked)
  internal final var id: UInt64

  @usableFromInline
  internal static let detachedFlag: UInt64 = 1 << 63

  @usableFromInline
  internal init(owner: AnyObject?, list: ObserverListBase?, id: UInt64) {
    self.owner = owner
    self.list = list
    self.id = id
  }

  /// Creates a token that runs `onCancel` once, when it is cancelled or deallocated.
  ///
  /// Use it to give custom observations (a timer, a task, a subscription to another library)
  /// the same lifetime rules as Tether's own.
  ///
  /// - Parameter onCancel: The work that ends the observation. It runs at most once.
  /// - Returns: A token that owns `onCancel`.
  public static func onCancel(_ onCancel: @escaping () -> Void) -> ObservationToken {
    ActionToken(onCancel)
  }

  deinit {
    // Not `cancel()`: subclasses have already destroyed their stored properties by the time
    // this runs, so they end their own observations in their own `deinit`.
    if id & Self.detachedFlag == 0 { removeObserver() }
  }

  /// Whether ``cancel()`` has run.
  public var isCancelled: Bool {
    id == 0
  }

  /// Hands the observation to its list: it no longer ends when this token is dropped, only
  /// when its entry is removed through ``handle`` (an `AsyncSequence` of a property ends itself
  /// when its consumer goes away) or with the list.
  @usableFromInline
  internal final func detach() {
    guard id != 0, id & Self.detachedFlag == 0, let list, list.own(id: id) else { return }
    id |= Self.detachedFlag
    // The list's reference: the observation now lasts until its entry is removed (through
    // `handle`), and no longer keeps the observed object alive.
    _ = Unmanaged.passRetained(self)
    owner = nil
  }

  /// Called by the list when it removes an entry it owns, or frees itself: the token is
  /// cancelled, and never reaches the list again.
  @usableFromInline
  internal final func forget() {
    id = 0
    list = nil
  }

  /// The list and id of this observation, for entries that remove themselves.
  @usableFromInline
  internal final var handle: ObserverHandle {
    ObserverHandle(list: list, id: id & ~Self.detachedFlag)
  }

  /// For a token of `observe { }`: runs the observation now, as its next scheduled run
  /// would, so that run (and a wake-up from Observation for a change this run has seen) finds
  /// nothing left to do. For other tokens, nothing. The web layer uses it to send a render
  /// within a message's round trip without rendering the same change twice.
  package func runNow() {}

  /// Whether an `observe { }` run is owed: something its latest run read has changed, and the
  /// actor's next flush will run it. `false` for every other token.
  package var needsRun: Bool { false }

  /// Ends the observation. Calling it again does nothing.
  ///
  /// Cancelling from inside a delivery is safe: the cancelled observer receives nothing after
  /// this call returns, including values queued by re-entrant sets.
  public func cancel() {
    removeObserver()
  }

  @usableFromInline
  internal final func removeObserver() {
    guard id != 0 else { return }
    let id = self.id & ~Self.detachedFlag
    self.id = 0
    list?.removeObserver(id: id)
    list = nil
    owner = nil
  }

  /// Keeps the token alive as long as `lifetime`, cancelling it when the lifetime ends.
  ///
  /// - Parameter lifetime: The lifetime that takes ownership of this token.
  public final func store(in lifetime: Lifetime) {
    lifetime.add(self)
  }

  /// Keeps the token alive in a set, the way Combine's `AnyCancellable` is kept.
  ///
  /// - Parameter set: The set that takes ownership of this token.
  public final func store(in set: inout Set<ObservationToken>) {
    set.insert(self)
  }

  /// Tokens are equal only to themselves.
  public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
    lhs === rhs
  }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

/// A token whose cancellation is arbitrary work rather than the removal of one observer.
final class ActionToken: ObservationToken {
  private var action: (() -> Void)?

  init(_ action: @escaping () -> Void) {
    self.action = action
    super.init(owner: nil, list: nil, id: 1)
  }

  deinit {
    cancel()
  }

  override var isCancelled: Bool {
    action == nil
  }

  override func cancel() {
    guard let action else { return }
    self.action = nil
    id = 0
    action()
  }
}

/// A weak reference to one observer entry, for entries that must be able to remove themselves
/// without keeping their source alive (a binding, an `AsyncStream` bridge).
@usableFromInline
internal struct ObserverHandle {
  @usableFromInline weak var list: ObserverListBase?
  @usableFromInline let id: UInt64

  @usableFromInline
  init(list: ObserverListBase?, id: UInt64) {
    self.list = list
    self.id = id
  }

  @usableFromInline
  func remove() {
    list?.removeObserver(id: id)
  }
}
