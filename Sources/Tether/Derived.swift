/// A view model's derived output in one declaration: a ``Property`` made from other outputs,
/// read like an ``Output``.
///
/// ```swift
/// @MainActor final class PhotoListViewModel {
///   @Output private(set) var rows: [PhotoListCellViewModel] = []
///   @Output private(set) var isLoadingMore = false
///   @Derived(\PhotoListViewModel.$rows, \.count) var numberOfCells: Int
///   @Derived({ (model: PhotoListViewModel) in
///     model.$isLoadingMore.combineLatest(with: model.$rows).map { loading, rows in
///       loading ? "Loading more photos…" : "\(rows.count) photos"
///     }
///   })
///   var statusText: String
/// }
/// // …
/// label.bindable(\.text) <~ viewModel.$statusText
/// observe { render(viewModel.numberOfCells) }.store(in: lifetime)  // a read is tracked
/// ```
///
/// Give it the output it follows and a transform, or a closure that is given the view model
/// and returns the derived property, with any operators (`map`, `combineLatest`, …). Either
/// may read every other output, because it runs after `init`, not inside it: on the first
/// read of `numberOfCells` or `$numberOfCells` (the test kit's probe makes it when it starts).
/// Until then the derivation costs nothing and subscribes to nothing; from then on it follows
/// its sources. Name the view model's type in the key path or the closure: Swift infers it
/// from nothing else.
///
/// `numberOfCells` reads the property's ``Property/value``; `$numberOfCells` is the property,
/// read-only like every derived one. Like an ``Output``, a derived output of an `Equatable`
/// type delivers changes only: a source's change that leaves it equal is not delivered.
///
/// > Note: `@Derived` works on properties of classes only (it reaches the instance through
/// > Swift's enclosing-instance accessors). The view model is lent to the closure, not kept:
/// > an operator's closure inside it that needs the view model when it runs later captures it
/// > weakly, as anywhere, or the view model would keep itself alive.
@propertyWrapper
public struct Derived<Owner: AnyObject, Value> {
  @usableFromInline
  internal let storage: DerivedStorage<Owner, Value>

  /// Declares the output made by `make`.
  ///
  /// - Parameter make: Returns the derived property from the view model's other outputs;
  ///   called once, on the first read.
  public init(_ make: @escaping (Owner) -> Property<Value>) {
    storage = DerivedStorage(make)
  }

  /// Declares the output made by `make`, delivering only changes: a value equal to the one it
  /// holds is not delivered, as with an `Equatable` ``Output``.
  ///
  /// - Parameter make: Returns the derived property from the view model's other outputs;
  ///   called once, on the first read.
  public init(_ make: @escaping (Owner) -> Property<Value>) where Value: Equatable {
    storage = DerivedStorage { make($0).skipRepeats() }
  }

  /// Declares the output that is another property of the view model, seen as an output: a
  /// command's `isLoading`, say, as `@Derived(\ListViewModel.loading.isLoading) var isLoading:
  /// Bool`.
  ///
  /// - Parameter source: The property.
  public init<SourceProperty: Property<Value>>(_ source: KeyPath<Owner, SourceProperty>) {
    storage = DerivedStorage { $0[keyPath: source] }
  }

  /// Declares the output that is another property of the view model, delivering only changes.
  ///
  /// - Parameter source: The property.
  public init<SourceProperty: Property<Value>>(_ source: KeyPath<Owner, SourceProperty>)
  where Value: Equatable {
    storage = DerivedStorage { $0[keyPath: source].skipRepeats() }
  }

  /// Declares the output that follows one other output through `transform`:
  /// `@Derived(\PhotoListViewModel.$rows, \.count) var numberOfCells: Int`.
  ///
  /// - Parameters:
  ///   - source: The view model's output (its face, `\.$rows`) or input property.
  ///   - transform: Makes this output's value from the source's.
  public init<Source, SourceProperty: Property<Source>>(
    _ source: KeyPath<Owner, SourceProperty>, _ transform: @escaping (Source) -> Value
  ) {
    storage = DerivedStorage { $0[keyPath: source].map(transform) }
  }

