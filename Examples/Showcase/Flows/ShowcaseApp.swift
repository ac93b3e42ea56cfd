import Tether

/// The apps the showcase offers: the five seed apps and TodoMVC.
public enum ShowcaseApp: String, CaseIterable, Sendable {
  case gallery = "Gallery"
  case courses = "Courses"
  case profile = "Profile"
  case articles = "Articles"
  case entry = "Entry"
  case todos = "Todos"

  /// The app's first path component: `gallery`, `courses`, ….
  public var pathComponent: String { rawValue.lowercased() }

  /// The app whose first path component is `component`.
  ///
  /// - Parameter component: A path component.
  public init?(pathComponent component: String) {
    guard let app = Self.allCases.first(where: { $0.pathComponent == component }) else {
      return nil
    }
    self = app
  }

  /// One line saying what the app shows.
  public var summary: String {
    switch self {
    case .gallery: "500px popular photos: closures become properties (seed 000)"
    case .courses: "Read-only cell outputs; the parent creates the child (seed 001)"
    case .profile: "Three ways to bind a profile header, side by side (seed 002)"
    case .articles: "One screen, two sources, a thumbnail that arrives later (seed 003)"
    case .entry: "Fetch, select, greet: navigation in a flow controller (seed 004)"
    case .todos: "TodoMVC: typed text, checkboxes, edit in place, filters in the address"
    }
  }
}
