import Tether

/// Changes a person makes, shown at once over the last value a store confirmed, written in
/// order, retried while the store is down, and reconciled with the store's own feed.
///
/// A view model that edits data kept elsewhere — a list in a database other tabs and nodes
/// also change — wants each change on screen before it is saved, a change from elsewhere not
/// to take it away, and every change written once, in order, whatever the store's outages.
/// This type holds that bookkeeping: the confirmed value and its version, the changes made
/// here that the store has not shown yet, and the task that writes them.
///
/// ```swift
/// let writes = OptimisticWrites<[Todo], TodoChange, TodoStoreError>(
///   initial: [], apply: { change, todos in change.applied(to: todos) },
///   write: { change throws(TodoStoreError) in try await store.apply(change, to: listID) },
///   load: { () throws(TodoStoreError) in
///     let list = try await store.load(list: listID)
///     return (list.todos, list.version)
///   },
///   retry: RetryPolicy(maximumAttempts: .max, when: { !$0.isRefusal }) { _ in .seconds(1) })
/// ```
///
/// - ``value`` is what the screen shows: the confirmed value with every change made here that
///   the store has not shown yet applied on top, oldest first.
/// - ``submit(_:)`` shows a change at once and writes it after the changes before it. A write
///   answers with the version the store gave the value; the change is pending until a value
///   of that version or newer arrives (``receive(_:version:)``, from the store's feed), so a
///   change from elsewhere arriving meanwhile does not take it away.
/// - A failed write is tried again as `retry` says. One the policy does not retry (a refusal
///   for good: a title the store will never take) or whose attempts run out is dropped — the
///   later changes are not held behind it — and sent on ``dropped``.
/// - While a write or the first load is being retried, ``outage`` holds the last error; it
///   goes once everything is written.
@MainActor
public final class OptimisticWrites<Value, Change, Failure: Error> {
  /// What the screen shows: the confirmed value with the pending changes applied.
  @Output public private(set) var value: Value
  /// The last error while writes or the first load are being retried; `nil` once done.
  @Output public private(set) var outage: Failure?
  /// Each change dropped, with why: refused for good, or out of attempts.
  public let dropped: Signal<(change: Change, error: Failure)>

  /// Whether the store has shown a value (loaded, or from its feed).
  public var isLoaded: Bool { confirmed != nil }
  /// The version of the newest value the store has shown.
  public var confirmedVersion: Int? { confirmed?.version }
  /// Whether every change made here is written: nothing would be lost if the process ended.
  public var isSaved: Bool { pending.allSatisfy { $0.version != nil } }
  /// Whether a change made here is not yet confirmed by the store's feed.
  public var hasPending: Bool { !pending.isEmpty }

  private let initial: Value
  private let apply: (Change, Value) -> Value
  private let write: @MainActor (Change) async throws(Failure) -> Int
  private let load: @MainActor () async throws(Failure) -> (Value, version: Int)
  private let retry: RetryPolicy<Failure>
  private let droppedInput: Signal<(change: Change, error: Failure)>.Emitter
  private var confirmed: (value: Value, version: Int)?
  private var pending: [Pending] = []
  private var nextNumber = 0
  private var writer: Task<Void, Never>?
  /// Failed attempts at the oldest unwritten change (or at the load), for the policy.
  private var failedAttempts = 0

  private struct Pending {
    var number: Int
    var change: Change
    /// The value's version once the store has the change; `nil` while it is not written.
    var version: Int?
  }

  /// Creates the bookkeeping of one value.
  ///
  /// - Parameters:
  ///   - initial: What ``value`` is before the store has shown one.
  ///   - apply: The value with a change applied.
  ///   - write: Writes a change; returns the version the store gave the value.
  ///   - load: Loads the value and its version, when a write finds none loaded.
  ///   - retry: Which failures are tried again, how often and after what wait.
  public init(
    initial: Value, apply: @escaping (Change, Value) -> Value,
    write: @escaping @MainActor (Change) async throws(Failure) -> Int,
    load: @escaping @MainActor () async throws(Failure) -> (Value, version: Int),
    retry: RetryPolicy<Failure>
  ) {
    self.initial = initial
    self.apply = apply
    self.write = write
    self.load = load
    self.retry = retry
    _value = Output(wrappedValue: initial)
    _outage = Output(wrappedValue: nil)
    (dropped, droppedInput) = Signal.pipe()
  }

  /// Shows `change` at once, and writes it after the changes before it.
  ///
  /// - Parameter change: The change.
  public func submit(_ change: Change) {
    pending.append(Pending(number: nextNumber, change: change))
    nextNumber += 1
    refresh()
    startWriting()
  }

  /// A value the store shows, of `version`: taken unless a newer one was, with the changes it
  /// already holds no longer pending.
  ///
  /// - Parameters:
  ///   - value: The stored value.
  ///   - version: Its version; each write makes a higher one.
  public func receive(_ value: Value, version: Int) {
    if let confirmed, version <= confirmed.version { return }
    confirmed = (value, version)
    pending.removeAll { ($0.version ?? .max) <= version }
    refresh()
    if writer == nil { outage = nil }
  }

  /// Starts loading the value (trying again as the policy says) unless one was shown;
  /// ``saved()`` returns once it is, or once the policy gives up.
  public func loadIfNeeded() {
    guard confirmed == nil else { return }
    startWriting()
  }

  /// Returns once every change made so far is written (while the store is down, once it is
  /// back), and the value loaded if a write needed it.
  public func saved() async {
    while let writer {
      await writer.value
      if self.writer == writer { break }
    }
  }

  private func startWriting() {
    guard writer == nil else { return }
    writer = Task { [weak self] in
      while let self, await self.step() {}
    }
  }

  /// Writes the oldest unwritten change, or loads the value if none was shown; on failure,
  /// waits as the policy says or drops what it gives up on.
  ///
  /// - Returns: Whether there is more to do.
  private func step() async -> Bool {
    let next = pending.first { $0.version == nil }
    do throws(Failure) {
      if let next {
        let version = try await write(next.change)
        failedAttempts = 0
        if let index = pending.firstIndex(where: { $0.number == next.number }) {
          if let confirmed, version <= confirmed.version {
            // The feed showed the change before its write answered.
            pending.remove(at: index)
            refresh()
          } else {
            pending[index].version = version
          }
        }
      } else if confirmed == nil {
        let (value, version) = try await load()
        failedAttempts = 0
        receive(value, version: version)
      } else {
        writer = nil
        outage = nil
        return false
      }
    } catch {
      failedAttempts += 1
      guard let wait = retry.wait(after: failedAttempts, for: error) else {
        failedAttempts = 0
        if let next {
          pending.removeAll { $0.number == next.number }
          refresh()
          droppedInput.send((next.change, error))
          return true
        }
        // The load is given up: the value stays unloaded until the feed shows one.
        outage = error
        writer = nil
        return false
      }
      outage = error
      do { try await retry.pause(for: wait) } catch { return !Task.isCancelled }
    }
    return true
  }

  private func refresh() {
    value = pending.reduce(confirmed?.value ?? initial) { apply($1.change, $0) }
  }
}
