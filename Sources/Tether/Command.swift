/// A unit of asynchronous work a view model exposes as an input: a load, a retry, a save. It
/// runs the work, says while it runs, keeps the last error, publishes each result, and is
/// cancelled with its owner — ReactiveSwift's `Action`, for `async` work.
///
/// ```swift
/// @MainActor final class CourseListViewModel {
///   let load: Command<Void, [Course], ServiceError>
///   var isLoading: Property<Bool> { load.isExecuting }
///
///   init(service: any CourseService) {
///     load = Command { () async throws(ServiceError) in try await service.courses() }
///   }
/// }
/// // …
/// let outcome = await viewModel.load.run()   // a test awaits the run and its outcome
/// viewModel.load.start()                     // a view's Retry button starts it and returns
/// ```
///
/// The rules:
/// - **One run at a time.** With ``Reentry/refuse`` (the default) a run asked for while one is
///   in flight does not start: ``run(_:)`` answers ``Outcome/refused`` at once and ``start(_:)``
///   does nothing; ``isEnabled`` is `false` meanwhile, so a button bound to it greys out. With
///   ``Reentry/replace`` the run in flight is cancelled and the new one starts (search as you
///   type: only the latest query matters).
/// - **Outputs, in order.** A run sets ``isExecuting`` and clears ``lastError`` when it starts.
///   When it succeeds, ``values`` sends the result before ``isExecuting`` turns `false`, so a
///   view never shows neither the spinner nor the data; when it fails, ``lastError`` is set and
///   ``errors`` sends the error, then ``isExecuting`` turns `false`. Each output changes only when
///   its value does.
/// - **Cancellation.** ``cancel()``, the end of the `lifetime` given to the initializer, or the
///   command's deallocation cancels the run in flight: its task is cancelled, and whatever the
///   work then returns or throws is dropped (no value, no error), with the outcome
///   ``Outcome/cancelled``. Cancelling the task that awaits ``run(_:)`` cancels the run too.
/// - **Disabled.** While `enabledIf` is `false` no run starts (``Outcome/disabled``).
/// - **Retries.** With a ``RetryPolicy`` other than ``RetryPolicy/never``, a run whose work
///   fails makes it again after the policy's wait; the attempts are one run, and only the
///   last attempt's error reaches ``lastError`` and ``errors``.
///
/// > Note: The command keeps `work`, and its task keeps `work` while it runs: capture services,
/// > not the view model that owns the command, or the view model lives until the work ends.
/// > Apply results by observing ``values`` (or in the caller of ``run(_:)``).
@MainActor
public final class Command<Input, Output, Failure: Error> {
  /// What a request to run does while a run is in flight.
  public enum Reentry: Sendable {
    /// The request is refused; the run in flight goes on. ``isEnabled`` is `false` meanwhile.
    case refuse
    /// The run in flight is cancelled and the new one starts.
    case replace
  }

  /// How one run ended.
  public enum Outcome {
    /// The work returned this value (also sent on ``values``).
    case success(Output)
    /// The work threw this error (also in ``lastError`` and sent on ``errors``).
    case failure(Failure)
    /// The run did not start: another was in flight and the rule is ``Reentry/refuse``.
    case refused
    /// The run did not start: `enabledIf` was `false`.
    case disabled
    /// The run was cancelled before its work ended; its result was dropped.
    case cancelled

    /// The value, for a run that succeeded.
    public var value: Output? {
      if case .success(let value) = self { value } else { nil }
    }

    /// The error, for a run that failed.
    public var error: Failure? {
      if case .failure(let error) = self { error } else { nil }
    }
  }

  /// Whether a run is in flight: the spinner.
  public var isExecuting: Property<Bool> { executingProperty }
  /// Whether a run would start now: `enabledIf`, and no run in flight unless the rule is
  /// ``Reentry/replace``. Bind a button's enabled state to it.
  public private(set) lazy var isEnabled: Property<Bool> = {
    let enabledIf = self.enabledIf ?? Property(value: true)
    return switch reentry {
    case .refuse:
      enabledIf.combineLatest(with: executingProperty).map { $0 && !$1 }.skipRepeats()
    case .replace:
      enabledIf.skipRepeats()
    }
  }()
  /// The last run's error, until the next run starts.
  public var lastError: Property<Failure?> { lastErrorProperty }
  /// Each successful run's result.
  public var values: Signal<Output> { valuePipe.output }
  /// Each failed run's error.
  public var errors: Signal<Failure> { errorPipe.output }
  /// The rule for a run asked for while one is in flight.
  public let reentry: Reentry

