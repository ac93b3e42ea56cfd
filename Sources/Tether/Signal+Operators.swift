extension Signal {
  /// Creates a derived signal fed by this signal's events.
  @inlinable
  internal func derive<Derived>(
    _ forward: @escaping (Signal<Derived>, Value) -> Void
  ) -> Signal<Derived> {
    let derived = Signal<Derived>()
    derived.retain(self)
    derived.retain(
      observers.add { [weak derived] value in
        if let derived { forward(derived, value) }
      })
    return derived
  }

  /// A signal sending `transform` of each event.
  ///
  /// - Parameter transform: Applied to each event.
  /// - Returns: The derived signal. It keeps this signal alive.
  @inlinable
  public func map<Mapped>(_ transform: @escaping (Value) -> Mapped) -> Signal<Mapped> {
    let derived: Signal<Mapped> = derive { $0.observers.send(transform($1)) }
    if let prefix { derived.prefix = { prefix().map(transform) } }
    return derived
  }

  /// A signal sending the events for which `isIncluded` returns `true`.
  ///
  /// - Parameter isIncluded: Decides which events pass.
  /// - Returns: The derived signal.
  @inlinable
  public func filter(_ isIncluded: @escaping (Value) -> Bool) -> Signal<Value> {
    let derived = derive { if isIncluded($1) { $0.observers.send($1) } }
    if let prefix { derived.prefix = { prefix().filter(isIncluded) } }
    return derived
  }

  /// A signal sending the non-nil results of `transform`.
  ///
  /// - Parameter transform: Applied to each event; `nil` drops it.
  /// - Returns: The derived signal.
  @inlinable
  public func compactMap<Mapped>(_ transform: @escaping (Value) -> Mapped?) -> Signal<Mapped> {
    let derived: Signal<Mapped> = derive {
      if let mapped = transform($1) { $0.observers.send(mapped) }
    }
    if let prefix { derived.prefix = { prefix().compactMap(transform) } }
    return derived
  }

  /// A signal that drops an event equivalent to the one before it.
  ///
  /// - Parameter isEquivalent: Returns `true` when two events should count as the same.
  /// - Returns: The derived signal.
  @inlinable
  public func skipRepeats(_ isEquivalent: @escaping (Value, Value) -> Bool) -> Signal<Value> {
    var last: Value?
    return derive { derived, value in
      if let previous = last, isEquivalent(previous, value) { return }
      last = value
      derived.observers.send(value)
    }
  }

  /// A signal sending the events of this signal and of `others`, as they happen.
  ///
  /// - Parameter others: More signals of the same type.
  /// - Returns: The merged signal. It keeps every source alive.
  @inlinable
  public func merge(with others: Signal<Value>...) -> Signal<Value> {
    let merged = derive { $0.observers.send($1) }
    let prefixes = ([self] + others).compactMap(\.prefix)
    if !prefixes.isEmpty { merged.prefix = { prefixes.flatMap { $0() } } }
    for other in others {
      merged.retain(other)
      merged.retain(other.observers.add { [weak merged] in merged?.observers.send($0) })
    }
    return merged
  }

  /// A signal sending the events of the signal chosen by `transform` for the latest event,
  /// and ignoring the signals chosen for earlier ones.
  ///
  /// - Parameter transform: Chooses the inner signal for an event of this signal.
  /// - Returns: The flattened signal.
  @inlinable
  public func flatMapLatest<Inner>(
    _ transform: @escaping (Value) -> Signal<Inner>
  ) -> Signal<Inner> {
    let latest = LatestInner<Signal<Inner>>()
    let derived: Signal<Inner> = derive { derived, value in
      let inner = transform(value)
      latest.follow(inner, token: nil)
      latest.follow(inner, token: inner.observe { [weak derived] in derived?.observers.send($0) })
    }
    derived.retain(latest)
    return derived
  }

  /// A property holding the latest event, starting from `initial`.
  ///
  /// A signal made by ``prepend(_:)`` starts the property from the last of its values instead.
  ///
  /// - Parameter initial: The value until the first event.
  /// - Returns: A property that keeps this signal alive.
  @inlinable
  public func hold(initial: Value) -> Property<Value> {
    let start = prefix?().last ?? initial
    let property = Property<Value>(derivedFrom: self, initial: start)
    property.retain(observers.add { [weak property] in property?.update($0) })
    return property
  }
}

extension Signal where Value: Equatable {
  /// A signal that drops an event equal to the one before it.
  ///
  /// - Returns: The derived signal.
  @inlinable
  public func skipRepeats() -> Signal<Value> {
    skipRepeats(==)
  }
}
