extension Signal {
  /// A signal sending the running result of `next` over the events: `initial` combined with
  /// the first event, that result with the second, and so on.
  ///
  /// ```swift
  /// let total: Signal<Int> = purchases.scan(0) { sum, purchase in sum + purchase.amount }
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The result before the first event (not sent).
  ///   - next: Combines the result so far with an event.
  /// - Returns: The derived signal.
  @inlinable
  public func scan<Result>(
    _ initial: Result, _ next: @escaping (Result, Value) -> Result
  ) -> Signal<Result> {
    var result = initial
    return derive { derived, value in
      result = next(result, value)
      derived.observers.send(result)
    }
  }

  /// A signal whose observers each get `values` first, as they start observing, then this
  /// signal's events: RxSwift's `startWith`, Combine's `prepend`.
  ///
  /// ```swift
  /// let status: Signal<String> = saves.map { _ in "Saved" }.prepend("Not saved yet")
  /// ```
  ///
  /// A signal is shared, not started per observer, so the values go to whoever observes the
  /// result: ``observe(_:)`` and ``observe(for:_:)`` deliver them before they return. `map`,
  /// `filter`, `compactMap` and `merge(with:)` of the result pass them on (transformed) to their
  /// own observers, and ``hold(initial:)`` starts from the last of them. Other operators
  /// observe the result as a source once, when they are made, and see only its events:
  /// apply `prepend` after them.
  ///
  /// - Parameter values: What each observer gets first, in order.
  /// - Returns: The derived signal. It keeps this signal alive.
  @inlinable
  public func prepend(_ values: Value...) -> Signal<Value> {
    let derived = derive { $0.observers.send($1) }
    let earlier = prefix
    // A later `prepend` goes before an earlier one's values, as in Rx.
    derived.prefix = { values + (earlier?() ?? []) }
    return derived
  }

  /// A signal sending the first `count` events and none after them.
  ///
  /// Once it has sent them it is finished: it stops observing this signal and lets it go, as
  /// RxSwift's `take` and ReactiveSwift's `take(first:)` do. With a `count` of 0 or less it
  /// never observes this signal at all.
  ///
  /// - Parameter count: How many events pass; 0 or less passes none.
  /// - Returns: The derived signal. It keeps this signal alive until it is finished.
  @inlinable
  public func take(first count: Int) -> Signal<Value> {
    let derived = Signal<Value>()
    guard count > 0 else { return derived }
    var remaining = count
    derived.retain(self)
    derived.retain(
      observers.add { [weak derived] value in
        guard let derived, remaining > 0 else { return }
        remaining -= 1
        derived.observers.send(value)
        if remaining == 0 { derived.finish() }
      })
    return derived
  }

  /// A signal that drops the first `count` events and sends every one after them.
  ///
  /// - Parameter count: How many events are dropped; 0 or less drops none.
  /// - Returns: The derived signal.
  @inlinable
  public func skip(first count: Int) -> Signal<Value> {
    var remaining = max(0, count)
    return derive { derived, value in
      guard remaining == 0 else {
        remaining -= 1
        return
      }
      derived.observers.send(value)
    }
  }

  /// A signal sending this signal's events until `trigger` sends its first event, and none
  /// after (an event sent during the trigger's delivery is already dropped).
  ///
  /// When the trigger fires the result is finished: it stops observing both signals and lets
  /// them go.
  ///
  /// - Parameter trigger: Ends the signal.
  /// - Returns: The derived signal. It keeps this signal and `trigger` alive until the
  ///   trigger fires.
  @inlinable
  public func take<Trigger>(until trigger: Signal<Trigger>) -> Signal<Value> {
    let derived = Signal<Value>()
    derived.retain(self)
    derived.retain(observers.add { [weak derived] value in derived?.observers.send(value) })
    derived.retain(trigger.observers.add { [weak derived] _ in derived?.finish() })
    return derived
  }

  /// A signal sending each event with the value `property` holds when it happens: a button's
  /// tap with the form's current text (RxSwift's `withLatestFrom`).
  ///
  /// ```swift
  /// let submitted: Signal<String> = submitTapped.withLatestFrom(text).map { $1 }
  /// ```
  ///
  /// - Parameter property: Read at each event; its changes alone send nothing.
  /// - Returns: A signal of pairs. It keeps `property` alive.
  @inlinable
  public func withLatestFrom<Other>(_ property: Property<Other>) -> Signal<(Value, Other)> {
    let derived: Signal<(Value, Other)> = derive { derived, value in
      derived.observers.send((value, property.storage))
    }
    derived.retain(property)
    return derived
  }

  /// A signal pairing the events of this signal and `other` in order: the first of each, then
  /// the second of each, and so on. Events wait, in arrival order, until the other side has
  /// sent as many; a side far ahead holds its extra events until then.
  ///
  /// - Parameter other: The second source.
  /// - Returns: A signal of pairs. It keeps both sources alive.
  @inlinable
  public func zip<Other>(with other: Signal<Other>) -> Signal<(Value, Other)> {
    let queues = ZipQueues<Value, Other>()
    let derived: Signal<(Value, Other)> = derive { derived, value in
      queues.left.append(value)
      queues.drain(into: derived)
    }
    derived.retain(other)
    derived.retain(
      other.observers.add { [weak derived] value in
        guard let derived else { return }
        queues.right.append(value)
        queues.drain(into: derived)
      })
    return derived
  }
}

extension Property {
  /// A signal whose observers each get `values`, then this property's value at that moment,
  /// then its changes: RxSwift's `startWith` on a relay.
  ///
  /// - Parameter values: What each observer gets before the current value, in order.
  /// - Returns: The derived signal. It keeps this property alive.
  @inlinable
  public final func prepend(_ values: Value...) -> Signal<Value> {
    let derived = changes
    derived.prefix = { values + [self.storage] }
    return derived
  }

  /// A signal sending this property's current value each time `trigger` sends: a form's
  /// fields read when the Save button is tapped.
  ///
  /// - Parameter trigger: When to read.
  /// - Returns: The derived signal. It keeps this property and `trigger` alive.
  @inlinable
  public final func sample<Trigger>(on trigger: Signal<Trigger>) -> Signal<Value> {
    trigger.withLatestFrom(self).map { $1 }
  }
}

/// The waiting events of a `zip`, oldest first.
@usableFromInline
internal final class ZipQueues<Left, Right> {
  @usableFromInline var left: [Left] = []
  @usableFromInline var right: [Right] = []
  @usableFromInline var leftStart = 0
  @usableFromInline var rightStart = 0

  @usableFromInline
  init() {}

  /// Sends every pair both sides have, in order.
  @usableFromInline
  func drain(into signal: Signal<(Left, Right)>) {
    while leftStart < left.count, rightStart < right.count {
      let pair = (left[leftStart], right[rightStart])
      leftStart += 1
      rightStart += 1
      signal.observers.send(pair)
    }
    // Sent events are dropped once half of a queue is spent, so the queues do not grow.
    if leftStart > 16, leftStart * 2 > left.count {
      left.removeFirst(leftStart)
      leftStart = 0
    }
    if rightStart > 16, rightStart * 2 > right.count {
      right.removeFirst(rightStart)
      rightStart = 0
    }
  }
}
