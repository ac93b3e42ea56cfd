import ExampleSupport
import Foundation
import Tether

/// One course row (seed 001's `MarshalViewModel`): data goes in once, outputs are read-only.
public struct CourseCellViewModel: Identifiable, Equatable, Hashable, Sendable {
  /// Above this many lessons a course counts as having "many". One constant drives both the
  /// check and the text: the seed checked `> 35` but wrote "more than 30", so the two could
  /// disagree; here they cannot.
  public static let manyLessonsThreshold = 30

  /// The course's id.
  public let id: Int
  /// The course's title.
  public let titleText: String
  /// "多于30门课程" (more than 30 lessons) above the threshold, otherwise "课程数量:N".
  public let detailText: String
  /// ``CourseAccessory/detailButton`` above the threshold, otherwise ``CourseAccessory/none``.
  public let accessory: CourseAccessory

  /// Formats `course` for a row.
  ///
  /// - Parameter course: The course.
  public init(course: Course) {
    id = course.id
    titleText = course.name
    if course.numberOfLessons > Self.manyLessonsThreshold {
      detailText = "多于\(Self.manyLessonsThreshold)门课程"
      accessory = .detailButton
    } else {
      detailText = "课程数量:\(course.numberOfLessons)"
      accessory = .none
    }
  }
}
