extension Signal {
  /// The same events, each also written to `log` with `label` as it passes — RxSwift's
  /// `debug()`, ReactiveSwift's `logEvents`: put it anywhere in a chain to see what flows
  /// there and when.
  ///
  /// ```swift
  /// let saved = saveTapped.debug("save tapped").withLatestFrom(title).map { $1 }
  /// ```
  ///
  /// - Parameters:
  ///   - label: Names the place in the chain.
  ///   - log: Where each line goes; standard output by default.
  /// - Returns: The same events.
  public func debug(
    _ label: String, to log: @escaping (String) -> Void = { print($0) }
  ) -> Signal<Value> {
    derive { derived, value in
      log("\(label): \(value)")
      derived.observers.send(value)
    }
  }
}

extension Property {
  /// The same values, each also written to `log` with `label`: the current value when it is
  /// made (`label: = value`), then every change (`label: → value`).
  ///
  /// - Parameters:
  ///   - label: Names the place in the chain.
  ///   - log: Where each line goes; standard output by default.
  /// - Returns: A property following this one.
  public final func debug(
    _ label: String, to log: @escaping (String) -> Void = { print($0) }
  ) -> Property<Value> {
    log("\(label): = \(storage)")
    return derive(initial: storage) { derived, value in
      log("\(label): → \(value)")
      derived.update(value)
    }
  }
}
