import Articles
import Courses
import Entry
import ExampleSupport
import Foundation
import Gallery
import Profile
import ShowcaseServer
import Testing
import TetherTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct ShowcaseServerTests {
  @Test func servesTheBundledPhotosInThe500pxFormat() async throws {
    try await withShowcaseServer { url in
      let service = HTTPPhotoService(baseURL: url)
      let first = try await service.popularPhotos(page: 1)
      let last = try await service.popularPhotos(page: 30)
      let beyond = try await service.popularPhotos(page: 31)
      #expect(first == BundledPhotoService.page(1))
      #expect(last == BundledPhotoService.page(30))
      #expect(beyond.photos.isEmpty)
    }
  }

  @Test func onePhotoByIDForADeepLink() async throws {
    try await withShowcaseServer { url in
      let service = HTTPPhotoService(baseURL: url)
      let photo = try #require(BundledPhotoService.catalog.last)
      #expect(try await service.photo(id: photo.id) == photo)
      await #expect(throws: ServiceError.unexpectedStatus(404)) {
        try await service.photo(id: 12)
      }
      await #expect(throws: ServiceError.unexpectedStatus(404)) {
        try await HTTPClient(baseURL: url).getData("/v1/photos/not-a-number")
      }
    }
  }

  @Test func servesEachCatalogPhotosPictureAtItsImageURL() async throws {
    try await withShowcaseServer { url in
      let client = HTTPClient(baseURL: url)
      let photo = try #require(BundledPhotoService.catalog.first)
      let png = try await client.getData(photo.imageURL)
      #expect(Array(png) == PhotoImage(photoID: photo.id).png())
      await #expect(throws: ServiceError.unexpectedStatus(404)) {
        try await client.getData("/images/photos/12.png")
      }
      await #expect(throws: ServiceError.unexpectedStatus(404)) {
        try await client.getData("/images/photos/\(photo.id).jpg")
      }
    }
  }

  @Test func faultsApplyToDataRoutesButNeverToHealth() async throws {
    try await withShowcaseServer(faults: FaultInjection(failRate: 1, failStatus: 503)) { url in
      let client = HTTPClient(baseURL: url)
      let health = try await client.getData("/health")
      #expect(String(decoding: health, as: UTF8.self) == "ok")
      for path in ["/courses", "/v1/photos/230200400", "/images/photos/230200400.png"] {
        await #expect(throws: ServiceError.serverError(status: 503), "\(path)") {
          try await client.getData(path)
        }
      }
    }
  }

  @Test(arguments: ShowcaseServer.routes.map(\.example))
  func everyListedRouteAnswers(path: String) async throws {
    try await withShowcaseServer { url in
      // The examples' own client: it answers only a 2xx status with its body.
      let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
      let query = parts.count > 1 ? URLComponents(string: "?" + parts[1])?.queryItems ?? [] : []
      let data = try await HTTPClient(baseURL: url).getData(parts[0], query: query)
      #expect(!data.isEmpty, "\(path)")
    }
  }

  @Test func wireFormatIs500pxJSON() async throws {
    try await withShowcaseServer { url in
      let data = try await HTTPClient(baseURL: url).getData("/v1/photos")
      let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      #expect(json["current_page"] as? Int == 1)
      #expect(json["total_pages"] as? Int == 30)
      #expect(json["feature"] as? String == "popular")
      let photos = try #require(json["photos"] as? [[String: Any]])
      #expect(photos.count == 20)
      let created = try #require(photos.first?["created_at"] as? String)
      #expect(created.count == 25)  // 2017-10-01T10:22:11-04:00
      #expect(photos.first?["for_sale"] is Bool)
    }
  }

  @Test(arguments: [
    (401, ServiceError.unauthorized(status: 401)),
    (403, .unauthorized(status: 403)),
    (500, .serverError(status: 500)),
    (503, .serverError(status: 503)),
    (404, .unexpectedStatus(404)),
  ])
  func statusFailuresMapToTheirClass(status: Int, expected: ServiceError) async throws {
    try await withShowcaseServer(faults: FaultInjection(failRate: 1, failStatus: status)) { url in
      await #expect(throws: expected) {
        try await HTTPPhotoService(baseURL: url).popularPhotos(page: 1)
      }
    }
  }

  @Test func malformedBodyIsReportedAsSuch() async throws {
    try await withShowcaseServer(faults: FaultInjection(failRate: 1, mode: .malformed)) { url in
      await #expect(throws: ServiceError.malformedResponse("the response is not valid JSON")) {
        try await HTTPPhotoService(baseURL: url).popularPhotos(page: 1)
      }
    }
  }

  @Test func droppedConnectionIsNoNetwork() async throws {
    try await withShowcaseServer(faults: FaultInjection(failRate: 1, mode: .close)) { url in
      await #expect(throws: ServiceError.noConnection) {
        try await HTTPPhotoService(baseURL: url).popularPhotos(page: 1)
      }
    }
  }

  @Test func slowServerTimesOut() async throws {
    try await withShowcaseServer(faults: FaultInjection(latency: .seconds(3))) { url in
      await #expect(throws: ServiceError.timedOut) {
        try await HTTPPhotoService(baseURL: url, timeout: .milliseconds(300)).popularPhotos(page: 1)
      }
    }
  }

  @Test func noServerIsNoNetwork() async throws {
    // Nothing listens on port 1 of the loopback address: the connection is refused at once.
    let url = try #require(URL(string: "http://127.0.0.1:1"))
    await #expect(throws: ServiceError.noConnection) {
      try await HTTPPhotoService(baseURL: url, timeout: .seconds(2)).popularPhotos(page: 1)
    }
  }

  @Test func badQueryIsABadRequest() async throws {
    try await withShowcaseServer { url in
      let client = HTTPClient(baseURL: url)
      await #expect(throws: ServiceError.unexpectedStatus(400)) {
        try await client.getData("/v1/photos", query: [URLQueryItem(name: "page", value: "zero")])
      }
      await #expect(throws: ServiceError.unexpectedStatus(400)) {
        try await client.getData(
          "/v1/photos", query: [URLQueryItem(name: "feature", value: "upcoming")])
      }
    }
  }

  @Test func faultRateIsClampedAndPartial() {
    #expect(FaultInjection(failRate: 7).failRate == 1)
    #expect(FaultInjection(failRate: -1).failRate == 0)
    var random = SystemRandomNumberGenerator()
    let half = FaultInjection(failRate: 0.5)
    let failures = (0..<2_000).filter { _ in half.shouldFail(using: &random) }.count
    #expect((800...1_200).contains(failures))
  }
}

