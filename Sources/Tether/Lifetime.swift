/// A bag of observations that all end together, when the lifetime is deallocated or ended.
///
/// Give each view, view model or flow controller one lifetime and store its tokens in it; the
/// owner's `deinit` then ends every observation it made, with no bookkeeping:
///
/// ```swift
/// @MainActor final class ProfileHeaderView: @MainActor LifetimeProvider {
///   let lifetime = Lifetime()
///   let name = Label()
///   let bio = Label()
///
///   func bind(to viewModel: ProfileHeaderViewModel) {
///     BindingTarget(name, \.text, lifetime: lifetime) <~ viewModel.nickname
///     viewModel.bio.observe { [weak self] in self?.bio.text = $0 }.store(in: lifetime)
///   }
/// }
/// ```
///
/// > Note: A lifetime is not `Sendable`; it belongs to the isolation domain of its owner.
public final class Lifetime {
  private var tokens: [ObservationToken] = []
  private var endActions: [() -> Void] = []
  /// How many tokens the array may hold before cancelled ones are swept out.
  private var sweepThreshold = 16

  /// Whether ``end()`` has run. Tokens added to an ended lifetime are cancelled at once.
  public private(set) var hasEnded = false

  /// Creates a lifetime that has not ended.
  public init() {}

  deinit {
    end()
  }

  /// Takes ownership of `token`; it is cancelled when this lifetime ends.
  ///
  /// - Parameter token: The token to keep. If the lifetime has already ended it is cancelled.
  public func add(_ token: ObservationToken) {
    guard !hasEnded else {
      token.cancel()
      return
    }
    tokens.append(token)
    if tokens.count >= sweepThreshold {
      // Rebinding in a loop must not grow the bag without bound.
      tokens.removeAll { $0.isCancelled }
      sweepThreshold = max(16, tokens.count * 2)
    }
  }

  /// Runs `action` once when this lifetime ends (at once if it already has).
  ///
  /// - Parameter action: The work to run at the end of the lifetime.
  public func observeEnded(_ action: @escaping () -> Void) {
    guard !hasEnded else {
      action()
      return
    }
    endActions.append(action)
  }

  /// Cancels every stored token and runs the end actions. Calling it again does nothing.
  public func end() {
    guard !hasEnded else { return }
    hasEnded = true
    let tokens = self.tokens
    let actions = endActions
    self.tokens = []
    endActions = []
    for token in tokens { token.cancel() }
    for action in actions { action() }
  }

  /// The number of live (not yet cancelled) observations this lifetime holds.
  public var activeCount: Int {
    tokens.reduce(0) { $0 + ($1.isCancelled ? 0 : 1) }
  }
}

/// An object that owns a ``Lifetime``: it can be the target of `<~` bindings
/// (`object.bindable(\.keyPath)`), which end exactly when it deallocates.
///
/// Conform by storing one: `let lifetime = Lifetime()`. A `@MainActor` view conforms with an
/// isolated conformance, which keeps the lifetime main-actor-only:
///
/// ```swift
/// @MainActor final class PhotoListView: @MainActor LifetimeProvider {
///   let lifetime = Lifetime()
/// }
/// ```
///
/// See ``BindingTarget``.
public protocol LifetimeProvider: AnyObject {
  /// The lifetime that ends when this object deallocates.
  var lifetime: Lifetime { get }
}
