import Articles
import Courses
import Entry
import ExampleSupport
import Gallery
import Profile
import ShowcaseFlows
import ShowcaseTestSupport
import Testing
import TetherFlow
import TetherTesting

/// Every route of every app, driven through view-model inputs on a `ScreenStack` (via the
/// recording navigator), with no view layer.
@MainActor
private func showcase(
  _ services: ShowcaseServices = .bundled(thumbnailDelay: .zero)
) -> (RecordingNavigator<ShowcaseDestination>, MainFlowController) {
  let navigator = RecordingNavigator<ShowcaseDestination>()
  let main = MainFlowController(services: services)
  main.startFlow(on: navigator)
  navigator.clearEvents()
  return (navigator, main)
}

/// The showcase on the Courses' second course (its list loaded), with no event recorded yet.
@MainActor
private func openSecondCourse() async throws -> (
  RecordingNavigator<ShowcaseDestination>, CourseListViewModel, CourseDetailViewModel
) {
  let (navigator, _) = showcase()
  navigator.screens.first?.home?.userSelected(row: 1)
  let list = try #require(navigator.topScreen?.courseList)
  await list.viewDidLoad()
  list.userSelected(row: 1)
  let detail = try #require(navigator.topScreen?.courseDetail)
  navigator.clearEvents()
  return (navigator, list, detail)
}

@MainActor
private func forSalePhoto() throws -> (index: Int, photo: Photo) {
  let photos = BundledPhotoService.page(1).photos
  let index = try #require(photos.firstIndex { $0.forSale })
  return (index, photos[index])
}

@MainActor
private func notForSalePhoto() throws -> (index: Int, photo: Photo) {
  let photos = BundledPhotoService.page(1).photos
  let index = try #require(photos.firstIndex { !$0.forSale })
  return (index, photos[index])
}

@MainActor
@Suite struct MainFlowControllerTests {
  @Test func startShowsTheHomeMenuAsRoot() async {
    await withLeakTracking { leaks in
      let navigator = RecordingNavigator<ShowcaseDestination>()
      let flow = leaks.track(MainFlowController(services: .bundled(thumbnailDelay: .zero)))
      flow.startFlow(on: navigator)
      navigator.assertEvents([.setRoot("Tether showcase")])
      #expect(navigator.path == "/")
      #expect(
        navigator.screens.first?.home?.rows.value.map(\.title) == [
          "Gallery", "Courses", "Profile", "Articles", "Entry", "Todos",
        ])
      // The navigator's stack owns the main flow: nothing else keeps it.
      #expect(navigator.screens.first?.owner === flow)
    }
  }

  @Test(arguments: [
    (0, "Popular", "/gallery"), (1, "Courses", "/courses"), (2, "Profile", "/profile"),
    (3, "Articles", "/articles"), (4, "Entry", "/entry"), (5, "Todos", "/todos"),
  ])
  func choosingAnAppPushesItsFirstScreenAndBackReleasesItsFlow(
    row: Int, title: String, path: String
  ) async {
    let (navigator, _) = showcase()
    await withLeakTracking { leaks in
      navigator.screens.first?.home?.userSelected(row: row)
      navigator.assertEvents([.push(title)])
      #expect(navigator.path.description == path)
      if let screen = navigator.topScreen {
        leaks.track(screen)
        leaks.track(screen.viewModel)
        if let owner = screen.owner { leaks.track(owner) }
      }
      navigator.pop()
    }
    #expect(navigator.screens.count == 1)
    #expect(navigator.path == "/")
  }

  @Test func rowsOutsideTheMenuDoNothing() {
    let (navigator, _) = showcase()
    navigator.screens.first?.home?.userSelected(row: 6)
    navigator.screens.first?.home?.userSelected(row: -1)
    navigator.assertEvents([])
  }

  @Test func droppingTheStackReleasesEveryFlowAndScreen() async {
    await withLeakTracking { leaks in
      let navigator = leaks.track(RecordingNavigator<ShowcaseDestination>())
      let main = leaks.track(MainFlowController(services: .bundled(thumbnailDelay: .zero)))
      main.startFlow(on: navigator)
      for row in 0..<5 {
        navigator.screens.first?.home?.userSelected(row: row)
        if let screen = navigator.topScreen, let owner = screen.owner {
          leaks.track(owner)
          leaks.track(screen.viewModel)
        }
      }
      #expect(navigator.screens.count == 6)
    }
  }
}

