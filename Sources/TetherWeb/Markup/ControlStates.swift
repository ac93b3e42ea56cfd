/// The controls with state of their own (a list's selection) one screen drew, kept with the
/// screen: a screen under another is not drawn, and its controls must not go with the page's
/// render. A control the screen's render no longer draws is dropped.
@MainActor
final class ControlStates {
  private var states: [String: (state: AnyObject, generation: Int)] = [:]
  private var generation = 0

  /// The state of control `id`, or a new one from `make`.
  func state<State: AnyObject>(_ id: String, make: () -> State) -> State {
    if let state = states[id]?.state as? State {
      states[id]?.generation = generation
      return state
    }
    let state = make()
    states[id] = (state, generation)
    return state
  }

  /// Ends one render of the screen: forgets the controls it did not draw.
  func endRender() {
    if states.contains(where: { $0.value.generation != generation }) {
      states = states.filter { $0.value.generation == generation }
    }
    generation &+= 1
  }
}
