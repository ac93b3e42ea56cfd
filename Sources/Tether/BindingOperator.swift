precedencegroup BindingPrecedence {
  associativity: right
  higherThan: AssignmentPrecedence
}

/// Binds a source (right) into a target (left): the target takes the source's current value
/// (for a property) and every later value, until the binding ends.
infix operator <~ : BindingPrecedence

/// Binds a property into a target: the target takes the current value now, then every change.
///
/// ```swift
/// label.bindable(\.text) <~ viewModel.title
/// ```
///
/// - Parameters:
///   - target: Where the values go. Held weakly.
///   - source: The property to follow.
/// - Returns: The binding's token. The target's lifetime owns it, so it may be discarded;
///   cancel it to end the binding early.
@discardableResult
public func <~ <Value>(target: BindingTarget<Value>, source: Property<Value>) -> ObservationToken {
  bind(target) { source.observe($0) }
}

/// Binds a signal into a target: the target takes every later event.
///
/// - Parameters:
///   - target: Where the events go. Held weakly.
///   - source: The signal to follow.
/// - Returns: The binding's token, which may be discarded.
@discardableResult
public func <~ <Value>(target: BindingTarget<Value>, source: Signal<Value>) -> ObservationToken {
  bind(target) { source.observe($0) }
}

/// Binds a property into a mutable property (`mutableUserName <~ …`).
///
/// - Parameters:
///   - target: The property that follows `source`. Held weakly; its deallocation ends the
///     binding, which keeps `source` alive until then.
///   - source: The property to follow.
/// - Returns: The binding's token, which may be discarded.
@discardableResult
public func <~ <Value>(target: MutableProperty<Value>, source: Property<Value>)
  -> ObservationToken
{
  target.bindingTarget <~ source
}

/// Binds a signal into a mutable property.
///
/// - Parameters:
///   - target: The property that takes each event. Held weakly.
///   - source: The signal to follow.
/// - Returns: The binding's token, which may be discarded.
@discardableResult
public func <~ <Value>(target: MutableProperty<Value>, source: Signal<Value>) -> ObservationToken {
  target.bindingTarget <~ source
}

/// Subscribes `target` with `subscribe` and hands the token to the target's lifetime.
private func bind<Value>(
  _ target: BindingTarget<Value>,
  subscribe: (@escaping (Value) -> Void) -> ObservationToken
) -> ObservationToken {
  let link = BindingLink()
  let write = target.write
  let token = subscribe { [link] value in
    guard !write(value) else { return }
    link.isTargetGone = true
    link.token?.cancel()
  }
  // The lifetime owns the token (and through it the source); the entry only points back
  // weakly, or the source and its own entry would keep each other alive.
  link.token = token
  target.lifetime.add(token)
  // The written object may already have been gone when a property replayed its value.
  if link.isTargetGone { token.cancel() }
  return token
}

private final class BindingLink {
  weak var token: ObservationToken?
  var isTargetGone = false
}