@MainActor
@Suite struct GalleryFlowTests {
  @Test func forSalePhotoPushesItsDetailAndBackReturns() async throws {
    let (navigator, _) = showcase()
    navigator.screens.first?.home?.userSelected(row: 0)
    let list = try #require(navigator.topScreen?.photoList)
    await list.viewDidLoad()
    let (index, photo) = try forSalePhoto()
    navigator.clearEvents()
    try await withLeakTracking { leaks in
      list.userSelected(row: index)
      navigator.assertEvents([.push(photo.name)])
      #expect(navigator.alert == nil)
      #expect(navigator.path == "/gallery/photo/\(photo.id)")
      let detail = try #require(navigator.topScreen?.photoDetail)
      leaks.track(detail)
      #expect(detail.photo == photo)
      navigator.pop()
    }
    #expect(navigator.path == "/gallery")
  }

  @Test func notForSalePhotoAlertsWithATypedAlertAndPushesNothing() async throws {
    let (navigator, _) = showcase()
    navigator.screens.first?.home?.userSelected(row: 0)
    let list = try #require(navigator.topScreen?.photoList)
    await list.viewDidLoad()
    navigator.clearEvents()
    list.userSelected(row: try notForSalePhoto().index)
    let alert = ScreenAlert(title: "Not for sale", message: "This item is not for sale")
    navigator.assertEvents([.present(alert)])
    #expect(navigator.alert?.buttons == [.ok])
    #expect(navigator.path == "/gallery")
    navigator.dismissAlert()
    #expect(navigator.alert == nil)
  }
}

@MainActor
@Suite struct AppFlowTests {
  @Test func choosingACoursePushesItsDetail() async throws {
    let (navigator, _) = showcase()
    navigator.screens.first?.home?.userSelected(row: 1)
    let list = try #require(navigator.topScreen?.courseList)
    await list.viewDidLoad()
    navigator.clearEvents()
    list.userSelected(row: 1)
    navigator.assertEvents([.push("Podcasts Course")])
    #expect(navigator.topScreen?.courseDetail?.lessonsText == "39 lessons")
    #expect(navigator.path == "/courses/course/\(BundledCourseService.catalog[1].id)")
  }

  @Test func removingACourseIsConfirmedAndItsButtonsCarryTheirMeaning() async throws {
    let (navigator, list, detail) = try await openSecondCourse()
    let course = BundledCourseService.catalog[1]

    detail.removeRequested()
    let alert = try #require(navigator.alert)
    #expect(alert.title == "Remove “\(course.name)”?")
    #expect(
      alert.buttons.first?.action(as: CoursesFlow.CoursesAction.self) == .remove(id: course.id))
    #expect(alert.buttons.first?.role == .destructive)
    #expect(alert.defaultButton?.title == "Cancel", "Enter does not remove")
    #expect(navigator.respond(to: try #require(alert.escapeButton)), "Cancel")
    #expect(navigator.path == "/courses/course/\(course.id)", "Cancel removes nothing")
    #expect(list.rows.count == BundledCourseService.catalog.count)

