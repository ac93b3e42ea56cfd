/// A view model's output in one declaration: the view model sets it like a variable, and
/// everyone else reads it and observes its read-only ``Property`` face, `$name`.
///
/// ```swift
/// @MainActor final class PhotoListViewModel {
///   private let service = PhotoService()
///   @Output private(set) var isLoading = false
///   @Output private(set) var rows: [PhotoListCellViewModel] = []
///
///   func viewDidLoad() async throws {
///     isLoading = true                       // delivered to observers, in order
///     rows = try await service.photos().map(PhotoListCellViewModel.init)
///     isLoading = false
///   }
/// }
/// // …
/// spinner.bindable(\.isAnimating) <~ viewModel.$isLoading  // the read-only face
/// observe { [weak view] in view?.render(viewModel.rows) }  // a read is tracked
///   .store(in: lifetime)
/// ```
///
/// Declare outputs `private(set)`: the setter is then the view model's alone, and the face,
/// `$name`, is a plain ``Property`` — not a ``MutableProperty`` — so no view can write through
/// it, even by casting. Reading `name` is reading `$name.value`: tracked by `observe { }` and
/// registered with Apple's Observation. Setting it delivers exactly as
/// ``MutableProperty/value`` does, and mutating it in place (`rows[0].isSelected = true`,
/// `rows.append(row)`) delivers the result once, without copying the value.
///
/// ## Repeats
///
/// An output of an `Equatable` type delivers a change, not a set: setting it to the value it
/// holds delivers nothing (no observer runs, no `observe { }` re-runs, Observation hears of
/// nothing), so a view model can set its outputs from a recomputation without guarding each
/// one. A mutation in place (`rows[0].isSelected = true`) is delivered whatever it did, since
/// telling would take a copy of the value. An output of any other type delivers every set.
///
/// An output derived with operators (`$rows.map(\.count)`, `combineLatest`) delivers whenever
/// a source does, repeats included, like every ``Property``; end such a chain with
/// ``Property/skipRepeats()`` when it is state a view shows.
///
/// > Note: A wrapper's storage is a reference: copying the view model's storage (there is no
/// > way to, in a class) would share it. Use `@Output` in classes only.
///
/// > Important: A set reaches the output's property through the view model, which its caller
/// > keeps alive for the call, so it costs no reference counting. Replacing the wrapper itself
/// > (`_name = Output(wrappedValue: …)`) from one of the output's own observers, while it
/// > delivers, would free the property under the delivery: that stops the program with a
/// > message instead.
@propertyWrapper
public struct Output<Value> {
  /// The output's state: a plain ``Property`` to everyone else, updated through the module's
  /// own setter. The wrapper owns it through this reference.
  @usableFromInline
  internal let property: OutputProperty<Value>
  /// The same property, unretained: what a set calls. The view model's storage of the wrapper
  /// is a `var` the compiler synthesizes, so a set through the owning reference copies it (a
  /// retain and a release on every set). A set needs none: the view model it is made on is
  /// kept alive by its caller for the call, and it keeps the wrapper, and so the property.
  /// The one way to free the property during its set, replacing the view model's wrapper
  /// (`_name = Output(…)`) from one of its own observers, stops the program with a message
  /// (``OutputProperty``'s `deinit`).
  @usableFromInline
  internal let unretained: Unmanaged<OutputProperty<Value>>

  /// Creates an output holding `wrappedValue` that delivers every set.
  ///
  /// - Parameter wrappedValue: The first value, replayed to every observer until it changes.
  @inlinable
  public init(wrappedValue: Value) {
    property = OutputProperty(initial: wrappedValue, leavesUnchanged: nil)
    unretained = Unmanaged.passUnretained(property)
  }

  /// Creates an output holding `wrappedValue` that delivers only a set that changes it.
  ///
  /// - Parameter wrappedValue: The first value, replayed to every observer until it changes.
  @inlinable
  public init(wrappedValue: Value) where Value: Equatable {
    property = OutputProperty(initial: wrappedValue, leavesUnchanged: { $0 == $1 })
    unretained = Unmanaged.passUnretained(property)
  }

  /// The current value. Setting it delivers the new value to every observer, synchronously and
  /// in order (see ``MutableProperty/value``), unless it is `Equatable` and equal to the value
  /// held.
  @inlinable
  public var wrappedValue: Value {
    get { unretained._withUnsafeGuaranteedRef { $0.value } }
    nonmutating set {
      unretained._withUnsafeGuaranteedRef { $0.set(newValue) }
    }
    nonmutating _modify {
      let property = self.property
      if property.isModifying { property.modificationConflict() }
      let reportsToObservation = property.mayBeObserved
      if reportsToObservation { property.observationWillSet() }
      property.isModifying = true
      // A `defer` runs whether the access ends normally or is abandoned by a throw, so
      // observers always hear of what the value now holds.
      defer {
        property.isModifying = false
        if reportsToObservation { property.observationLink?.didSet() }
        property.observers.send(property.storage)
      }
      yield &property.storage
    }
  }

  /// The read-only face: a ``Property`` to observe, bind, map or record.
  @inlinable
  public var projectedValue: Property<Value> { property }
}

/// An ``Output``'s property: a ``Property`` that also knows whether a set leaves its value as
/// it is.
///
/// The comparison lives here, in a `let` of the property, rather than in the wrapper: reading
/// it through the property the setter already holds costs nothing, where a second reference in
/// the wrapper cost a retain and a release on every set.
@usableFromInline
internal final class OutputProperty<Value>: Property<Value> {
  /// For an `Equatable` value, whether a set leaves the value as it is. The closure is made by
  /// the wrapper's initializer, inlined where the value's type is known, so the comparison is
  /// compiled for that type (`Int`'s `==`, not a generic one reached through a method).
  @usableFromInline
  internal let leavesUnchanged: ((Value, Value) -> Bool)?

  @inlinable
  internal init(initial: Value, leavesUnchanged: ((Value, Value) -> Bool)?) {
    self.leavesUnchanged = leavesUnchanged
    super.init(derivedFrom: nil, initial: initial)
  }

  /// Sets the value and delivers it, unless it is `Equatable` and equal to the value held.
  @inlinable
  internal final func set(_ newValue: Value) {
    if let leavesUnchanged, leavesUnchanged(storage, newValue) { return }
    update(newValue)
  }

  deinit {
    // A set reaches this property unretained (see `Output.unretained`): freed while it
    // delivers, the delivery would go on in freed memory.
    if observers.isDelivering {
      preconditionFailure(
        "An @Output was freed while it delivered a value: its view model's wrapper was replaced from one of the output's own observers"
      )
    }
  }
}