  // The outputs are made on first use, so a command nobody observes (a button's action) costs
  // its object and its work alone; until then the state lives in plain stored properties.
  private var executing = false
  private var failure: Failure?
  private var hasExecutingProperty = false
  private lazy var executingProperty: MutableProperty<Bool> = {
    hasExecutingProperty = true
    return MutableProperty(executing)
  }()
  private var hasLastErrorProperty = false
  private lazy var lastErrorProperty: MutableProperty<Failure?> = {
    hasLastErrorProperty = true
    return MutableProperty(failure)
  }()
  private var hasValuePipe = false
  private lazy var valuePipe: (output: Signal<Output>, input: Signal<Output>.Emitter) = {
    hasValuePipe = true
    return Signal<Output>.pipe()
  }()
  private var hasErrorPipe = false
  private lazy var errorPipe: (output: Signal<Failure>, input: Signal<Failure>.Emitter) = {
    hasErrorPipe = true
    return Signal<Failure>.pipe()
  }()
  private let enabledIf: Property<Bool>?
  /// When a failed attempt is made again.
  public let retry: RetryPolicy<Failure>
  private let work: @MainActor (Input) async throws(Failure) -> Output
  /// The task of the run in flight, cancelled by `deinit`.
  ///
  /// `nonisolated(unsafe)` so that the nonisolated `deinit` can read it, with proof: every other
  /// access is a main-actor method of this object, which runs only while a reference to it
  /// exists; `deinit` runs once the last reference is gone, so no access can overlap it.
  nonisolated(unsafe) private var inFlight: Task<Void, Never>?
  /// The number of the run in flight; a run whose number is no longer current was replaced or
  /// cancelled, and its result is dropped.
  private var currentRun = 0
  private var isRunning = false
  /// The caller of ``run(_:)`` waiting for each run (one at most: a second request for a run
  /// while one is in flight is refused or replaces it), and the outcomes it has not yet read.
  /// Outcomes are handed over through storage rather than the continuation: they need not be
  /// `Sendable`, and both sides are on the main actor.
  private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var outcomes: [Int: Outcome] = [:]
  private var settledWaiters: [CheckedContinuation<Void, Never>] = []

  /// Creates a command.
  ///
  /// - Parameters:
  ///   - reentry: What a request to run does while a run is in flight; ``Reentry/refuse`` by
  ///     default.
  ///   - enabledIf: Whether runs may start (a form's validity, say); `nil`, the default, is
  ///     always.
  ///   - lifetime: A lifetime whose end cancels the run in flight and refuses later ones, such
  ///     as the lifetime of the screen or view model that owns the command.
  ///   - retry: When a run makes its work again after it fails (``RetryPolicy``); by default
  ///     it never does.
  ///   - work: The work of one run, given the run's input.
  public init(
    reentry: Reentry = .refuse,
    enabledIf: Property<Bool>? = nil,
    cancelledWith lifetime: Lifetime? = nil,
    retry: RetryPolicy<Failure> = .never,
    _ work: @escaping @MainActor (Input) async throws(Failure) -> Output
  ) {
    self.reentry = reentry
    self.enabledIf = enabledIf
    self.retry = retry
    self.work = work
    lifetime?.observeEnded { [weak self] in
      self?.hasEnded = true
      self?.cancel()
    }
  }

  /// Set when the lifetime given to the initializer ends: no run starts after it.
  private var hasEnded = false

  deinit {
    inFlight?.cancel()
  }

