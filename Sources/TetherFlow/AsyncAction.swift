/// Turns an `async` view-model input into the plain action a gesture runs: each call starts the
/// input in a new main-actor task and returns at once.
///
/// ```swift
/// Button("Retry", action: asyncAction { await list.reloadRequested() })
/// ```
///
/// A synchronous input needs no wrapping: pass it as it is, so its effect is rendered with the
/// gesture that caused it.
///
/// - Parameter input: The view-model input.
/// - Returns: An action that starts it.
@MainActor
public func asyncAction(_ input: @escaping @MainActor () async -> Void) -> @MainActor () -> Void {
  { Task { await input() } }
}
