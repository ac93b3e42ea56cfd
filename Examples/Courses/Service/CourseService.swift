import ExampleSupport
import Foundation

/// Where courses come from: ``BundledCourseService`` or ``HTTPCourseService``.
public protocol CourseService: Sendable {
  /// Every course.
  ///
  /// - Returns: The courses, in the service's order.
  /// - Throws: A ``ServiceError``.
  func courses() async throws(ServiceError) -> [Course]
}
