/// Something a binding can write values into, and the ``Lifetime`` that bounds the binding.
///
/// You rarely create one directly; they come from `bindable(_:)` and
/// ``MutableProperty/bindingTarget``, and `<~` connects them to a source:
///
/// ```swift
/// final class PhotoCell: LifetimeProvider {
///   let lifetime = Lifetime()
///   var title = ""
/// }
/// // …
/// cell.bindable(\.title) <~ viewModel.title
/// spinner.bindable(\.isHidden) <~ viewModel.isLoading.map { !$0 }
/// ```
///
/// > Note: **A binding belongs to its target.** It is stored in the target's lifetime, so it
/// > lasts exactly as long as the target, keeps its source alive for that long (a temporary
/// > `map` keeps working), and ends when the target deallocates. It also ends early if the
/// > returned token is cancelled, or if the written object is gone before the lifetime ends.
/// > The token may be discarded. The target itself is held weakly: a binding never keeps a
/// > view alive.
public struct BindingTarget<Value> {
  /// The lifetime that owns bindings into this target; when it ends, they end.
  public let lifetime: Lifetime
  /// Writes a value into the target; returns `false` once the target is gone.
  public let write: (Value) -> Bool

  /// Creates a target from a write function.
  ///
  /// - Parameters:
  ///   - lifetime: The lifetime that owns and ends bindings into this target.
  ///   - write: Writes a value and returns `true`, or returns `false` if the target is gone.
  public init(lifetime: Lifetime, write: @escaping (Value) -> Bool) {
    self.lifetime = lifetime
    self.write = write
  }

  /// Creates a target writing into `object[keyPath: keyPath]` for as long as `lifetime`.
  ///
  /// Use it for objects you cannot make a ``LifetimeProvider`` (a framework's label), with the
  /// lifetime of the view or controller that owns them:
  ///
  /// ```swift
  /// BindingTarget(titleLabel, \.text, lifetime: lifetime) <~ viewModel.title
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to write into, held weakly.
  ///   - keyPath: The writable property to set.
  ///   - lifetime: The lifetime that owns the binding.
  public init<Object: AnyObject>(
    _ object: Object,
    _ keyPath: ReferenceWritableKeyPath<Object, Value>,
    lifetime: Lifetime
  ) {
    self.init(lifetime: lifetime) { [weak object] value in
      guard let object else { return false }
      object[keyPath: keyPath] = value
      return true
    }
  }

  /// Creates a target writing non-optional values into an optional property, the way a
  /// `String?` text is bound to a `Property<String>`.
  ///
  /// - Parameters:
  ///   - object: The object to write into, held weakly.
  ///   - keyPath: The optional writable property to set.
  ///   - lifetime: The lifetime that owns the binding.
  public init<Object: AnyObject>(
    _ object: Object,
    _ keyPath: ReferenceWritableKeyPath<Object, Value?>,
    lifetime: Lifetime
  ) {
    self.init(lifetime: lifetime) { [weak object] value in
      guard let object else { return false }
      object[keyPath: keyPath] = value
      return true
    }
  }
}

extension LifetimeProvider {
  /// A binding target that writes into the property at `keyPath` of this object, for as long
  /// as this object lives.
  ///
  /// - Parameter keyPath: The writable property to set.
  /// - Returns: A target for `<~`. It holds this object weakly.
  public func bindable<Value>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value>
  ) -> BindingTarget<Value> {
    BindingTarget(self, keyPath, lifetime: lifetime)
  }

  /// A binding target that writes non-optional values into the optional property at `keyPath`.
  ///
  /// - Parameter keyPath: The optional writable property to set.
  /// - Returns: A target for `<~`. It holds this object weakly.
  public func bindable<Value>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value?>
  ) -> BindingTarget<Value> {
    BindingTarget(self, keyPath, lifetime: lifetime)
  }
}

extension MutableProperty {
  /// This property as a binding target: bindings into it last until it is deallocated.
  public var bindingTarget: BindingTarget<Value> {
    BindingTarget(lifetime: lifetime) { [weak self] value in
      guard let self else { return false }
      self.update(value)
      return true
    }
  }
}
