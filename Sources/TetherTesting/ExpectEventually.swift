import Testing

/// Waits until `condition` holds, failing the test if it does not within `timeout`.
///
/// Work that Tether schedules on an actor — `observe { }` re-runs, debounce and throttle timers
/// after `TestClock.advance`, a view model's `Task` — happens on a later turn of that actor.
/// How soon depends on the machine's load, so assert that it *has* happened with this instead
/// of a fixed number of `Task.yield()`s:
///
/// ```swift
/// query.value = "swift"
/// await clock.advance(by: .milliseconds(300))
/// await expectEventually { debounced.value == "swift" }
/// ```
///
/// Assertions that something has *not* happened need no waiting and should stay plain
/// `#expect`s.
///
/// - Parameters:
///   - isolation: The actor the test runs on; inferred.
///   - timeout: How long to wait before failing. Generous by default: a passing test returns as
///     soon as the condition holds.
///   - comment: Shown with the failure.
///   - sourceLocation: Where the failure is reported.
///   - condition: Checked after each turn of the actor and each short sleep; it may `await`
///     (to ask an actor, say).
public func expectEventually(
  isolation: isolated (any Actor)? = #isolation,
  timeout: Duration = .seconds(5),
  _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () async -> Bool
) async {
  for _ in 0..<10 {
    if await condition() { return }
    await Task.yield()
  }
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while clock.now < deadline {
    if await condition() { return }
    try? await clock.sleep(for: .milliseconds(1))
  }
  if await condition() { return }
  Issue.record(
    comment ?? "Condition was still false after \(timeout)", sourceLocation: sourceLocation)
}
