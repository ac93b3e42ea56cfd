import Tether

/// The load / spinner / error cycle every screen that fetches shares, built on Tether's
/// ``Command``: one primitive, tested once, instead of a copy per view model. It adds what the
/// examples' screens share on top of the command: a user-facing message for a
/// ``ServiceError``, and work given per run (a first page, a next page, a retry of either).
///
/// ```swift
/// private let load = LoadCycle()
/// public var isLoading: Property<Bool> { load.isLoading }
/// public var errorMessage: Property<String?> { load.errorMessage }
///
/// public func viewDidLoad() async {
///   await load.run { [self] () async throws(ServiceError) in
///     _rows.value = try await service.courses().map(CourseCellViewModel.init)
///   }
/// }
/// ```
///
/// Apply the result inside `work`: the spinner ends after the rows are set, so no frame shows
/// neither.
///
/// - One run at a time (the command's ``Command/Reentry/refuse``): ``run(message:_:)`` returns
///   `nil` at once while another run is in flight;
///   ``settled()`` waits for that run instead (a link that arrives while the screen's first load
///   is in flight waits for it rather than reporting an empty list).
/// - A run clears the previous error when it starts, shows the spinner while it works, and turns
///   a thrown ``ServiceError`` into ``errorMessage`` (its ``ServiceError/userMessage``).
/// - Each output changes only when its value does: a run that starts with no error shown does
///   not announce `nil` again.
/// - Cancellation is the command's: cancelling the task that awaits ``run(message:_:)`` (a
///   screen that leaves the stack cancels its appearance) or releasing the cycle cancels the
///   run in flight, and its result is dropped.
@MainActor
public final class LoadCycle {
  /// One run's work: a fetch that applies its result.
  public typealias Work = @MainActor () async throws(ServiceError) -> Void

  // A failure is shown from inside the run, before the command turns `isExecuting` off: the
  // message is there by the time the spinner goes. A cancelled run shows nothing.
  private lazy var command = Command<Work, Void, ServiceError> {
    [weak self] (work: Work) async throws(ServiceError) in
    do throws(ServiceError) {
      return try await work()
    } catch {
      if !Task.isCancelled { self?.show(error) }
      throw error
    }
  }
  private let _errorMessage = MutableProperty<String?>(nil)
  private var message: (ServiceError) -> String = \.userMessage

  /// Whether a run is in flight: the spinner.
  public var isLoading: Property<Bool> { command.isExecuting }
  /// The last run's error for the user, until the next run starts.
  public var errorMessage: Property<String?> { _errorMessage }
  /// Whether the last run failed (``errorMessage`` is shown).
  public var hasFailed: Bool { _errorMessage.value != nil }
  /// Why the last run failed, until the next run starts.
  public private(set) var lastError: ServiceError?

  /// Creates an idle cycle.
  public init() {}

  private func show(_ error: ServiceError) {
    lastError = error
    _errorMessage.value = message(error)
  }

  /// Runs `work` unless a run is in flight.
  ///
  /// - Parameters:
  ///   - message: The text shown for a failure; the error's ``ServiceError/userMessage`` by
  ///     default.
  ///   - work: The fetch, applying its result.
  /// - Returns: Whether `work` ran to its end: `false` if it failed, was cancelled or did not
  ///   run.
  @discardableResult
  public func run(
    message: @escaping (ServiceError) -> String = \.userMessage, _ work: @escaping Work
  ) async -> Bool {
    guard !command.isExecuting.value else { return false }
    clearError()
    self.message = message
    return await command.run(work).value != nil
  }

  /// Waits until no run is in flight; returns at once when none is.
  ///
  /// The run's outcome is then in ``hasFailed`` and ``lastError``. Cancelling the waiting task
  /// does not end the wait early: the run it waits for always ends.
  public func settled() async {
    await command.settled()
  }

  /// Hides the error shown, if any.
  public func clearError() {
    lastError = nil
    if _errorMessage.value != nil { _errorMessage.value = nil }
  }
}
