import Articles
import Courses
import Entry
import ExampleSupport
import Foundation
import Gallery
import Profile
import ShowcaseFlows
import ShowcaseTerminal
import ShowcaseTestSupport
import SnapshotTesting
import Testing
import TetherFlow
import TetherTerminal
import TetherTesting

/// A photo service that never answers, to show the loading state.
struct PendingPhotoService: PhotoService {
  func popularPhotos(page: Int) async throws(ServiceError) -> PhotoPage {
    try? await Task.sleep(for: .seconds(3600))
    throw .timedOut
  }

  func photo(id: Int) async throws(ServiceError) -> Photo {
    try? await Task.sleep(for: .seconds(3600))
    throw .timedOut
  }
}

struct FailingPhotoService: PhotoService {
  func popularPhotos(page: Int) async throws(ServiceError) -> PhotoPage {
    throw .serverError(status: 503)
  }

  func photo(id: Int) async throws(ServiceError) -> Photo {
    throw .serverError(status: 503)
  }
}

/// The terminal app without a terminal: the navigation stack and the navigator rendering it.
@MainActor
struct TerminalApp {
  let stack: ScreenStack<ShowcaseDestination>
  let navigator: TerminalNavigator

  var topScreen: ShowcaseScreen? { stack.topScreen }
  func handle(_ key: Key) { navigator.handle(key) }
  func render(width: Int, height: Int) -> Canvas { navigator.render(width: width, height: height) }
}

/// The showcase's screens rendered into in-memory canvases, compared as text.
@MainActor
@Suite(.snapshots(record: .missing)) struct ScreenSnapshotTests {
  let tick = Property(value: 0)

  /// Bundled data, with dates pinned to `en_US` in UTC so snapshots match on any machine.
  static var services: ShowcaseServices {
    var services = ShowcaseServices.bundled(thumbnailDelay: .zero)
    services.locale = Locale(identifier: "en_US")
    services.timeZone = TimeZone(identifier: "UTC") ?? .gmt
    return services
  }

  private func app(_ services: ShowcaseServices = Self.services) -> TerminalApp {
    let tick = self.tick
    let stack = ScreenStack<ShowcaseDestination>()
    let navigator = TerminalNavigator(
      stack: stack,
      screens: { screen in
        ShowcaseViews.makeScreen(for: screen, tick: tick)
      })
    MainFlowController(services: services).startFlow(on: stack)
    return TerminalApp(stack: stack, navigator: navigator)
  }

  private func open(_ row: Int, in navigator: TerminalApp) {
    for _ in 0..<row { navigator.handle(.down) }
    navigator.handle(.enter)
  }

  private func snapshot(
    _ navigator: TerminalApp, width: Int = 100, height: Int = 30, named name: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    assertSnapshot(
      of: navigator.render(width: width, height: height).text, as: .lines, named: name,
      fileID: fileID, file: filePath, testName: "screen", line: line, column: column)
  }

  private func galleryServices(_ photos: any PhotoService) -> ShowcaseServices {
    var services = Self.services
    services.photos = photos
    return services
  }

  @Test func home() {
    snapshot(app(), named: "home")
  }

  @Test func galleryLoading() async {
    let navigator = app(galleryServices(PendingPhotoService()))
    open(0, in: navigator)
    await expectEventually { navigator.render(width: 100, height: 30).text.contains("Loading") }
    snapshot(navigator, named: "gallery-loading")
  }

  @Test func galleryLoadedAlertAndDetail() async throws {
    let navigator = app()
    open(0, in: navigator)
    let list = try #require(navigator.topScreen?.photoList)
    await expectEventually { list.numberOfCells == 20 }
    snapshot(navigator, named: "gallery-loaded")
    snapshot(navigator, width: 40, height: 20, named: "gallery-narrow-40")
    snapshot(navigator, width: 160, height: 30, named: "gallery-wide-160")

    let photos = BundledPhotoService.page(1).photos
    let notForSale = try #require(photos.firstIndex { !$0.forSale })
    for _ in 0..<notForSale { navigator.handle(.down) }
    navigator.handle(.enter)
    snapshot(navigator, named: "gallery-alert")
    navigator.handle(.enter)

    let forSale = try #require(photos.firstIndex { $0.forSale })
    navigator.handle(.home)
    for _ in 0..<forSale { navigator.handle(.down) }
    navigator.handle(.enter)
    snapshot(navigator, named: "gallery-detail")
  }

  @Test func galleryError() async throws {
    let navigator = app(galleryServices(FailingPhotoService()))
    open(0, in: navigator)
    let list = try #require(navigator.topScreen?.photoList)
    await expectEventually { list.errorMessage != nil }
    snapshot(navigator, named: "gallery-error")
  }

  @Test func coursesAlignCJKColumns() async throws {
    let navigator = app()
    open(1, in: navigator)
    let list = try #require(navigator.topScreen?.courseList)
    await expectEventually { !list.rows.isEmpty }
    snapshot(navigator, named: "courses")
    // Every course row ends at the same display column, whatever its script.
    let canvas = navigator.render(width: 60, height: 16)
    let rows = canvas.text.split(separator: "\n").filter { $0.contains("课程") }
    #expect(rows.count == list.rows.count)
    #expect(Set(rows.map { DisplayWidth.of($0) }).count == 1)
    navigator.handle(.enter)
    snapshot(navigator, named: "course-detail")
  }

  @Test func profileStylesRenderTheSameHeader() async throws {
    let navigator = app()
    open(2, in: navigator)
    let screen = try #require(navigator.topScreen?.profile)
    await expectEventually { screen.display.value != nil }
    snapshot(navigator, named: "profile-view-model")
    let header = {
      navigator.render(width: 100, height: 30).text.split(separator: "\n").dropFirst(6)
    }
    let viewModelStyle = Array(header())
    for key in ["1", "2", "4"] {
      navigator.handle(.character(Character(key)))
      #expect(Array(header()) == viewModelStyle)
    }
  }

  @Test func articlesAndTheirThumbnail() async throws {
    let navigator = app()
    open(3, in: navigator)
    let list = try #require(navigator.topScreen?.articleList)
    await expectEventually { !list.rows.isEmpty }
    snapshot(navigator, named: "articles")
    navigator.handle(.enter)
    let article = try #require(navigator.topScreen?.article)
    await expectEventually { article.thumbnail.value != nil }
    snapshot(navigator, named: "article-with-thumbnail")
  }

  @Test func entryFetchSelectGreet() async throws {
    let navigator = app()
    open(4, in: navigator)
    snapshot(navigator, named: "entry-empty")
    let entry = try #require(navigator.topScreen?.entry)
    navigator.handle(.character("f"))
    await expectEventually { entry.userName.value != nil }
    snapshot(navigator, named: "entry-fetched")
    navigator.handle(.character("s"))
    snapshot(navigator, named: "greeting")
  }
}
