import ExampleSupport
import Foundation
import Testing
import TetherTesting

@testable import Courses

struct StubCourseService: CourseService {
  let result: @Sendable () throws(ServiceError) -> [Course]
  func courses() async throws(ServiceError) -> [Course] { try result() }
}

@Suite struct CourseCellViewModelTests {
  @Test(arguments: [
    (0, "课程数量:0", CourseAccessory.none), (30, "课程数量:30", .none),
    (31, "多于30门课程", .detailButton), (49, "多于30门课程", .detailButton),
  ])
  func detailTextAndAccessoryFollowOneThreshold(
    lessons: Int, text: String, accessory: CourseAccessory
  ) {
    let cell = CourseCellViewModel(course: Course(id: 1, name: "C", numberOfLessons: lessons))
    #expect(cell.detailText == text)
    #expect(cell.accessory == accessory)
    #expect(cell.accessory.textMark == (accessory == .detailButton ? " ⓘ" : ""))
    #expect(cell.titleText == "C")
  }

  @Test func thresholdConstantIsTheOneInTheText() {
    let threshold = CourseCellViewModel.manyLessonsThreshold
    let cell = CourseCellViewModel(course: Course(id: 1, name: "C", numberOfLessons: threshold + 1))
    #expect(cell.detailText.contains("\(threshold)"))
  }

  @Test func decodesTheCoursesAPIShape() throws {
    let json =
      #"[{"id":1,"name":"Instagram Firebase","link":"https://x","imageUrl":"https://y","number_of_lessons":49},{"name":"No id","number_of_lessons":3}]"#
    let courses = try JSONDecoder().decode([Course].self, from: Data(json.utf8))
    #expect(
      courses[0]
        == Course(
          id: 1, name: "Instagram Firebase", numberOfLessons: 49, link: "https://x",
          imageURL: "https://y"))
    #expect(courses[1].id == Course.stableID(for: "No id"))
    let negative = #"[{"name":"x","number_of_lessons":-1}]"#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Course].self, from: Data(negative.utf8))
    }
  }
}

@MainActor
@Suite struct CourseListViewModelTests {
  @Test func loadShowsARowPerCourse() async {
    let viewModel = CourseListViewModel(service: BundledCourseService())
    let probe = ViewModelProbe(viewModel)
    await viewModel.viewDidLoad()
    probe.expect(\.isLoading, [true, false])
    probe.expect(\.$rows) { $0.last?.count == BundledCourseService.catalog.count }
    probe.finish()
  }

  @Test func selectingACourseCreatesItsDetailViewModel() async {
    await withLeakTracking { leaks in
      let viewModel = leaks.track(CourseListViewModel(service: BundledCourseService()))
      await viewModel.viewDidLoad()
      let routes = viewModel.route.record()
      viewModel.userSelected(row: 0)
      viewModel.userSelected(row: 99)
      #expect(routes.values.count == 1)
      guard case .detail(let detail)? = routes.values.first else {
        Issue.record("no detail route")
        return
      }
      #expect(detail.course == BundledCourseService.catalog[0])
      #expect(detail.lessonsText == "49 lessons")
      #expect(detail.linkText == "https://example.org/instagram")
      routes.stop()
    }
  }

  @Test func detailTextsCoverSingularAndEmpty() {
    #expect(
      CourseDetailViewModel(course: Course(id: 1, name: "a", numberOfLessons: 1)).lessonsText
        == "1 lesson")
    let empty = CourseDetailViewModel(course: Course(id: 1, name: "a", numberOfLessons: 0))
    #expect(empty.lessonsText == "No lessons yet")
    #expect(empty.linkText == "No link")
  }

  @Test func failureShowsItsMessage() async {
    let viewModel = CourseListViewModel(
      service: StubCourseService { () throws(ServiceError) in throw .serverError(status: 502) })
    await viewModel.viewDidLoad()
    #expect(viewModel.errorMessage.value == "Server is overloaded")
    #expect(viewModel.rows.isEmpty)
  }
}

@MainActor
@Suite struct CourseLinkTests {
  @Test func aLinkLoadsTheCatalogOnceAndRoutesToTheCourse() async throws {
    let viewModel = CourseListViewModel(service: BundledCourseService())
    let routes = viewModel.route.record()
    let course = try #require(BundledCourseService.catalog.last)
    try await viewModel.openRequested(id: course.id)
    try await viewModel.openRequested(id: course.id)
    #expect(
      routes.values.map { route in
        switch route {
        case .detail(let detail): detail.course
        }
      } == [course, course])
    await #expect(throws: OpenError.notFound) { try await viewModel.openRequested(id: -1) }
    #expect(routes.values.count == 2)
  }

  @Test func aLinkDuringTheFirstLoadWaitsForItInsteadOfReportingNoSuchCourse() async throws {
    struct Held: CourseService {
      let gate: Gate
      func courses() async throws(ServiceError) -> [Course] {
        await gate.wait()
        return BundledCourseService.catalog
      }
    }
    let gate = Gate()
    let viewModel = CourseListViewModel(service: Held(gate: gate))
    let routes = viewModel.route.record()
    let course = try #require(BundledCourseService.catalog.last)
    let appeared = Task { await viewModel.viewDidLoad() }
    while !viewModel.isLoading.value { await Task.yield() }
    let opened = Task { try await viewModel.openRequested(id: course.id) }
    for _ in 0..<10 { await Task.yield() }
    #expect(routes.values.isEmpty, "the link waits for the catalog")
    await gate.open()
    await appeared.value
    try await opened.value
    #expect(
      routes.values.map { route in
        switch route {
        case .detail(let detail): detail.course
        }
      } == [course])
  }

  @Test func reloadAfterAFailureLoadsTheCourses() async {
    struct Flaky: CourseService {
      let attempts = Attempts()
      func courses() async throws(ServiceError) -> [Course] {
        if await attempts.next() == 1 { throw .noConnection }
        return BundledCourseService.catalog
      }
    }
    let viewModel = CourseListViewModel(service: Flaky())
    await viewModel.viewDidLoad()
    #expect(viewModel.errorMessage.value == "No Network")
    await viewModel.reloadRequested()
    #expect(viewModel.errorMessage.value == nil)
    #expect(viewModel.rows.count == BundledCourseService.catalog.count)
  }
}

/// Counts calls.
actor Attempts {
  private var count = 0
  func next() -> Int {
    count += 1
    return count
  }
}

@MainActor
@Suite struct OpenErrorTests {
  @Test func everyAppsLinkErrorReadsTheSameWay() async {
    #expect(OpenError.notFound.reason(for: "course 999") == "There is no course 999.")
    #expect(
      OpenError.unavailable(.noConnection).reason(for: "photo 12")
        == "Photo 12 could not be opened: No Network")
    struct Offline: CourseService {
      func courses() async throws(ServiceError) -> [Course] { throw .noConnection }
    }
    let viewModel = CourseListViewModel(service: Offline())
    await #expect(throws: OpenError.unavailable(.noConnection)) {
      try await viewModel.openRequested(id: 1)
    }
  }
}