  /// Runs the work with `input` and waits for it to end.
  ///
  /// - Parameter input: The run's input.
  /// - Returns: How the run ended. Cancelling the calling task cancels the run.
  @discardableResult
  public func run(_ input: Input) async -> Outcome {
    let run: Int
    switch begin(input) {
    case .started(let number): run = number
    case .notStarted(let outcome): return outcome
    }
    let task = inFlight
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if currentRun == run, isRunning {
          waiters[run] = continuation
        } else {
          // Nothing suspends between `begin` and here, so the run is still in flight; this is
          // the defensive answer should that ever change.
          continuation.resume()
        }
      }
    } onCancel: { [weak self] in
      task?.cancel()
      Task { @MainActor [weak self] in self?.cancel(run: run) }
    }
    let outcome = outcomes.removeValue(forKey: run) ?? .cancelled
    // An emptied dictionary keeps its storage: drop it, so an idle command holds none.
    if outcomes.isEmpty { outcomes = [:] }
    return outcome
  }

  /// Starts a run with `input` and returns at once: what a gesture does. The rules are those
  /// of ``run(_:)``; the outcome reaches the outputs.
  ///
  /// - Parameter input: The run's input.
  public func start(_ input: Input) {
    _ = begin(input)
  }

  /// Cancels the run in flight, if any: its result is dropped and ``isExecuting`` turns `false`
  /// at once.
  public func cancel() {
    cancel(run: currentRun)
  }

  private func cancel(run: Int) {
    guard isRunning, run == currentRun else { return }
    inFlight?.cancel()
    inFlight = nil
    finish(run: run, with: .cancelled)
  }

  /// Waits until no run is in flight; returns at once when none is.
  ///
  /// Cancelling the waiting task does not end the wait early: the run it waits for always ends.
  public func settled() async {
    guard isRunning else { return }
    await withCheckedContinuation { settledWaiters.append($0) }
  }

  private enum Beginning {
    case started(Int)
    case notStarted(Outcome)
  }

  private func begin(_ input: Input) -> Beginning {
    guard !hasEnded else { return .notStarted(.cancelled) }
    guard enabledIf?.value ?? true else { return .notStarted(.disabled) }
    if isRunning {
      switch reentry {
      case .refuse: return .notStarted(.refused)
      case .replace:
        inFlight?.cancel()
        resumeWaiters(of: currentRun, with: .cancelled)
      }
    }
    currentRun += 1
    let run = currentRun
    isRunning = true
    setFailure(nil)
    setExecuting(true)
    let work = self.work
    let retry = self.retry
    let task = Task { @MainActor [weak self] in
      var outcome: Outcome
      var attempt = 1
      while true {
        do throws(Failure) {
          outcome = .success(try await work(input))
        } catch {
          outcome = .failure(error)
          // Another attempt after the policy's wait, unless the run was cancelled meanwhile
          // (the sleep throws then) or the policy is done.
          if !Task.isCancelled, let wait = retry.wait(after: attempt, for: error),
            (try? await retry.pause(for: wait)) != nil, !Task.isCancelled
          {
            attempt += 1
            continue
          }
        }
        break
      }
      self?.finish(run: run, with: Task.isCancelled ? .cancelled : outcome)
    }
    inFlight = task
    return .started(run)
  }

  private func finish(run: Int, with outcome: Outcome) {
    guard run == currentRun, isRunning else { return }
    isRunning = false
    inFlight = nil
    switch outcome {
    case .success(let value):
      if hasValuePipe { valuePipe.input.send(value) }
    case .failure(let error):
      setFailure(error)
      if hasErrorPipe { errorPipe.input.send(error) }
    case .refused, .disabled, .cancelled:
      break
    }
    setExecuting(false)
    resumeWaiters(of: run, with: outcome)
    let settled = settledWaiters
    settledWaiters = []
    for waiter in settled { waiter.resume() }
  }

  /// Sets `executing`, and its property if one was made, only when the value changes.
  private func setExecuting(_ value: Bool) {
    guard executing != value else { return }
    executing = value
    if hasExecutingProperty { executingProperty.value = value }
  }

  private func setFailure(_ value: Failure?) {
    guard failure != nil || value != nil else { return }
    failure = value
    if hasLastErrorProperty { lastErrorProperty.value = value }
  }

  private func resumeWaiters(of run: Int, with outcome: Outcome) {
    guard let continuation = waiters.removeValue(forKey: run) else { return }
    if waiters.isEmpty { waiters = [:] }
    outcomes[run] = outcome
    continuation.resume()
  }
}

extension Command where Input == Void {
  /// Runs the work and waits for it to end. See ``run(_:)``.
  ///
  /// - Returns: How the run ended.
  @discardableResult
  public func run() async -> Outcome {
    await run(())
  }

  /// Starts a run and returns at once. See ``start(_:)``.
  public func start() {
    start(())
  }
}

extension Command.Outcome: Sendable where Output: Sendable {}

extension Command.Outcome: Equatable where Output: Equatable, Failure: Equatable {}
