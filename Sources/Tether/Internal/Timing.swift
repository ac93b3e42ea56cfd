/// A timer that takes a stream's values and emits them later by its own rule (`debounce`,
/// `throttle`, `delay`), back on the actor that made it.
internal protocol ValueTimer<Value>: AnyObject {
  associatedtype Value
  func receive(_ value: Value, isolation: isolated (any Actor))
}

extension Signal {
  /// A signal of what `timer` emits of this signal's events: it keeps this signal and the
  /// timer, and the timer's pending emissions end with it.
  internal func timed(
    isolation: isolated (any Actor),
    by makeTimer: (_ emit: @escaping (Value) -> Void) -> some ValueTimer<Value>
  ) -> Signal<Value> {
    let derived = Signal<Value>()
    derived.retain(self)
    let timer = makeTimer { [weak derived] in derived?.observers.send($0) }
    derived.retain(timer)
    derived.retain(
      observers.add { [weak timer] value in timer?.receive(value, isolation: isolation) })
    return derived
  }
}

extension Property {
  /// A property that starts with this property's value and takes what `timer` emits of its
  /// changes.
  internal final func timed(
    isolation: isolated (any Actor),
    by makeTimer: (_ emit: @escaping (Value) -> Void) -> some ValueTimer<Value>
  ) -> Property<Value> {
    let derived = Property<Value>(derivedFrom: self, initial: storage)
    let timer = makeTimer { [weak derived] in derived?.update($0) }
    derived.retain(timer)
    derived.retain(
      observers.add { [weak timer] value in timer?.receive(value, isolation: isolation) })
    return derived
  }
}

/// The timer behind `debounce`: each value restarts the quiet period; the last value is
/// emitted once the period passes without another.
@usableFromInline
internal final class Debouncer<Value, C: Clock>: ValueTimer {
  private let clock: C
  private let interval: C.Duration
  private let emit: (Value) -> Void
  private var task: Task<Void, Never>?
  /// Bumped on each value; a timer that wakes to a newer generation is stale and does nothing.
  private var generation: UInt64 = 0

  init(clock: C, interval: C.Duration, emit: @escaping (Value) -> Void) {
    self.clock = clock
    self.interval = interval
    self.emit = emit
  }

  deinit {
    task?.cancel()
  }

  func receive(_ value: Value, isolation: isolated (any Actor)) {
    generation &+= 1
    let expected = generation
    task?.cancel()
    let clock = self.clock
    // The quiet period runs from the value's arrival, not from whenever the timer task first
    // gets the actor: a busy actor must not stretch the interval.
    let deadline = clock.now.advanced(by: interval)
    task = Task { [weak self] in
      _ = isolation
      do { try await sleep(on: clock, until: deadline) } catch { return }
      guard let self, self.generation == expected else { return }
      self.emit(value)
    }
  }
}

/// The timer behind `throttle`: the first value passes at once and opens a window; at the end
/// of the window the latest (or first) value received during it, if any, passes and opens the
/// next window.
@usableFromInline
internal final class Throttler<Value, C: Clock>: ValueTimer {
  private let clock: C
  private let interval: C.Duration
  private let latest: Bool
  private let emit: (Value) -> Void
  private var task: Task<Void, Never>?
  private var isWindowOpen = false
  private var pending: Value?

  init(clock: C, interval: C.Duration, latest: Bool, emit: @escaping (Value) -> Void) {
    self.clock = clock
    self.interval = interval
    self.latest = latest
    self.emit = emit
  }

  deinit {
    task?.cancel()
  }

  func receive(_ value: Value, isolation: isolated (any Actor)) {
    if isWindowOpen {
      if latest || pending == nil { pending = value }
      return
    }
    emit(value)
    openWindow(startingAt: clock.now, isolation: isolation)
  }

  /// Windows are measured from their start (an emission time or the previous window's end), so
  /// the cadence does not drift with task scheduling.
  private func openWindow(startingAt start: C.Instant, isolation: isolated (any Actor)) {
    isWindowOpen = true
    let clock = self.clock
    let deadline = start.advanced(by: interval)
    task = Task { [weak self] in
      _ = isolation
      do { try await sleep(on: clock, until: deadline) } catch { return }
      guard let self else { return }
      if let value = self.pending {
        self.pending = nil
        self.emit(value)
        self.openWindow(startingAt: deadline, isolation: isolation)
      } else {
        self.isWindowOpen = false
      }
    }
  }
}

/// Sleeps until `deadline` unless it has already come. A timer task can first run after its
/// deadline (the actor was busy, or a test clock was advanced past it); it must then fire at
/// once rather than rely on how a clock treats a deadline equal to `now`.
/// The timer behind `delay`: each value is emitted `interval` after it arrived, in the order
/// they arrived, by one task that sleeps until the oldest is due.
@usableFromInline
internal final class Delayer<Value, C: Clock>: ValueTimer {
  private let clock: C
  private let interval: C.Duration
  private let emit: (Value) -> Void
  private var task: Task<Void, Never>?
  /// The values waiting, oldest first from `head` (taken values are dropped in bulk).
  private var waiting: [(due: C.Instant, value: Value)] = []
  private var head = 0

  init(clock: C, interval: C.Duration, emit: @escaping (Value) -> Void) {
    self.clock = clock
    self.interval = interval
    self.emit = emit
  }

  deinit {
    task?.cancel()
  }

  func receive(_ value: Value, isolation: isolated (any Actor)) {
    // Due from its arrival, not from whenever the timer task next gets the actor.
    waiting.append((clock.now.advanced(by: interval), value))
    guard task == nil else { return }
    let clock = self.clock
    task = Task { [weak self] in
      _ = isolation
      while let due = self?.nextDue {
        do { try await sleep(on: clock, until: due) } catch { return }
        // An emitted value's observer may release the delayed signal, and this with it.
        guard let value = self?.takeOldest() else { return }
        self?.emit(value)
      }
      self?.task = nil
    }
  }

  private var nextDue: C.Instant? {
    head < waiting.count ? waiting[head].due : nil
  }

  private func takeOldest() -> Value {
    let value = waiting[head].value
    head += 1
    if head == waiting.count {
      waiting.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64, head * 2 >= waiting.count {
      waiting.removeFirst(head)
      head = 0
    }
    return value
  }
}

private func sleep<C: Clock>(on clock: C, until deadline: C.Instant) async throws {
  if clock.now < deadline {
    try await clock.sleep(until: deadline, tolerance: nil)
  } else {
    try Task.checkCancellation()
  }
}
