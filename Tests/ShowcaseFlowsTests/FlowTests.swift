import Articles
import Courses
import Entry
import Gallery
import Profile
import ShowcaseFlows
import Testing
import TetherTesting

@MainActor
private func home(of navigator: RecordingNavigator) -> HomeViewModel? {
  navigator.stack.first?.viewModel(as: HomeViewModel.self)
}

@MainActor
@Suite struct MainFlowControllerTests {
  @Test func startShowsTheHomeMenuAsRoot() async {
    await withLeakTracking { leaks in
      let navigator = RecordingNavigator()
      let flow = leaks.track(MainFlowController(services: .bundled(thumbnailDelay: .zero)))
      flow.startFlow(on: navigator)
      navigator.assertEvents([.setRoot("Tether showcase")])
      #expect(
        home(of: navigator)?.rows.value.map(\.title) == [
          "Gallery", "Courses", "Profile", "Articles", "Entry",
        ])
      // The navigator's stack owns the main flow: nothing else keeps it.
      #expect(navigator.stack.first?.owner === flow)
    }
  }

  @Test(arguments: [(0, "Popular"), (1, "Courses"), (2, "Profile"), (3, "Articles"), (4, "Entry")])
  func choosingAnAppPushesItsFirstScreenAndBackReleasesItsFlow(row: Int, title: String) async {
    let navigator = RecordingNavigator()
    MainFlowController(services: .bundled(thumbnailDelay: .zero)).startFlow(on: navigator)
    navigator.clearEvents()
    await withLeakTracking { leaks in
      home(of: navigator)?.userSelected(row: row)
      navigator.assertEvents([.push(title)])
      if let screen = navigator.topScreen {
        leaks.track(screen)
        leaks.track(screen.viewModel)
        if let owner = screen.owner { leaks.track(owner) }
      }
      navigator.pop()
    }
    #expect(navigator.stack.count == 1)
  }

  @Test func rowsOutsideTheMenuDoNothing() {
    let navigator = RecordingNavigator()
    MainFlowController(services: .bundled()).startFlow(on: navigator)
    navigator.clearEvents()
    home(of: navigator)?.userSelected(row: 5)
    home(of: navigator)?.userSelected(row: -1)
    navigator.assertEvents([])
  }
}

@MainActor
@Suite struct GalleryFlowTests {
  @Test func forSalePhotoPushesItsDetail() async throws {
    let navigator = RecordingNavigator()
    navigator.setRoot(GalleryFlow(services: .bundled()).start(on: navigator))
    navigator.clearEvents()
    let list = try #require(navigator.topScreen?.viewModel(as: PhotoListViewModel.self))
    await list.viewDidLoad()
    let index = try #require(BundledPhotoService.page(1).photos.firstIndex { $0.forSale })
    try await withLeakTracking { leaks in
      list.userPressed(at: index)
      navigator.assertEvents([.push(BundledPhotoService.page(1).photos[index].name)])
      #expect(navigator.alert == nil)
      let detail = try #require(navigator.topScreen?.viewModel(as: PhotoDetailViewModel.self))
      leaks.track(detail)
      #expect(detail.photo == BundledPhotoService.page(1).photos[index])
      navigator.pop()
    }
  }

  @Test func notForSalePhotoAlertsAndPushesNothing() async throws {
    let navigator = RecordingNavigator()
    navigator.setRoot(GalleryFlow(services: .bundled()).start(on: navigator))
    navigator.clearEvents()
    let list = try #require(navigator.topScreen?.viewModel(as: PhotoListViewModel.self))
    await list.viewDidLoad()
    let index = try #require(BundledPhotoService.page(1).photos.firstIndex { !$0.forSale })
    list.userPressed(at: index)
    navigator.assertEvents([
      .present(Alert(title: "Not for sale", message: "This item is not for sale"))
    ])
    #expect(navigator.stack.count == 1)
  }
}

