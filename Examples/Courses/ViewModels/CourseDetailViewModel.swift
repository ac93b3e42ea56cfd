import ExampleSupport
import Foundation
import Tether

/// The course detail screen, created by the list when a course is chosen (the seed's answer
/// to navigation: the parent view model makes the child).
@MainActor
public final class CourseDetailViewModel {
  /// The course shown.
  public let course: Course
  /// The title.
  public let titleText: String
  /// "N lessons" ("1 lesson", "No lessons yet").
  public let lessonsText: String
  /// The course's page, or "No link".
  public let linkText: String

  /// Formats `course` for the detail screen.
  ///
  /// - Parameter course: The course.
  public init(course: Course) {
    self.course = course
    titleText = course.name
    switch course.numberOfLessons {
    case 0: lessonsText = "No lessons yet"
    case 1: lessonsText = "1 lesson"
    case let count: lessonsText = "\(count) lessons"
    }
    linkText = course.link ?? "No link"
  }
}