    detail.removeRequested()
    #expect(navigator.respond(to: try #require(navigator.alert?.buttons.first)))
    #expect(navigator.path == "/courses")
    #expect(!list.rows.contains { $0.id == course.id })
    #expect(list.rows.count == BundledCourseService.catalog.count - 1)
  }

  @Test func aCoursesMoreIsAConfirmationDialogWhoseActionsReachTheList() async throws {
    let (navigator, list, detail) = try await openSecondCourse()
    let course = BundledCourseService.catalog[1]

    detail.moreRequested()
    let dialog = try #require(navigator.alert)
    navigator.assertEvents([.present(dialog)])
    #expect(dialog.style == .confirmationDialog)
    #expect(dialog.buttons.map(\.title) == ["Move to the top", "Remove from list", "Cancel"])
    #expect(dialog.defaultButton?.title == "Move to the top", "Enter never removes")
    #expect(
      dialog.buttons.map { $0.action(as: CoursesFlow.CoursesAction.self) } == [
        .moveToTop(id: course.id), .remove(id: course.id), nil,
      ])
    #expect(navigator.respond(to: dialog.buttons[0]))
    #expect(navigator.path == "/courses")
    #expect(list.rows.first?.id == course.id, "moved to the top")
    #expect(list.rows.count == BundledCourseService.catalog.count)
  }

  @Test func aRestoredConfirmationWithoutItsClosureStillRemovesTheCourse() async throws {
    // What a web session does on the server that resumes it: the stack rebuilt from the path,
    // then the alert from the token, which carries data and no closure.
    let course = BundledCourseService.catalog[1]
    let stack = ScreenStack<ShowcaseDestination>()
    let main = MainFlowController(services: .bundled(thumbnailDelay: .zero))
    try await main.open(ScreenPath(parsing: "/courses/course/\(course.id)"), on: stack)
    let restored = CoursesFlow.screenAlert(
      for: .confirmRemoval(courseID: course.id, courseName: course.name))
    stack.present(restored)
    #expect(stack.respond(to: try #require(restored.buttons.first)))
    #expect(stack.path.description == "/courses")
    let list = try #require(stack.topScreen?.courseList)
    #expect(!list.rows.contains { $0.id == course.id })
  }

  @Test func choosingAnArticlePushesItsScreen() async throws {
    let (navigator, _) = showcase()
    navigator.screens.first?.home?.userSelected(row: 3)
    let list = try #require(navigator.topScreen?.articleList)
    await list.viewDidLoad()
    navigator.clearEvents()
    list.userSelected(row: 4)
    navigator.assertEvents([.push("Untitled")])
    #expect(navigator.topScreen?.article is ArticleViewViewModelFromDictionary)
    #expect(navigator.path == "/articles/article/4")
  }

  @Test func selectingAUserPushesTheGreetingWithThatName() async throws {
    let (navigator, _) = showcase()
    navigator.screens.first?.home?.userSelected(row: 4)
    let entry = try #require(navigator.topScreen?.entry)
    navigator.clearEvents()
    entry.selectRequested()
    navigator.assertEvents([])
    await entry.fetchRequested()
    entry.selectRequested()
    navigator.assertEvents([.push("Greeting")])
    #expect(navigator.topScreen?.greeting?.greeting.value == "Hello, Ada Lovelace!")
    #expect(navigator.path == "/entry/greeting/Ada%20Lovelace")
  }

  @Test func theSalutationPickerIsASheetWhoseChoiceTheGreetingTakes() async throws {
    let (navigator, _) = showcase()
    navigator.screens.first?.home?.userSelected(row: 4)
    let entry = try #require(navigator.topScreen?.entry)
    await entry.fetchRequested()
    entry.selectRequested()
    let greeting = try #require(navigator.topScreen?.greeting)
    navigator.clearEvents()
    greeting.changeSalutationRequested()
    navigator.assertEvents([.presentSheet("Salutation")])
    #expect(navigator.path == "/entry/greeting/Ada%20Lovelace/salutation")
    let picker = try #require(navigator.sheet?.salutations)
    #expect(picker.rows.value.first { $0.isCurrent }?.text == "Hello")
    picker.choose(at: 3)
    navigator.assertEvents([.dismissSheet])
    #expect(greeting.greeting.value == "Howdy, Ada Lovelace!")
    #expect(navigator.path == "/entry/greeting/Ada%20Lovelace")
    // Closed without a choice, the picker changes nothing.
    greeting.changeSalutationRequested()
    navigator.closeSheet()
    #expect(greeting.greeting.value == "Howdy, Ada Lovelace!")
    navigator.assertEvents([.presentSheet("Salutation")])
  }

  @Test func profileNavigatesNowhere() async throws {
    let (navigator, _) = showcase()
    navigator.screens.first?.home?.userSelected(row: 2)
    let screen = try #require(navigator.topScreen?.profile)
    navigator.clearEvents()
    await screen.viewDidLoad()
    await screen.nextProfileRequested()
    screen.userSelected(style: .streams)
    navigator.assertEvents([])
    #expect(screen.display.value?.nickname == "tether-dev")
  }
}

