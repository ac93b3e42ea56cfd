import Tether

/// A flow controller (seed 004): it builds view models, injects their dependencies, listens
/// to their outputs and tells a ``Navigator`` what to show. View models never navigate and
/// views never decide where to go.
///
/// ```swift
/// @MainActor final class CoursesFlow: FlowController {
///   func start(on navigator: any Navigator) -> Screen {
///     let list = CourseListViewModel(service: services.courses)
///     list.route.observe { [weak navigator] detail in
///       navigator?.push(Screen(viewModel: detail, title: detail.titleText))
///     }.store(in: lifetime)
///     return Screen(viewModel: list, title: list.title, owner: self)
///   }
/// }
/// ```
///
/// > Note: Hold the navigator weakly in observers: the navigator owns the screens, which own
/// > the flow.
@MainActor
public protocol FlowController: AnyObject {
  /// Builds the flow's first screen and wires its outputs to `navigator`.
  ///
  /// - Parameter navigator: Where the flow's later screens and alerts go.
  /// - Returns: The first screen; its ``Screen/owner`` should be the flow, so the flow lives as
  ///   long as the screen is shown.
  func start(on navigator: any Navigator) -> Screen
}
