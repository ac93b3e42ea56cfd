import ExampleSupport
import Foundation
import Tether

/// The accessory a course row shows (seed 001's `cellType`).
public enum CourseAccessory: Equatable, Sendable {
  /// No accessory.
  case none
  /// A detail button: the course has many lessons.
  case detailButton
}

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

/// The course list screen.
@MainActor
public final class CourseListViewModel {
  /// The screen's title.
  public let title = "Courses"

  private let _isLoading = MutableProperty(false)
  /// Whether the courses are loading.
  public var isLoading: Property<Bool> { _isLoading }
  private let _cells = MutableProperty<[CourseCellViewModel]>([])
  /// One row per course.
  public var cells: Property<[CourseCellViewModel]> { _cells }
  private let _errorMessage = MutableProperty<String?>(nil)
  /// Why the last load failed, or `nil`.
  public var errorMessage: Property<String?> { _errorMessage }
  private let routePipe = Signal<CourseDetailViewModel>.pipe()
  /// The detail screen to show for a chosen course, created by this view model.
  public var route: Signal<CourseDetailViewModel> { routePipe.output }

  private let service: any CourseService
  private var courses: [Course] = []

  /// Creates the list.
  ///
  /// - Parameter service: Where courses come from.
  public init(service: any CourseService) {
    self.service = service
  }

  /// The screen appeared, or the user asked to retry: load the courses.
  public func viewDidLoad() async {
    guard !_isLoading.value else { return }
    if _errorMessage.value != nil { _errorMessage.value = nil }
    _isLoading.value = true
    do {
      courses = try await service.courses()
      _cells.value = courses.map(CourseCellViewModel.init)
    } catch {
      _errorMessage.value = error.userMessage
    }
    _isLoading.value = false
  }

  /// The user chose row `index`: create its detail view model and route to it.
  ///
  /// - Parameter index: The chosen row; rows outside the list are ignored.
  public func userSelected(row index: Int) {
    guard courses.indices.contains(index) else { return }
    routePipe.input.send(CourseDetailViewModel(course: courses[index]))
  }
}
