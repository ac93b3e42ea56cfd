extension Property where Value == Bool {
  /// A property that is `true` while both are: `canSubmit = isValid && !isSaving`.
  ///
  /// It changes only when the result does (a change of one side that leaves it as it was
  /// sends nothing).
  ///
  /// - Returns: The derived property. It keeps both sources alive.
  @inlinable
  public static func && (lhs: Property<Bool>, rhs: Property<Bool>) -> Property<Bool> {
    lhs.combineLatest(with: rhs).map { $0 && $1 }.skipRepeats()
  }

  /// A property that is `true` while either is. It changes only when the result does.
  ///
  /// - Returns: The derived property. It keeps both sources alive.
  @inlinable
  public static func || (lhs: Property<Bool>, rhs: Property<Bool>) -> Property<Bool> {
    lhs.combineLatest(with: rhs).map { $0 || $1 }.skipRepeats()
  }

  /// A property that is `true` while `operand` is `false`.
  ///
  /// - Returns: The derived property. It keeps `operand` alive.
  @inlinable
  public static prefix func ! (operand: Property<Bool>) -> Property<Bool> {
    operand.map { !$0 }
  }
}

extension Property {
  /// A property holding the values of every source, in order, updated when any changes: the
  /// validity of a form's fields, however many there are.
  ///
  /// ```swift
  /// let allValid = Property.combineLatest(fields.map(\.isValid)).map { $0.allSatisfy { $0 } }
  /// ```
  ///
  /// Like every `combineLatest`, it updates once per source change: a view model that changes
  /// two sources in one method makes it deliver twice, the first time with one of them new and
  /// the other not yet. `observe { }` runs once after both (it is glitch-free).
  ///
  /// - Parameter sources: The sources; none gives a property holding `[]` for good.
  /// - Returns: A property of arrays. It keeps the sources alive.
  @inlinable
  public static func combineLatest<Element>(
    _ sources: [Property<Element>]
  ) -> Property<[Element]> where Value == [Element] {
    let derived = Property<[Element]>(derivedFrom: nil, initial: sources.map(\.storage))
    for (index, source) in sources.enumerated() {
      derived.retain(source)
      // Unretained: see `Property.subscriptions` for why this cannot dangle.
      let target = Unmanaged.passUnretained(derived)
      derived.subscriptions.append(
        source.observers.add { value in
          target._withUnsafeGuaranteedRef { derived in
            var values = derived.storage
            values[index] = value
            derived.update(values)
          }
        })
    }
    return derived
  }
}
