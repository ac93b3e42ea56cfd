/// Runs `apply` now, and again whenever anything it read has changed.
///
/// Reads are tracked automatically: every ``Property/value`` read during the last run, and
/// every property of an `@Observable` object read during it, is a dependency. Dependencies are
/// recomputed on each run, so branches that stop reading a property stop depending on it.
///
/// ```swift
/// observe { [weak view] in
///   view?.render(isLoading: viewModel.isLoading.value, cells: viewModel.cells.value)
/// }
/// .store(in: lifetime)
/// ```
///
/// Semantics:
/// - **First run is synchronous**, before `observe` returns, so the view starts correct.
/// - **Re-runs are coalesced per actor**: a change does not re-run `apply` at once. It marks
///   the observation dirty, and the first change of a burst schedules one job on `isolation`
///   (normally the main actor) that re-runs every dirty observation of that actor once. So a
///   view model setting `isLoading` and `rows` in one method causes one re-run, and a burst that
///   changes 1,000 properties read by 1,000 observations costs one job, not 1,000.
/// - **Glitch-free**: because the re-run happens after the burst, and derived properties update
///   synchronously, a run never sees a half-updated combination (`a` new but `a.map(f)` old).
/// - **Only dependents re-run**: an observation re-runs when a property its latest run read
///   changes, and for nothing else.
/// - **Ends** when the returned token is cancelled or deallocated; a run never starts after
///   that.
///
/// Changes of `@Observable` objects reach the observation through Observation's `onChange`,
/// which may fire on any thread: the re-run hops to `isolation` first, and is skipped if a run
/// since then has already seen the change. Reading a Tether property inside `apply` registers
/// it with Tether only, never with Observation too, so one change is one re-run.
///
/// > Note: `apply` runs on `isolation`, the actor that called `observe`; Tether properties are
/// > confined to it by the compiler. Setting a property that `apply` itself reads, from inside
/// > `apply`, schedules another run in the next job: converge on a value or the observation
/// > re-runs forever (without blocking the actor). A re-run caused only by Tether properties
/// > still re-registers with Observation; an `@Observable` object releases earlier
/// > registrations at its next change.
///
/// - Parameters:
///   - isolation: The actor whose turns run `apply`; inferred from the caller.
///   - apply: The work to re-run, typically a view update.
/// - Returns: A token that ends the observation when cancelled or deallocated: keep it (store it
///   in a ``Lifetime``), or the observation ends as soon as it is dropped, after its first run.
///   Inside a ``LifetimeProvider``, `observe { }` is the object's own method, which ties the
///   observation to the object and needs no token.
public func observe(
  isolation: isolated (any Actor) = #isolation,
  _ apply: @escaping () -> Void
) -> ObservationToken {
  let tracker = DependencyTracker(apply: apply, queue: FlushQueue.shared(by: isolation))
  tracker.run()
  return TrackerToken(tracker)
}

/// ``observe(isolation:_:)`` that also says, each time it runs, why: every change of a Tether
/// property it read since the last run (the value's type and the value it changed to), or a
/// change of an `@Observable` object it read — SwiftUI's `_printChanges()`, for an
/// observation. For finding an extra re-run while debugging; the plain `observe { }` pays
/// nothing for it.
///
/// ```swift
/// observe(debug: "cart view") { view.render(model.items, model.total) }
/// // cart view: first run
/// // cart view: runs again: a Property<Int> it read became 12
/// ```
///
/// - Parameters:
///   - isolation: The actor whose turns run `apply`; inferred from the caller.
///   - label: Starts each line, to tell observations apart.
///   - log: Where each line goes; standard output by default.
///   - apply: The work to re-run.
/// - Returns: A token that ends the observation, as ``observe(isolation:_:)``'s does.
public func observe(
  isolation: isolated (any Actor) = #isolation,
  debug label: String, to log: @escaping (String) -> Void = { print($0) },
  _ apply: @escaping () -> Void
) -> ObservationToken {
  let tracker = DependencyTracker(
    apply: apply, queue: FlushQueue.shared(by: isolation), debugLog: { log("\(label): \($0)") })
  tracker.run()
  return TrackerToken(tracker)
}

/// Runs now, on this actor, every `observe { }` re-run it owes, instead of in the job the first
/// change scheduled; returns when none is left.
///
/// A test that changes a view model and then asserts what an observation rendered calls this
/// between the two, rather than yielding and hoping the job has run:
///
/// ```swift
/// viewModel.add("tea")
/// flushObservations()
/// #expect(view.rows == ["tea"])
/// ```
///
/// A run that dirties another observation is followed by that one's run too, in rounds, as the
/// scheduled jobs would run them; after 1,000 rounds the rest is left to the jobs (an
/// observation that keeps changing what it reads never converges). Called from inside an
/// observation's run, it does nothing: that flush is already under way.
///
/// Re-runs owed to Tether properties are all run. Those owed to `@Observable` objects are not:
/// Observation tells of a change before the writer stores it, so their re-run stays in its own
/// job, which reads the value once it is there; wait for it with `expectEventually`.
///
/// - Parameter isolation: The actor whose observations to run; inferred from the caller.
public func flushObservations(isolation: isolated (any Actor) = #isolation) {
  FlushQueue.shared(by: isolation).flushNow(isolation: isolation)
}
