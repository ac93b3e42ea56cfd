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

  /// The label of the button that asks to remove the course from the list.
  public let removeTitle = "Remove from list"
  /// The label of the button that offers everything that can be done with the course.
  public let moreTitle = "More…"
  /// An alert the detail asks its flow to show.
  public enum Alert: Equatable, Sendable {
    /// The user asked to remove the course: confirm first.
    case confirmRemoval(courseID: Int, courseName: String)
    /// The user asked what can be done with the course: move it to the top, or remove it.
    case actions(courseID: Int, courseName: String)
  }
  /// Alerts to show: the confirmation of a removal.
  @Event public var alert: Signal<Alert>

  /// The user asked to remove the course from the list: it is confirmed first.
  public func removeRequested() {
    _alert.send(.confirmRemoval(courseID: course.id, courseName: course.name))
  }

  /// The user asked what can be done with the course: a choice among its actions.
  public func moreRequested() {
    _alert.send(.actions(courseID: course.id, courseName: course.name))
  }

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
