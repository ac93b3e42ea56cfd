import Tether
import TetherTerminal

/// The terminal face of the shared load cycle: a spinner while loading, then the error (with
/// the key that reloads) if the load failed. One view for every screen that fetches.
@MainActor
func loadStatus(
  isLoading: Property<Bool>, errorMessage: Property<String?>, loadingMessage: String,
  reloadKey: Character = "r", tick: Property<Int>
) -> VStack {
  VStack([
    Spinner(isActive: isLoading, message: loadingMessage, tick: tick),
    OptionalLabel(
      errorMessage.map { $0.map { "⚠ \($0) — press \(reloadKey) to retry" } },
      style: CellStyle(bold: true, foreground: .red)),
  ])
}