/// A deep link per screen: `open(_:on:)` rebuilds the whole stack from a path.
@MainActor
@Suite struct DeepLinkTests {
  private nonisolated static let photoIDs: (forSale: Int, notForSale: Int) = {
    let photos = BundledPhotoService.catalog
    return (
      photos.first { $0.forSale }?.id ?? 0,
      photos.first { !$0.forSale }?.id ?? 0
    )
  }()

  nonisolated static let everyScreen: [(path: String, titles: [String])] = [
    ("/", ["Tether showcase"]),
    ("/gallery", ["Tether showcase", "Popular"]),
    (
      "/gallery/photo/\(photoIDs.forSale)",
      [
        "Tether showcase", "Popular",
        BundledPhotoService.photo(id: photoIDs.forSale)?.name ?? "?",
      ]
    ),
    ("/courses", ["Tether showcase", "Courses"]),
    ("/courses/course/2", ["Tether showcase", "Courses", "Podcasts Course"]),
    ("/profile", ["Tether showcase", "Profile"]),
    // The binding style is a tab: in the path, not a screen.
    ("/profile/streams", ["Tether showcase", "Profile"]),
    ("/articles", ["Tether showcase", "Articles"]),
    ("/articles/article/4", ["Tether showcase", "Articles", "Untitled"]),
    ("/entry", ["Tether showcase", "Entry"]),
    ("/entry/greeting/%E6%9D%8E%E5%A8%9C", ["Tether showcase", "Entry", "Greeting"]),
    // The salutation picker is a sheet over the greeting: in the path, not a screen.
    ("/entry/greeting/%E6%9D%8E%E5%A8%9C/salutation", ["Tether showcase", "Entry", "Greeting"]),
  ]

