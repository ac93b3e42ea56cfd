extension LifetimeProvider {
  /// Runs `apply` now, and again whenever anything it read has changed, for as long as this
  /// object lives: the free function `observe { }` with its token kept in ``lifetime``.
  ///
  /// Inside a view that owns a lifetime, this is the common case and needs no token:
  ///
  /// ```swift
  /// @MainActor final class CounterView: @MainActor LifetimeProvider {
  ///   let lifetime = Lifetime()
  ///   var text = ""
  ///
  ///   init(viewModel: CounterViewModel) {
  ///     observe { [weak self] in self?.text = "Count: \(viewModel.count.value)" }
  ///   }
  /// }
  /// ```
  ///
  /// > Note: Inside a type that conforms to `LifetimeProvider`, an unqualified `observe { }`
  /// > is this method. Capture `self` weakly, or use the form whose closure takes the object
  /// > (`observe { view in … }`), which hands it to `apply` without keeping it alive.
  ///
  /// - Parameters:
  ///   - isolation: The actor whose turns run `apply`; inferred from the caller.
  ///   - apply: The work to re-run, typically a view update.
  /// - Returns: The observation's token, already kept by ``lifetime``: discard it, or cancel it
  ///   to end the observation early.
  @discardableResult
  public func observe(
    isolation: isolated (any Actor) = #isolation,
    _ apply: @escaping () -> Void
  ) -> ObservationToken {
    let token = Tether.observe(isolation: isolation, apply)
    lifetime.add(token)
    return token
  }

  /// Runs `apply` with this object now, and again whenever anything it read has changed, for
  /// as long as the object lives. The object is held weakly: the observation never keeps it
  /// alive, and ends when it deallocates.
  ///
  /// ```swift
  /// observe { view in view.text = "Count: \(viewModel.count.value)" }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: The actor whose turns run `apply`; inferred from the caller.
  ///   - apply: The work to re-run, given this object.
  /// - Returns: The observation's token, already kept by ``lifetime``: discard it, or cancel it
  ///   to end the observation early.
  @discardableResult
  public func observe(
    isolation: isolated (any Actor) = #isolation,
    _ apply: @escaping (Self) -> Void
  ) -> ObservationToken {
    let token = Tether.observe(isolation: isolation) { [weak self] in
      guard let self else { return }
      apply(self)
    }
    lifetime.add(token)
    return token
  }
}

extension Property {
  /// Observes the current value now and every change after it, for as long as `owner` lives:
  /// the observation is kept by the owner's ``LifetimeProvider/lifetime``, and `owner` is held
  /// weakly and handed to `action`.
  ///
  /// ```swift
  /// viewModel.title.observe(for: self) { view, title in view.title = title }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: The object the observation belongs to, typically the view it updates.
  ///   - action: Called with `owner` and the current value before this method returns, then
  ///     with each new value, in order.
  /// - Returns: The observation's token, already kept by the owner: discard it, or cancel it to
  ///   end the observation early.
  @discardableResult
  public final func observe<Owner: LifetimeProvider>(
    for owner: Owner, _ action: @escaping (Owner, Value) -> Void
  ) -> ObservationToken {
    let token = observe { [weak owner] value in
      guard let owner else { return }
      action(owner, value)
    }
    owner.lifetime.add(token)
    return token
  }
}

extension Signal {
  /// Observes every event sent from now on, for as long as `owner` lives: the observation is
  /// kept by the owner's ``LifetimeProvider/lifetime``, and `owner` is held weakly and handed to
  /// `action`.
  ///
  /// ```swift
  /// viewModel.route.observe(for: self) { flow, photo in flow.showDetail(of: photo) }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: The object the observation belongs to, typically a flow or a view.
  ///   - action: Called with `owner` and each event, in order.
  /// - Returns: The observation's token, already kept by the owner: discard it, or cancel it to
  ///   end the observation early.
  @discardableResult
  public func observe<Owner: LifetimeProvider>(
    for owner: Owner, _ action: @escaping (Owner, Value) -> Void
  ) -> ObservationToken {
    let token = observe { [weak owner] value in
      guard let owner else { return }
      action(owner, value)
    }
    owner.lifetime.add(token)
    return token
  }
}
