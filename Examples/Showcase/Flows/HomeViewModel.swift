import Tether

/// The home menu: one row per app.
@MainActor
public final class HomeViewModel {
  /// One row of the menu.
  public struct Row: Identifiable, Equatable, Sendable {
    /// The app's name, also its id.
    public var id: String { title }
    /// The app's name.
    public let title: String
    /// What it shows.
    public let summary: String
  }

  /// The screen's title.
  public let title = "Tether showcase"
  /// The rows, in menu order.
  public let rows: Property<[Row]>
  /// The app the user chose, for the main flow.
  @Event public var route: Signal<ShowcaseApp>

  /// Creates the menu.
  public init() {
    rows = Property(
      value: ShowcaseApp.allCases.map { Row(title: $0.rawValue, summary: $0.summary) })
  }

  /// The user chose row `index`; rows outside the menu are ignored.
  ///
  /// - Parameter index: The chosen row.
  public func userSelected(row index: Int) {
    guard ShowcaseApp.allCases.indices.contains(index) else { return }
    _route.send(ShowcaseApp.allCases[index])
  }
}
