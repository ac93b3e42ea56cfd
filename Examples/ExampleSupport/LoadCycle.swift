import Tether

/// The load / spinner / error cycle every screen that fetches shares: one primitive, tested
/// once, instead of a copy per view model.
///
/// ```swift
/// private let load = LoadCycle()
/// public var isLoading: Property<Bool> { load.isLoading }
/// public var errorMessage: Property<String?> { load.errorMessage }
///
/// public func viewDidLoad() async {
///   await load.run { () async throws(ServiceError) in
///     _rows.value = try await service.courses().map(CourseCellViewModel.init)
///   }
/// }
/// ```
///
/// Apply the result inside `work`: the spinner ends after the rows are set, so no frame shows
/// neither.
///
/// - One run at a time: ``run(_:)`` returns `nil` at once while another run is in flight;
///   ``settled()`` waits for that run instead (a link that arrives while the screen's first load
///   is in flight waits for it rather than reporting an empty list).
/// - A run clears the previous error when it starts, shows the spinner while it works, and turns
///   a thrown ``ServiceError`` into ``errorMessage`` (its ``ServiceError/userMessage``).
/// - Each output changes only when its value does: a run that starts with no error shown does
///   not announce `nil` again.
@MainActor
public final class LoadCycle {
  private let _isLoading = MutableProperty(false)
  private let _errorMessage = MutableProperty<String?>(nil)

  /// Whether a run is in flight: the spinner.
  public var isLoading: Property<Bool> { _isLoading }
  /// The last run's error for the user, until the next run starts.
  public var errorMessage: Property<String?> { _errorMessage }
  /// Whether the last run failed (``errorMessage`` is shown).
  public var hasFailed: Bool { _errorMessage.value != nil }
  /// Why the last run failed, until the next run starts.
  public private(set) var lastError: ServiceError?
  private var settledWaiters: [CheckedContinuation<Void, Never>] = []

  /// Creates an idle cycle.
  public init() {}

  /// Runs `work` unless a run is in flight.
  ///
  /// - Parameters:
  ///   - message: The text shown for a failure; the error's ``ServiceError/userMessage`` by
  ///     default.
  ///   - work: The fetch, applying its result.
  /// - Returns: What `work` returned, or `nil` if it failed or did not run.
  @discardableResult
  public func run<Value>(
    message: (ServiceError) -> String = \.userMessage,
    _ work: () async throws(ServiceError) -> Value
  ) async -> Value? {
    guard !_isLoading.value else { return nil }
    clearError()
    _isLoading.value = true
    defer {
      _isLoading.value = false
      let waiters = settledWaiters
      settledWaiters = []
      for waiter in waiters { waiter.resume() }
    }
    do {
      return try await work()
    } catch {
      lastError = error
      _errorMessage.value = message(error)
      return nil
    }
  }

  /// Waits until no run is in flight; returns at once when none is.
  ///
  /// The run's outcome is then in ``hasFailed`` and ``lastError``. Cancelling the waiting task
  /// does not end the wait early: the run it waits for always ends.
  public func settled() async {
    guard _isLoading.value else { return }
    await withCheckedContinuation { settledWaiters.append($0) }
  }

  /// Hides the error shown, if any.
  public func clearError() {
    lastError = nil
    if _errorMessage.value != nil { _errorMessage.value = nil }
  }
}
