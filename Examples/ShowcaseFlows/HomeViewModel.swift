import Tether

/// The five seed apps the showcase offers.
public enum ShowcaseApp: String, CaseIterable, Sendable {
  case gallery = "Gallery"
  case courses = "Courses"
  case profile = "Profile"
  case articles = "Articles"
  case entry = "Entry"

  /// One line saying what the app shows.
  public var summary: String {
    switch self {
    case .gallery: "500px popular photos: closures become properties (seed 000)"
    case .courses: "Read-only cell outputs; the parent creates the child (seed 001)"
    case .profile: "Three ways to bind a profile header, side by side (seed 002)"
    case .articles: "One screen, two sources, a thumbnail that arrives later (seed 003)"
    case .entry: "Fetch, select, greet: navigation in a flow controller (seed 004)"
    }
  }
}

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
  private let selectionPipe = Signal<ShowcaseApp>.pipe()
  /// The app the user chose, for the main flow.
  public var selection: Signal<ShowcaseApp> { selectionPipe.output }

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
    selectionPipe.input.send(ShowcaseApp.allCases[index])
  }
}
