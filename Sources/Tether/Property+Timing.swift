extension Property {
  /// A property that takes this property's value once it has stopped changing for `interval`.
  ///
  /// Typical for search fields: query the service only when the user pauses typing.
  ///
  /// ```swift
  /// let query = searchText.debounce(for: .milliseconds(300), clock: clock)
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The quiet period that must pass after a change.
  ///   - clock: The clock that measures it; inject `ContinuousClock()` in the app and a test
  ///     clock in tests.
  ///   - isolation: The actor the timers return to; inferred from the caller.
  /// - Returns: A property that starts with the current value. Pending timers are cancelled when
  ///   it is deallocated.
  public final func debounce<C: Clock>(
    for interval: C.Duration,
    clock: C,
    isolation: isolated (any Actor) = #isolation
  ) -> Property<Value> {
    timed(isolation: isolation) { emit in
      Debouncer<Value, C>(clock: clock, interval: interval, emit: emit)
    }
  }

  /// A property that takes at most one value per `interval`: a change passes at once, and the
  /// changes during the following interval are held back until it ends.
  ///
  /// - Parameters:
  ///   - interval: The minimum time between two updates.
  ///   - clock: The clock that measures it.
  ///   - latest: At the end of an interval, pass the latest held-back value (`true`) or the
  ///     first one (`false`).
  ///   - isolation: The actor the timers return to; inferred from the caller.
  /// - Returns: A property that starts with the current value.
  public final func throttle<C: Clock>(
    for interval: C.Duration,
    clock: C,
    latest: Bool = true,
    isolation: isolated (any Actor) = #isolation
  ) -> Property<Value> {
    timed(isolation: isolation) { emit in
      Throttler<Value, C>(clock: clock, interval: interval, latest: latest, emit: emit)
    }
  }

  /// A property that takes each of this property's values `interval` after it, in order.
  ///
  /// ```swift
  /// let banner = status.delay(for: .seconds(2), clock: clock)  // a toast that lags its cause
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long each change waits.
  ///   - clock: The clock that measures it.
  ///   - isolation: The actor the timers return to; inferred from the caller.
  /// - Returns: A property that starts with the current value. Changes still waiting are
  ///   dropped when it is deallocated.
  public final func delay<C: Clock>(
    for interval: C.Duration,
    clock: C,
    isolation: isolated (any Actor) = #isolation
  ) -> Property<Value> {
    timed(isolation: isolation) { emit in
      Delayer<Value, C>(clock: clock, interval: interval, emit: emit)
    }
  }
}

extension Signal {
  /// A signal sending an event once no other has arrived for `interval`: the last of each
  /// burst.
  ///
  /// - Parameters:
  ///   - interval: The quiet period that must pass after an event.
  ///   - clock: The clock that measures it.
  ///   - isolation: The actor the timers return to; inferred from the caller.
  /// - Returns: The debounced signal.
  public func debounce<C: Clock>(
    for interval: C.Duration,
    clock: C,
    isolation: isolated (any Actor) = #isolation
  ) -> Signal<Value> {
    timed(isolation: isolation) { emit in
      Debouncer<Value, C>(clock: clock, interval: interval, emit: emit)
    }
  }

  /// A signal sending at most one event per `interval`: an event passes at once, and the events
  /// during the following interval are held back until it ends.
  ///
  /// - Parameters:
  ///   - interval: The minimum time between two events.
  ///   - clock: The clock that measures it.
  ///   - latest: At the end of an interval, send the latest held-back event (`true`) or the
  ///     first one (`false`).
  ///   - isolation: The actor the timers return to; inferred from the caller.
  /// - Returns: The throttled signal.
  public func throttle<C: Clock>(
    for interval: C.Duration,
    clock: C,
    latest: Bool = true,
    isolation: isolated (any Actor) = #isolation
  ) -> Signal<Value> {
    timed(isolation: isolation) { emit in
      Throttler<Value, C>(clock: clock, interval: interval, latest: latest, emit: emit)
    }
  }

  /// A signal sending each event `interval` after this signal sent it, in order.
  ///
  /// - Parameters:
  ///   - interval: How long each event waits.
  ///   - clock: The clock that measures it.
  ///   - isolation: The actor the timers return to; inferred from the caller.
  /// - Returns: The delayed signal. Events still waiting are dropped when it is deallocated.
  public func delay<C: Clock>(
    for interval: C.Duration,
    clock: C,
    isolation: isolated (any Actor) = #isolation
  ) -> Signal<Value> {
    timed(isolation: isolation) { emit in
      Delayer<Value, C>(clock: clock, interval: interval, emit: emit)
    }
  }

  /// A signal sending this signal's events until `interval` passes without one (counted from
  /// now, then from each event); then it sends `fallback` and is finished: it stops observing
  /// this signal and lets it go.
  ///
  /// A signal has no error to end with, so the timeout is a value of the signal's own type:
  ///
  /// ```swift
  /// let reply: Signal<Reply> = answers.timeout(after: .seconds(5), clock: clock, fallback: .timedOut)
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The longest wait for the next event.
  ///   - clock: The clock that measures it.
  ///   - fallback: Sent when the wait runs out.
  ///   - isolation: The actor the timer returns to; inferred from the caller.
  /// - Returns: The derived signal. It keeps this signal alive until it is finished.
  public func timeout<C: Clock>(
    after interval: C.Duration,
    clock: C,
    fallback: Value,
    isolation: isolated (any Actor) = #isolation
  ) -> Signal<Value> {
    let derived = Signal<Value>()
    derived.retain(self)
    // The wait is a debounce of the fallback: each event restarts it, and it fires once
    // `interval` passes without one.
    let wait = Debouncer<Value, C>(clock: clock, interval: interval) { [weak derived] fallback in
      guard let derived else { return }
      derived.observers.send(fallback)
      derived.finish()
    }
    derived.retain(wait)
    derived.retain(
      observers.add { [weak derived, weak wait] value in
        guard let derived else { return }
        wait?.receive(fallback, isolation: isolation)
        derived.observers.send(value)
      })
    wait.receive(fallback, isolation: isolation)
    return derived
  }
}
