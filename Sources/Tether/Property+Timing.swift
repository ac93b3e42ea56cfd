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
    let derived = Property<Value>(derivedFrom: self, initial: storage)
    let debouncer = Debouncer<Value, C>(clock: clock, interval: interval) {
      [weak derived] in derived?.update($0)
    }
    derived.retain(debouncer)
    derived.retain(
      observers.add { [weak debouncer] value in
        debouncer?.receive(value, isolation: isolation)
      })
    return derived
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
    let derived = Property<Value>(derivedFrom: self, initial: storage)
    let throttler = Throttler<Value, C>(clock: clock, interval: interval, latest: latest) {
      [weak derived] in derived?.update($0)
    }
    derived.retain(throttler)
    derived.retain(
      observers.add { [weak throttler] value in
        throttler?.receive(value, isolation: isolation)
      })
    return derived
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
    let derived = Signal<Value>()
    derived.retain(self)
    let debouncer = Debouncer<Value, C>(clock: clock, interval: interval) {
      [weak derived] in derived?.observers.send($0)
    }
    derived.retain(debouncer)
    derived.retain(
      observers.add { [weak debouncer] value in
        debouncer?.receive(value, isolation: isolation)
      })
    return derived
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
    let derived = Signal<Value>()
    derived.retain(self)
    let throttler = Throttler<Value, C>(clock: clock, interval: interval, latest: latest) {
      [weak derived] in derived?.observers.send($0)
    }
    derived.retain(throttler)
    derived.retain(
      observers.add { [weak throttler] value in
        throttler?.receive(value, isolation: isolation)
      })
    return derived
  }
}
