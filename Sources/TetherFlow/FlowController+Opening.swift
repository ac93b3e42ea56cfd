import Tether

extension FlowController {
  /// Shows this flow's first screen as the root of `navigator`, replacing whatever it showed:
  /// the seed's `startFlow()`, and the first line of every app.
  ///
  /// ```swift
  /// let stack = ScreenStack<AppDestination>()
  /// MainFlow(services: services).startFlow(on: stack)
  /// ```
  ///
  /// - Parameter navigator: The app's navigator; any alert it showed is dismissed.
  public func startFlow(on navigator: any Navigator<Destination>) {
    navigator.setRoot(start(on: navigator))
  }

  /// Shows this flow's first screen as the root of `navigator`, then the screens `path` names
  /// after it: a deep link, a reload, a terminal's `--open /gallery/photo/230200335`.
  ///
  /// The path is followed as far as it is valid: when a component names no screen, or a screen
  /// that cannot be shown, the screens before it stay and the error says where it stopped, so a
  /// caller can show the nearest screen with a message instead of nothing:
  ///
  /// ```swift
  /// let path = ScreenPath(parsing: "/gallery/photo/7")
  /// do {
  ///   try await MainFlow(services: services).open(path, on: stack)
  /// } catch {
  ///   stack.present(.pageNotFound(at: path, error))  // or use openPresentingFailure(_:on:)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - path: The whole path, as the stack's ``ScreenStack/path`` shows it: when the root
  ///     screen has path components of its own, the path may start with them (the root's
  ///     address, `/home`) or leave them out; what follows is the flow's to restore.
  ///   - navigator: The app's navigator.
  /// - Throws: ``NavigationError`` naming the first component that could not be followed.
  public func open(_ path: ScreenPath, on navigator: any Navigator<Destination>)
    async throws(NavigationError)
  {
    let root = start(on: navigator)
    navigator.setRoot(root)
    // The address bar shows the root's own components (a root at `/home`): a path that
    // starts with them is that screen, not a component after it.
    var rest = path.components[...]
    if !root.pathComponents.isEmpty, rest.starts(with: root.pathComponents) {
      rest = rest.dropFirst(root.pathComponents.count)
    }
    try await restore(rest, on: navigator)
  }

  /// Opens `path` as ``open(_:on:)`` does and, when it cannot be followed to its end, shows
  /// ``ScreenAlert/pageNotFound(at:_:)`` over the nearest screen it reached: what a terminal's
  /// `--open` and a browser's Forward to a stale path both want. It never fails.
  ///
  /// - Parameters:
  ///   - path: The whole path after this flow's root screen.
  ///   - navigator: The app's navigator.
  /// - Returns: The error shown in the alert, or `nil` if the whole path was followed.
  @discardableResult
  public func openPresentingFailure(_ path: ScreenPath, on navigator: any Navigator<Destination>)
    async -> NavigationError?
  {
    do {
      try await open(path, on: navigator)
      return nil
    } catch {
      navigator.present(.pageNotFound(at: path, error))
      return error
    }
  }
}

extension ScreenAlert {
  /// The alert for a path that could only be followed part of the way: what was asked for, and
  /// why it is not shown. View layers show it over the nearest screen the path reached.
  ///
  /// - Parameters:
  ///   - path: The path that was asked for.
  ///   - error: Why it stopped, as ``FlowController/open(_:on:)`` threw it.
  /// - Returns: An informational alert titled "Page not found".
  public static func pageNotFound(at path: ScreenPath, _ error: NavigationError) -> ScreenAlert {
    ScreenAlert(title: "Page not found", message: "\(path): \(error.description)")
  }
}
