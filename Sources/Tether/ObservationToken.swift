/// A handle to one observation: cancelling it stops the deliveries it stands for.
///
/// Every way of observing in Tether returns a token: ``Property/observe(_:)``,
/// ``Signal/observe(_:)`` and ``observe(isolation:_:)``. The observation lasts exactly as long as
/// the token is alive or until ``cancel()`` is called, whichever comes first:
///
/// ```swift
/// final class PhotoListView {
///   private let lifetime = Lifetime()
///
///   init(viewModel: PhotoListViewModel) {
///     viewModel.isLoading.observe { [weak self] in self?.spinner.isHidden = !$0 }
///       .store(in: lifetime)
///   }
/// }
/// ```
///
/// > Note: A token holds the source it observes weakly, so keeping a token never keeps a view
/// > model's property alive. Tokens are not `Sendable`: like the properties they observe, they
/// > belong to the isolation domain that created them.
///
/// Bindings made with `<~` are the one exception to "dropped token, ended observation": a
/// binding's token is owned by the binding itself, which ends when its target deallocates.
/// See ``BindingTarget``.
public class ObservationToken: Hashable {
  @usableFromInline
  internal final weak var source: ObserverListBase?
  @usableFromInline
  internal final var id: UInt64

  @usableFromInline
  internal init(source: ObserverListBase?, id: UInt64) {
    self.source = source
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
    removeObserver()
  }

  /// Whether ``cancel()`` has run (explicitly, or because the source went away).
  public var isCancelled: Bool {
    id == 0 || source == nil
  }

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
    let id = self.id
    self.id = 0
    source?.removeObserver(id: id)
    source = nil
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
    super.init(source: nil, id: 1)
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

/// A token that ends several observations at once, for operators built from more than one.
final class CompositeToken: ObservationToken {
  private var tokens: [ObservationToken]

  init(_ tokens: [ObservationToken]) {
    self.tokens = tokens
    super.init(source: nil, id: 1)
  }

  deinit {
    cancel()
  }

  override var isCancelled: Bool {
    id == 0
  }

  override func cancel() {
    guard id != 0 else { return }
    id = 0
    let tokens = self.tokens
    self.tokens = []
    for token in tokens { token.cancel() }
  }
}
