import Tether

/// A flow controller: it builds view models, injects their dependencies, listens
/// to their outputs and tells a ``Navigator`` what to show. View models never navigate and
/// views never decide where to go.
///
/// ```swift
/// @MainActor final class CoursesFlow: FlowController {
///   let services: AppServices
///   private let lifetime = Lifetime()
///
///   init(services: AppServices) { self.services = services }
///
///   func start(on navigator: any Navigator<AppDestination>) -> Screen<AppDestination> {
///     let list = CourseListViewModel(service: services.courses)
///     list.route.observe { [weak navigator] detail in
///       navigator?.push(Screen(.courseDetail(detail), title: detail.titleText,
///                              path: ["course", "\(detail.course.id)"]))
///     }.store(in: lifetime)
///     return Screen(.courseList(list), title: list.title, path: ["courses"], owner: self)
///   }
/// }
/// ```
///
/// A flow can also rebuild its later screens from a path (a deep link, a browser reload):
/// ``restore(_:on:)`` pushes the screens the path names, as far as they are valid, and throws a
/// ``NavigationError`` saying where it stopped.
///
/// > Note: Hold the navigator weakly in observers: the navigator owns the screens, which own
/// > the flow.
@MainActor
public protocol FlowController<Destination>: AnyObject {
  /// The app's destination type.
  associatedtype Destination

  /// Builds the flow's first screen and wires its outputs to `navigator`.
  ///
  /// - Parameter navigator: Where the flow's later screens and alerts go.
  /// - Returns: The first screen; its ``Screen/owner`` should be the flow, so the flow lives as
  ///   long as the screen is shown.
  func start(on navigator: any Navigator<Destination>) -> Screen<Destination>

  /// Pushes the screens `path` names on top of the flow's first screen, which is already
  /// shown.
  ///
  /// - Parameters:
  ///   - path: The components after the first screen's own.
  ///   - navigator: Where to push them.
  /// - Throws: ``NavigationError`` when a component names no screen or a screen that cannot be
  ///   shown; the screens pushed before it stay.
  func restore(_ path: ArraySlice<String>, on navigator: any Navigator<Destination>)
    async throws(NavigationError)
}

extension FlowController {
  /// A one-screen flow: only the empty path is valid.
  public func restore(_ path: ArraySlice<String>, on navigator: any Navigator<Destination>)
    async throws(NavigationError)
  {
    if let first = path.first { throw .unknownComponent(first) }
  }
}

/// Why a path could not be followed to its end.
public enum NavigationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No screen has this path component here.
  case unknownComponent(String)
  /// The component names a screen that cannot be shown, for the reason given.
  case unavailable(String, reason: String)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .unknownComponent(let component): "There is no page called “\(component)” here."
    case .unavailable(_, let reason): reason
    }
  }
}