@MainActor
@Suite struct AppFlowTests {
  @Test func choosingACoursePushesItsDetail() async throws {
    let navigator = RecordingNavigator()
    navigator.setRoot(CoursesFlow(services: .bundled()).start(on: navigator))
    navigator.clearEvents()
    let list = try #require(navigator.topScreen?.viewModel(as: CourseListViewModel.self))
    await list.viewDidLoad()
    list.userSelected(row: 1)
    navigator.assertEvents([.push("Podcasts Course")])
    #expect(
      navigator.topScreen?.viewModel(as: CourseDetailViewModel.self)?.lessonsText == "39 lessons")
  }

  @Test func choosingAnArticlePushesItsScreen() async throws {
    let navigator = RecordingNavigator()
    navigator.setRoot(ArticlesFlow(services: .bundled(thumbnailDelay: .zero)).start(on: navigator))
    navigator.clearEvents()
    let list = try #require(navigator.topScreen?.viewModel(as: ArticleListViewModel.self))
    await list.viewDidLoad()
    list.userSelected(row: 4)
    navigator.assertEvents([.push("Untitled")])
    #expect(navigator.topScreen?.viewModel is ArticleViewViewModelFromDictionary)
  }

  @Test func selectingAUserPushesTheGreetingWithThatName() async throws {
    let navigator = RecordingNavigator()
    navigator.setRoot(EntryFlow(services: .bundled()).start(on: navigator))
    navigator.clearEvents()
    let entry = try #require(navigator.topScreen?.viewModel(as: EntryViewModel.self))
    entry.selectUser()
    navigator.assertEvents([])
    await entry.fetchUser()
    entry.selectUser()
    navigator.assertEvents([.push("Greeting")])
    #expect(
      navigator.topScreen?.viewModel(as: GreetingViewModel.self)?.greeting == "Hello, Ada Lovelace!"
    )
  }

  @Test func profileNavigatesNowhere() async throws {
    let navigator = RecordingNavigator()
    navigator.setRoot(ProfileFlow(services: .bundled()).start(on: navigator))
    navigator.clearEvents()
    let screen = try #require(navigator.topScreen?.viewModel(as: ProfileScreenViewModel.self))
    await screen.load(login: "octocat")
    screen.userSelected(style: .streams)
    navigator.assertEvents([])
    #expect(screen.display.value?.nickname == "octocat")
  }

  @Test func droppingTheStackReleasesEveryFlowAndScreen() async {
    await withLeakTracking { leaks in
      let navigator = leaks.track(RecordingNavigator())
      let main = leaks.track(MainFlowController(services: .bundled(thumbnailDelay: .zero)))
      main.startFlow(on: navigator)
      for row in 0..<5 {
        home(of: navigator)?.userSelected(row: row)
        if let screen = navigator.topScreen, let owner = screen.owner {
          leaks.track(owner)
          leaks.track(screen.viewModel)
        }
      }
      #expect(navigator.stack.count == 6)
    }
  }
}

@MainActor
@Suite struct RecordingNavigatorTests {
  @Test func keepsARealStackAndNeverPopsTheRoot() {
    let navigator = RecordingNavigator()
    let root = Screen(viewModel: HomeViewModel(), title: "root")
    navigator.setRoot(root)
    navigator.push(Screen(viewModel: HomeViewModel(), title: "child"))
    navigator.pop()
    navigator.pop()
    #expect(navigator.stack.count == 1)
    #expect(navigator.topScreen === root)
    navigator.present(Alert(title: "t", message: "m"))
    navigator.dismissAlert()
    #expect(navigator.alert == nil)
    navigator.assertEvents([
      .setRoot("root"), .push("child"), .pop, .pop, .present(Alert(title: "t", message: "m")),
      .dismissAlert,
    ])
  }

  @Test func assertEventsFailsOnADifferentHistory() {
    let navigator = RecordingNavigator()
    navigator.push(Screen(viewModel: HomeViewModel(), title: "a"))
    withKnownIssue {
      navigator.assertEvents([.push("b")])
    } matching: { issue in
      String(describing: issue).contains("navigation was [push(a)], not [push(b)]")
    }
  }
}