  @Test(arguments: everyScreen)
  func aPathRebuildsItsScreensAndTheStackSaysTheSamePath(path: String, titles: [String])
    async throws
  {
    try await withLeakTracking { leaks in
      let stack = leaks.track(ScreenStack<ShowcaseDestination>())
      let main = MainFlowController(services: .bundled(thumbnailDelay: .zero))
      let error = await main.openPresentingFailure(ScreenPath(parsing: path), on: stack)
      #expect(error == nil)
      #expect(stack.alert == nil)
      #expect(stack.screens.map(\.title) == titles)
      #expect(stack.path.description == path)
      for screen in stack.screens {
        leaks.track(screen)
        leaks.track(screen.viewModel)
      }
      let top = try #require(stack.topScreen)
      if let detail = top.photoDetail { #expect(detail.photo.id == Self.photoIDs.forSale) }
      if let greeting = top.greeting { #expect(greeting.greeting.value == "Hello, 李娜!") }
      if let profile = top.profile {
        #expect(profile.style == (path.hasSuffix("/streams") ? .streams : .viewModel))
      }
    }
  }

  @Test func backFromADeepLinkWalksUpThePath() async {
    let stack = ScreenStack<ShowcaseDestination>()
    let main = MainFlowController(services: .bundled(thumbnailDelay: .zero))
    await main.openPresentingFailure(ScreenPath(parsing: "/courses/course/2"), on: stack)
    stack.pop()
    #expect(stack.path.description == "/courses")
    stack.pop()
    #expect(stack.path.description == "/")
    stack.pop()
    #expect(stack.screens.count == 1)
  }

  @Test(arguments: [
    ("/nowhere", "/", "There is no page called “nowhere” here."),
    ("/gallery/photo/12", "/gallery", "There is no photo 12."),
    ("/gallery/photo/abc", "/gallery", "There is no page called “photo/abc” here."),
    ("/gallery/album/1", "/gallery", "There is no page called “album/1” here."),
    ("/courses/course/999", "/courses", "There is no course 999."),
    ("/courses/course/2/extra", "/courses", "There is no page called “course/2/extra” here."),
    ("/profile/octocat", "/profile", "There is no page called “octocat” here."),
    ("/articles/article/99", "/articles", "There is no article 99."),
    ("/entry/greeting", "/entry", "There is no page called “greeting” here."),
  ])
  func anUnknownOrStalePathLandsOnTheNearestScreenWithAClearMessage(
    path: String, landing: String, reason: String
  ) async {
    let stack = ScreenStack<ShowcaseDestination>()
    let main = MainFlowController(services: .bundled(thumbnailDelay: .zero))
    let error = await main.openPresentingFailure(ScreenPath(parsing: path), on: stack)
    #expect(error?.description == reason)
    #expect(stack.path.description == landing)
    #expect(
      stack.alert == ScreenAlert(title: "Page not found", message: "\(path): \(reason)"))
  }

  @Test func aDeepLinkToAPhotoNotForSaleShowsTheListAndItsAlert() async {
    let stack = ScreenStack<ShowcaseDestination>()
    let main = MainFlowController(services: .bundled(thumbnailDelay: .zero))
    let error = await main.openPresentingFailure(
      ScreenPath(["gallery", "photo", "\(Self.photoIDs.notForSale)"]), on: stack)
    #expect(error == nil)
    #expect(stack.path.description == "/gallery")
    #expect(
      stack.alert == ScreenAlert(title: "Not for sale", message: "This item is not for sale"))
  }

  @Test func aPhotoThatCannotLoadSaysWhy() async {
    var services = ShowcaseServices.bundled(thumbnailDelay: .zero)
    services.photos = FailingPhotos()
    let stack = ScreenStack<ShowcaseDestination>()
    let error = await MainFlowController(services: services)
      .openPresentingFailure(ScreenPath(parsing: "/gallery/photo/230200400"), on: stack)
    #expect(
      error?.description
        == "Photo 230200400 could not be opened: Server is overloaded")
    #expect(stack.path.description == "/gallery")
  }

  @Test func aFailingServiceLandsOnTheListWithTheServicesMessage() async {
    struct Offline: CourseService {
      func courses() async throws(ServiceError) -> [Course] { throw .noConnection }
    }
    var services = ShowcaseServices.bundled(thumbnailDelay: .zero)
    services.courses = Offline()
    let stack = ScreenStack<ShowcaseDestination>()
    let error = await MainFlowController(services: services)
      .openPresentingFailure(ScreenPath(parsing: "/courses/course/2"), on: stack)
    #expect(error?.description == "Course 2 could not be opened: No Network")
    #expect(stack.path.description == "/courses")
    #expect(stack.topScreen?.courseList?.errorMessage.value == "No Network")
  }

  @Test func openingAgainReplacesTheWholeStack() async {
    let stack = ScreenStack<ShowcaseDestination>()
    let main = MainFlowController(services: .bundled(thumbnailDelay: .zero))
    await main.openPresentingFailure(ScreenPath(parsing: "/nowhere"), on: stack)
    await main.openPresentingFailure(ScreenPath(parsing: "/entry"), on: stack)
    #expect(stack.screens.map(\.title) == ["Tether showcase", "Entry"])
    #expect(stack.alert == nil)
  }
}

private struct FailingPhotos: PhotoService {
  func popularPhotos(page: Int) async throws(ServiceError) -> PhotoPage {
    throw .serverError(status: 503)
  }

  func photo(id: Int) async throws(ServiceError) -> Photo {
    throw .serverError(status: 503)
  }
}
