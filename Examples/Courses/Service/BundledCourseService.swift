import ExampleSupport
import Foundation

/// The embedded course catalog.
public struct BundledCourseService: CourseService {
  /// The catalog, including lesson counts on both sides of the "many lessons" threshold.
  public static let catalog: [Course] = [
    Course(
      id: 1, name: "Instagram Firebase", numberOfLessons: 49, link: "https://example.org/instagram"),
    Course(id: 2, name: "Podcasts Course", numberOfLessons: 39),
    Course(id: 3, name: "Intermediate Training Core Data", numberOfLessons: 32),
    Course(id: 4, name: "Kindle Basic Training", numberOfLessons: 19),
    Course(id: 5, name: "Swift 并发编程入门", numberOfLessons: 30),
    Course(id: 6, name: "Swift 6 严格并发检查", numberOfLessons: 31),
    Course(id: 7, name: "Терминальные интерфейсы", numberOfLessons: 12),
    Course(id: 8, name: "Testing View Models", numberOfLessons: 0),
    Course(
      id: 9, name: "Linux Server-Side Swift", numberOfLessons: 57,
      imageURL: "https://img.example.org/courses/9.jpg"),
  ]

  /// Creates the service.
  public init() {}

  /// The catalog.
  public func courses() async throws(ServiceError) -> [Course] {
    Self.catalog
  }
}
