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
/// - **Re-runs are coalesced**: changes are not applied one by one. A burst of synchronous
///   changes (a view model setting `isLoading` and `cells` in one method) causes one re-run,
///   on the next turn of `isolation` (normally the main actor).
/// - **Glitch-free**: because the re-run happens after the burst, and derived properties update
///   synchronously, a run never sees a half-updated combination (`a` new but `a.map(f)` old).
/// - **Ends** when the returned token is cancelled or deallocated.
///
/// > Note: `apply` runs on `isolation`, the actor that called `observe`; Tether properties are
/// > confined to it by the compiler. Setting a property that `apply` itself reads, from inside
/// > `apply`, schedules another run: converge on a value or the observation re-runs forever.
/// > A re-run caused only by Tether properties still re-registers with Observation; an
/// > `@Observable` object releases earlier registrations at its next change.
///
/// - Parameters:
///   - isolation: The actor whose turns run `apply`; inferred from the caller.
///   - apply: The work to re-run, typically a view update.
/// - Returns: A token that ends the observation when cancelled or deallocated.
@discardableResult
public func observe(
  isolation: isolated (any Actor) = #isolation,
  _ apply: @escaping () -> Void
) -> ObservationToken {
  let (wakeUps, continuation) = AsyncStream<Void>.makeStream(
    bufferingPolicy: .bufferingNewest(1)
  )
  let tracker = DependencyTracker(apply: apply, wakeUp: continuation)
  tracker.run()
  let task = Task { [weak tracker] in
    _ = isolation
    for await _ in wakeUps {
      guard let tracker, !tracker.isCancelled else { return }
      tracker.run()
    }
  }
  return ObservationToken.onCancel {
    tracker.cancel()
    task.cancel()
  }
}
