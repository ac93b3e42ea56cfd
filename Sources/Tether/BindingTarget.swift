/// Something a binding can write values into, with a rule for when the binding ends.
///
/// You rarely create one directly; they come from ``MutableProperty/bindingTarget`` and from
/// ``BindingTargetProvider/bindable(_:)``, and `<~` connects them to a source:
///
/// ```swift
/// extension Label: BindingTargetProvider {}
///
/// label.bindable(\.text) <~ viewModel.title
/// userName <~ fetchedUser.map(\.name)
/// ```
///
/// > Note: **A binding owns itself.** It holds its target weakly and ends on its own when the
/// > target deallocates, when the source deallocates, or when the token returned by `<~` is
/// > cancelled; the token may be discarded. A target that is a ``LifetimeProvider`` (and every
/// > ``MutableProperty``) ends its bindings the moment it deallocates; for other objects the
/// > binding notices at the next value and removes itself then.
public struct BindingTarget<Value> {
  /// When this lifetime ends, every binding into the target ends. `nil` if the target has none.
  public let lifetime: Lifetime?
  /// Writes a value into the target; returns `false` once the target is gone.
  public let write: (Value) -> Bool

  /// Creates a target from a write function.
  ///
  /// - Parameters:
  ///   - lifetime: The lifetime that ends bindings into this target, if any.
  ///   - write: Writes a value and returns `true`, or returns `false` if the target is gone.
  public init(lifetime: Lifetime?, write: @escaping (Value) -> Bool) {
    self.lifetime = lifetime
    self.write = write
  }

  /// Creates a target writing into `object[keyPath: keyPath]`, holding `object` weakly.
  ///
  /// - Parameters:
  ///   - object: The object to write into. If it is a ``LifetimeProvider``, its lifetime ends
  ///     the binding.
  ///   - keyPath: The writable property to set.
  public init<Object: AnyObject>(
    _ object: Object,
    _ keyPath: ReferenceWritableKeyPath<Object, Value>
  ) {
    self.init(lifetime: (object as? any LifetimeProvider)?.lifetime) { [weak object] value in
      guard let object else { return false }
      object[keyPath: keyPath] = value
      return true
    }
  }

  /// Creates a target writing non-optional values into an optional property, the way
  /// `label.text` (a `String?`) is bound to a `Property<String>`.
  ///
  /// - Parameters:
  ///   - object: The object to write into, held weakly.
  ///   - keyPath: The optional writable property to set.
  public init<Object: AnyObject>(
    _ object: Object,
    _ keyPath: ReferenceWritableKeyPath<Object, Value?>
  ) {
    self.init(lifetime: (object as? any LifetimeProvider)?.lifetime) { [weak object] value in
      guard let object else { return false }
      object[keyPath: keyPath] = value
      return true
    }
  }
}

/// Gives any class `bindable(\.keyPath)`, the entry point of key-path bindings.
///
/// Conform with an empty extension: `extension Label: BindingTargetProvider {}`.
public protocol BindingTargetProvider: AnyObject {}

extension BindingTargetProvider {
  /// A binding target that writes into the property at `keyPath` of this object.
  ///
  /// - Parameter keyPath: The writable property to set.
  /// - Returns: A target for `<~`. It holds this object weakly.
  public func bindable<Value>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value>
  ) -> BindingTarget<Value> {
    BindingTarget(self, keyPath)
  }

  /// A binding target that writes non-optional values into the optional property at `keyPath`.
  ///
  /// - Parameter keyPath: The optional writable property to set.
  /// - Returns: A target for `<~`. It holds this object weakly.
  public func bindable<Value>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value?>
  ) -> BindingTarget<Value> {
    BindingTarget(self, keyPath)
  }
}

extension MutableProperty {
  /// This property as a binding target: bindings into it end when it is deallocated.
  public var bindingTarget: BindingTarget<Value> {
    BindingTarget(lifetime: lifetime) { [weak self] value in
      guard let self else { return false }
      self.update(value)
      return true
    }
  }
}