@MainActor
@Suite struct GalleryOverHTTPTests {
  @Test func listLoadsAndPagesFromTheServer() async throws {
    try await withShowcaseServer { url in
      let viewModel = PhotoListViewModel(service: HTTPPhotoService(baseURL: url))
      await viewModel.viewDidLoad()
      #expect(viewModel.numberOfCells == 20)
      await viewModel.userReached(row: 19)
      #expect(viewModel.numberOfCells == 40)
      #expect(viewModel.errorMessage == nil)
    }
  }

  @Test func overloadedServerShowsItsMessageAndNothingLeaks() async throws {
    try await withShowcaseServer(faults: FaultInjection(failRate: 1, failStatus: 503)) { url in
      await withLeakTracking { leaks in
        let viewModel = leaks.track(PhotoListViewModel(service: HTTPPhotoService(baseURL: url)))
        await viewModel.viewDidLoad()
        #expect(viewModel.errorMessage == "Server is overloaded")
        #expect(viewModel.rows.isEmpty)
      }
    }
  }
}

@MainActor
@Suite struct ExampleServicesOverHTTPTests {
  @Test func coursesProfilesArticlesAndUsersMatchTheBundledData() async throws {
    try await withShowcaseServer { url in
      let courses = try await HTTPCourseService(baseURL: url).courses()
      #expect(courses == BundledCourseService.catalog)

      let profile = try await HTTPProfileService(baseURL: url).profile(login: "li-na")
      #expect(profile == BundledProfileService.profiles["li-na"])
      await #expect(throws: ServiceError.unexpectedStatus(404)) {
        try await HTTPProfileService(baseURL: url).profile(login: "nobody")
      }

      let records = try await HTTPArticleService(baseURL: url).articles()
      #expect(records.count == BundledArticleService.records.count)

      let fetcher = HTTPUserFetcher(baseURL: url)
      let first = try await fetcher.fetchUser()
      let second = try await fetcher.fetchUser()
      #expect([first, second] == Array(BundledUserFetcher.users.prefix(2)))
    }
  }

  @Test func articlesFromTheServerShowTheSameScreensAsBundled() async throws {
    try await withShowcaseServer { url in
      let dates = ArticleDateFormat(locale: Locale(identifier: "en_US"), timeZone: .gmt)
      let remote = ArticleListViewModel(
        service: HTTPArticleService(baseURL: url), loader: HTTPThumbnailLoader(baseURL: url),
        dates: dates)
      let local = ArticleListViewModel(
        service: BundledArticleService(), loader: BundledThumbnailLoader(delay: .zero), dates: dates
      )
      await remote.viewDidLoad()
      await local.viewDidLoad()
      #expect(remote.rows == local.rows)

      let screens = remote.route.record()
      remote.userSelected(row: 0)
      let screen = try #require(screens.values.first?.article)
      await screen.viewDidAppear()
      #expect(screen.thumbnail.value == Thumbnail.generated(for: "mvvm.pgm"))
      screens.stop()
    }
  }

  @Test func thumbnailErrorsAreReported() async throws {
    try await withShowcaseServer { url in
      let loader = HTTPThumbnailLoader(baseURL: url)
      await #expect(throws: ServiceError.unexpectedStatus(404)) {
        try await loader.thumbnail(at: URL(fileURLWithPath: "/thumbnails/not-an-image.txt"))
      }
    }
    try await withShowcaseServer(faults: FaultInjection(failRate: 1, mode: .malformed)) { url in
      await #expect(throws: ServiceError.malformedResponse("the thumbnail is not a PGM image")) {
        try await HTTPThumbnailLoader(baseURL: url).thumbnail(
          at: URL(fileURLWithPath: "/thumbnails/a.pgm"))
      }
    }
  }

  @Test func everyServiceReportsServerFailures() async throws {
    try await withShowcaseServer(faults: FaultInjection(failRate: 1, failStatus: 503)) { url in
      await #expect(throws: ServiceError.serverError(status: 503)) {
        try await HTTPCourseService(baseURL: url).courses()
      }
      await #expect(throws: ServiceError.serverError(status: 503)) {
        try await HTTPProfileService(baseURL: url).profile(login: "octocat")
      }
      await #expect(throws: ServiceError.serverError(status: 503)) {
        try await HTTPArticleService(baseURL: url).articles()
      }
      await #expect(throws: ServiceError.serverError(status: 503)) {
        try await HTTPUserFetcher(baseURL: url).fetchUser()
      }
    }
  }

  @Test func entryRunsAgainstTheServer() async throws {
    try await withShowcaseServer { url in
      let entry = EntryViewModel(fetcher: HTTPUserFetcher(baseURL: url))
      let routes = entry.route.record()
      await entry.fetchRequested()
      entry.selectRequested()
      guard case .greeting(let greeting) = routes.values.first else {
        Issue.record("no greeting route")
        return
      }
      #expect(greeting.greeting.value == "Hello, Ada Lovelace!")
      routes.stop()
    }
  }
}
