extension Property {
  /// Creates a derived property fed by this property's changes.
  ///
  /// The derived property keeps this one alive; this one holds the derived property weakly, so
  /// dropping the derived property ends the subscription.
  @inlinable
  internal final func derive<Derived>(
    initial: Derived,
    _ forward: @escaping (Property<Derived>, Value) -> Void
  ) -> Property<Derived> {
    let derived = Property<Derived>(derivedFrom: self, initial: initial)
    // unowned(unsafe): see `Property.subscriptions` for why this cannot dangle.
    derived.subscriptions.append(
      observers.add { [unowned(unsafe) derived] value in forward(derived, value) })
    return derived
  }

  /// A property holding `transform` of this property's value, updated on every change.
  ///
  /// ```swift
  /// let title: Property<String> = name.map { "Hello, \($0)" }
  /// ```
  ///
  /// - Parameter transform: Applied to the current value now and to every change.
  /// - Returns: The derived, read-only property. It keeps this property alive.
  @inlinable
  public final func map<Mapped>(_ transform: @escaping (Value) -> Mapped) -> Property<Mapped> {
    let derived = Property<Mapped>(derivedFrom: self, initial: transform(storage))
    // Unretained, and no retain per value: see `Property.subscriptions` for why these cannot
    // dangle while the entry is called.
    let target = Unmanaged.passUnretained(derived)
    let list = Unmanaged.passUnretained(observers)
    derived.subscriptions.append(
      observers.add { value in
        let mapped = transform(value)
        // `transform` is the app's code: it may have freed `derived` (which removes this entry).
        if list._withUnsafeGuaranteedRef({ $0.isCallingRemovedEntry }) { return }
        target._withUnsafeGuaranteedRef { $0.update(mapped) }
      })
    return derived
  }

  /// A property holding the value at `keyPath` of this property's value.
  ///
  /// - Parameter keyPath: The part of the value to follow.
  /// - Returns: The derived, read-only property.
  @inlinable
  public final func map<Mapped>(_ keyPath: KeyPath<Value, Mapped>) -> Property<Mapped> {
    map { $0[keyPath: keyPath] }
  }

  /// A property that changes only when `isEquivalent` says the new value differs from the
  /// current one.
  ///
  /// - Parameter isEquivalent: Returns `true` when two values should count as the same.
  /// - Returns: The derived, read-only property.
  @inlinable
  public final func skipRepeats(
    _ isEquivalent: @escaping (Value, Value) -> Bool
  ) -> Property<Value> {
    derive(initial: storage) { derived, value in
      if !isEquivalent(derived.storage, value) { derived.update(value) }
    }
  }

  /// A property holding both values, updated when either changes.
  ///
  /// ```swift
  /// let canSubmit = email.combineLatest(with: password).map { !$0.isEmpty && $1.count >= 8 }
  /// ```
  ///
  /// - Parameter other: The second source.
  /// - Returns: A property of pairs `(self.value, other.value)`. It keeps both sources alive.
  @inlinable
  public final func combineLatest<Other>(
    with other: Property<Other>
  ) -> Property<(Value, Other)> {
    let derived = Property<(Value, Other)>(
      derivedFrom: self, initial: (storage, other.storage))
    derived.retain(other)
    // Each side reads the other's latest value from the derived storage rather than capturing
    // the other source, which would make the two sources retain each other.
    // Unretained: see `Property.subscriptions` for why these cannot dangle (no app code runs
    // before the update).
    let target = Unmanaged.passUnretained(derived)
    derived.subscriptions.append(
      observers.add { value in
        target._withUnsafeGuaranteedRef { $0.update((value, $0.storage.1)) }
      })
    derived.subscriptions.append(
      other.observers.add { value in
        target._withUnsafeGuaranteedRef { $0.update(($0.storage.0, value)) }
      })
    return derived
  }

  /// A property holding the three values, updated when any changes.
  ///
  /// - Parameters:
  ///   - first: The first source.
  ///   - second: The second source.
  ///   - third: The third source.
  /// - Returns: A property of triples. It keeps the sources alive.
  @inlinable
  public static func combineLatest<A, B, C>(
    _ first: Property<A>, _ second: Property<B>, _ third: Property<C>
  ) -> Property<(A, B, C)> where Value == (A, B, C) {
    first.combineLatest(with: second).combineLatest(with: third).map { ($0.0, $0.1, $1) }
  }

  /// A property that follows the property chosen by `transform` for the latest value, and
  /// ignores the properties chosen for earlier values.
  ///
  /// ```swift
  /// // The detail of whichever photo is selected; edits to a previous selection are ignored.
  /// let detail = selectedPhoto.flatMapLatest { photo in store.detail(for: photo) }
  /// ```
  ///
  /// - Parameter transform: Chooses the property to follow for a value of this property.
  /// - Returns: A property with the current value of the latest inner property.
  @inlinable
  public final func flatMapLatest<Inner>(
    _ transform: @escaping (Value) -> Property<Inner>
  ) -> Property<Inner> {
    let first = transform(storage)
    let derived = Property<Inner>(derivedFrom: self, initial: first.storage)
    let latest = LatestInner<Property<Inner>>()
    derived.retain(latest)
    latest.follow(
      first,
      token: first.observers.add { [weak derived] in derived?.update($0) })
    derived.retain(
      observers.add { [weak derived, weak latest] value in
        guard let derived, let latest else { return }
        let inner = transform(value)
        // Ending the old subscription first is what drops its late values.
        latest.follow(inner, token: nil)
        latest.follow(inner, token: inner.observe { [weak derived] in derived?.update($0) })
      })
    return derived
  }

  /// The changes of this property from now on, as a ``Signal`` (no current value).
  @inlinable
  public final var changes: Signal<Value> {
    let signal = Signal<Value>()
    signal.retain(self)
    signal.retain(observers.add { [weak signal] in signal?.observers.send($0) })
    return signal
  }
}

extension Property where Value: Equatable {
  /// A property that changes only when the new value differs from the current one.
  ///
  /// - Returns: The derived, read-only property.
  @inlinable
  public final func skipRepeats() -> Property<Value> {
    skipRepeats(==)
  }
}

/// The inner source a `flatMapLatest` follows now, and its subscription.
@usableFromInline
internal final class LatestInner<Source: AnyObject> {
  @usableFromInline var source: Source?
  @usableFromInline var token: ObservationToken?

  @usableFromInline
  init() {}

  @usableFromInline
  func follow(_ source: Source, token: ObservationToken?) {
    self.token?.cancel()
    self.source = source
    self.token = token
  }
}
