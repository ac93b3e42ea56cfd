import Tether
import TetherTerminal

/// The terminal face of the shared load cycle: a spinner while loading, then the error (with
/// the key that reloads) if the load failed. One piece of markup for every screen that fetches;
/// the spinner reads the clock only while it shows, so its ticks redraw nothing otherwise.
@MainActor
@TerminalMarkupBuilder<Action>
func loadStatus<Action>(
  isLoading: Bool, errorMessage: String?, loadingMessage: String, reloadKey: Character = "r",
  tick: Property<Int>
) -> TerminalMarkup<Action> {
  if isLoading { spinner(loadingMessage, tick: tick) }
  if let errorMessage {
    text("⚠ \(errorMessage) — press \(reloadKey) to retry").bold().foreground(.red)
  }
}
