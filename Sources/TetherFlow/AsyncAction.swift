import Tether

/// Turns an `async` view-model input into the plain action a gesture runs: each call starts the
/// input and returns at once. It is a `Command` underneath, so its rules are the command's:
///
/// - **One run at a time, the latest wins**: pressing again while the input still runs cancels
///   that run and starts a new one (the command's `.replace` rule). A press is never dropped —
///   a Retry pressed the moment an error shows retries, even if the failed run is still
///   unwinding — and two runs never overlap.
/// - **Cancelled with its owner**: when the action is released — its view dropped because the
///   screen left the stack — the run in flight is cancelled, so a load started by a button of a
///   popped screen stops, and the view model it holds is released.
///
/// ```swift
/// let retry = asyncAction { await list.reloadRequested() }
/// retry()  // starts a reload; a second call while it runs starts it over
/// ```
///
/// A synchronous input needs no wrapping: pass it as it is, so its effect is rendered with the
/// gesture that caused it. To show a spinner or disable a button while an input runs, give the
/// view model a `Command` and bind its outputs.
///
/// - Parameter input: The view-model input.
/// - Returns: An action that starts it.
@MainActor
public func asyncAction(_ input: @escaping @MainActor () async -> Void) -> @MainActor () -> Void {
  let action = LazyCommand(input)
  return { action.start() }
}

/// The command of an ``asyncAction(_:)``, made on the first press: most buttons are never
/// pressed, and an unpressed one costs this box and its closure alone.
@MainActor
private final class LazyCommand {
  private let input: @MainActor () async -> Void
  private var command: Command<Void, Void, Never>?

  init(_ input: @escaping @MainActor () async -> Void) {
    self.input = input
  }

  func start() {
    if let command {
      command.start()
      return
    }
    let input = self.input
    let made = Command<Void, Void, Never>(reentry: .replace) { () async throws(Never) in
      await input()
    }
    command = made
    made.start()
  }
}