  /// Declares the output that follows one other output through `transform`, delivering only
  /// changes, as an `Equatable` ``Output`` does.
  ///
  /// - Parameters:
  ///   - source: The view model's output (its face, `\.$rows`) or input property.
  ///   - transform: Makes this output's value from the source's.
  public init<Source, SourceProperty: Property<Source>>(
    _ source: KeyPath<Owner, SourceProperty>, _ transform: @escaping (Source) -> Value
  ) where Value: Equatable {
    storage = DerivedStorage { $0[keyPath: source].map(transform).skipRepeats() }
  }

  /// Unavailable: `@Derived` reads its view model, so it is a property of a class.
  ///
  /// Swift requires a property wrapper to declare `wrappedValue`, and with the enclosing-instance
  /// subscripts below it never calls it; marked unavailable, no code can call it either, so its
  /// `fatalError` cannot run.
  @available(*, unavailable, message: "@Derived is a property of a class")
  public var wrappedValue: Value {
    get { fatalError("@Derived is a property of a class") }
  }

  /// Unavailable: `@Derived` reads its view model, so it is a property of a class.
  ///
  /// Unreachable for the same reason as ``wrappedValue``: the projected enclosing-instance
  /// subscript serves `$name`.
  @available(*, unavailable, message: "@Derived is a property of a class")
  public var projectedValue: Property<Value> {
    get { fatalError("@Derived is a property of a class") }
  }

  /// The current value of the derived property (tracked like ``Property/value``).
  @inlinable
  public static subscript(
    _enclosingInstance owner: Owner,
    wrapped wrappedKeyPath: KeyPath<Owner, Value>,
    storage storageKeyPath: KeyPath<Owner, Self>
  ) -> Value {
    owner[keyPath: storageKeyPath].storage.property(of: owner).value
  }

  /// The derived property of `owner`, made now if it was not: for readers of a view model's
  /// storage, such as the test kit's probe, which find the wrapper (`_numberOfCells`) and not
  /// the property.
  ///
  /// - Parameter owner: The view model holding this output; another type returns `nil`.
  /// - Returns: The property, or `nil` when `owner` is not of the output's type.
  public func face(of owner: AnyObject) -> AnyObject? {
    guard let owner = owner as? Owner else { return nil }
    return storage.property(of: owner)
  }

  /// The derived property: the read-only face to observe, bind, map or record.
  @inlinable
  public static subscript(
    _enclosingInstance owner: Owner,
    projected projectedKeyPath: KeyPath<Owner, Property<Value>>,
    storage storageKeyPath: KeyPath<Owner, Self>
  ) -> Property<Value> {
    owner[keyPath: storageKeyPath].storage.property(of: owner)
  }
}

/// Where a ``Derived`` output keeps its derivation and, once made, its property: a reference,
/// since the wrapper itself is a value stored in the view model.
@usableFromInline
internal final class DerivedStorage<Owner: AnyObject, Value> {
  @usableFromInline
  internal var made: Property<Value>?
  @usableFromInline
  internal var make: ((Owner) -> Property<Value>)?

  @usableFromInline
  internal init(_ make: @escaping (Owner) -> Property<Value>) {
    self.make = make
  }

  /// The derived property, made from `owner` on the first call.
  @inlinable
  internal func property(of owner: Owner) -> Property<Value> {
    if let made { return made }
    return makeProperty(of: owner)
  }

  @usableFromInline
  internal func makeProperty(of owner: Owner) -> Property<Value> {
    guard let make else {
      // Only reachable if the closure reads its own output while making it.
      preconditionFailure(
        "@Derived read itself while being made: a derivation cannot be its own source")
    }
    self.make = nil
    let property = make(owner)
    made = property
    return property
  }
}
