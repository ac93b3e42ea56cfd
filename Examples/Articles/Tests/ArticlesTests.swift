import Articles
import ExampleSupport
import Foundation
import Testing
import TetherTesting

let usDates = ArticleDateFormat(
  locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC") ?? .gmt)

/// A loader that waits until the test releases it, to observe the thumbnail arriving later.
actor GatedLoader: ThumbnailLoader {
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private var isOpen = false
  private(set) var requests: [String] = []

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }

  func thumbnail(at url: URL) async throws(ServiceError) -> Thumbnail {
    requests.append(url.path)
    if !isOpen { await withCheckedContinuation { waiters.append($0) } }
    return Thumbnail.generated(for: url.lastPathComponent)
  }
}

struct FailingLoader: ThumbnailLoader {
  func thumbnail(at url: URL) async throws(ServiceError) -> Thumbnail {
    throw .serverError(status: 500)
  }
}

@MainActor
@Suite struct ArticleViewModelTests {
  @Test func articleScreensAreReleasedAfterTheirThumbnailLoads() async {
    await withLeakTracking { leaks in
      let loader = BundledThumbnailLoader(delay: .zero)
      let fromModel = leaks.track(
        ArticleViewViewModelFromArticle(BundledArticleService.models[0], loader: loader))
      let fromDictionary = leaks.track(
        ArticleViewViewModelFromDictionary(
          BundledArticleService.models[1].dictionary, loader: loader))
      await fromModel.viewDidAppear()
      await fromDictionary.viewDidAppear()
      #expect(fromModel.thumbnail.value != nil)
      #expect(fromDictionary.thumbnail.value != nil)
    }
  }

  @Test func modelSourceFormatsTitleBodyAndShortDate() {
    let article = BundledArticleService.models[0]
    let viewModel = ArticleViewViewModelFromArticle(article, loader: GatedLoader(), dates: usDates)
    #expect(viewModel.title == "MVVM without the desperation")
    #expect(viewModel.body.hasPrefix("View models hold state"))
    #expect(viewModel.date == "10/1/17")
  }

  @Test func dictionarySourceGivesTheSameScreenAsTheModel() {
    let article = BundledArticleService.models[1]
    let fromModel = ArticleViewViewModelFromArticle(article, loader: GatedLoader(), dates: usDates)
    let fromDictionary = ArticleViewViewModelFromDictionary(
      article.dictionary, loader: GatedLoader(), dates: usDates)
    #expect(fromModel.title == fromDictionary.title)
    #expect(fromModel.body == fromDictionary.body)
    #expect(fromModel.date == fromDictionary.date)
  }

  @Test func missingOrIllTypedKeysFallBack() {
    let broken: [String: JSONValue] = [
      "title": .number(42), "body": .null, "date": .string("next Tuesday"), "thumbnail": .number(7),
    ]
    let viewModel = ArticleViewViewModelFromDictionary(
      broken, loader: GatedLoader(), dates: usDates)
    #expect(viewModel.title == "Untitled")
    #expect(viewModel.body == "")
    #expect(viewModel.date == "Date unknown")
    #expect(viewModel.thumbnail.value == nil)
    #expect(viewModel.thumbnailStatus.value == "No image")
    let empty = ArticleViewViewModelFromDictionary([:], loader: GatedLoader(), dates: usDates)
    #expect(empty.title == "Untitled")
  }

  @Test func thumbnailArrivesLaterThroughTheBoundProperty() async {
    let loader = GatedLoader()
    let article = BundledArticleService.models[0]
    let viewModel = ArticleViewViewModelFromArticle(article, loader: loader, dates: usDates)
    let images = viewModel.thumbnail.record()
    let statuses = viewModel.thumbnailStatus.record()
    let appearing = Task { await viewModel.viewDidAppear() }
    await expectEventually { await loader.requests.count == 1 }
    #expect(images.values == [nil])
    await loader.open()
    await appearing.value
    #expect(images.values == [nil, Thumbnail.generated(for: "mvvm.pgm")])
    #expect(statuses.values == ["Loading image…", nil])
    await viewModel.viewDidAppear()
    #expect(await loader.requests == ["/thumbnails/mvvm.pgm"])
  }

  @Test func failedThumbnailSaysWhy() async {
    let viewModel = ArticleViewViewModelFromArticle(
      BundledArticleService.models[0], loader: FailingLoader())
    await viewModel.viewDidAppear()
    #expect(viewModel.thumbnail.value == nil)
    #expect(viewModel.thumbnailStatus.value == "Image unavailable: Server is overloaded")
  }
}

@MainActor
@Suite struct ArticleListViewModelTests {
  @Test func listsEveryRecordAndRoutesToItsScreen() async {
    await withLeakTracking { leaks in
      let viewModel = leaks.track(
        ArticleListViewModel(
          service: BundledArticleService(), loader: BundledThumbnailLoader(delay: .zero),
          dates: usDates))
      await viewModel.viewDidLoad()
      #expect(
        viewModel.rows.map(\.title) == [
          "MVVM without the desperation", "流程控制器：把导航移出视图", "Binding a thumbnail that arrives later",
          "Статья без даты", "Untitled",
        ])
      #expect(
        viewModel.rows.map(\.date) == [
          "10/1/17", "5/11/18", "6/1/18", "Date unknown", "Date unknown",
        ])
      let routes = viewModel.route.record()
      viewModel.userSelected(row: 2)
      viewModel.userSelected(row: 10)
      #expect(routes.values.count == 1)
      let titles = routes.values.map { route in
        switch route {
        case .article(let article, let id): "\(id): \(article.title)"
        }
      }
      #expect(titles == ["2: Binding a thumbnail that arrives later"])
      routes.stop()
    }
  }
}

@MainActor
@Suite struct ArticleLinkTests {
  @Test func aLinkLoadsTheListAndRoutesToThatRow() async throws {
    let viewModel = ArticleListViewModel(
      service: BundledArticleService(), loader: BundledThumbnailLoader(delay: .zero))
    let routes = viewModel.route.record()
    try await viewModel.openRequested(id: 1)
    await #expect(throws: OpenError.notFound) { try await viewModel.openRequested(id: 99) }
    #expect(routes.values.map(\.article.title) == ["流程控制器：把导航移出视图"])
    #expect(viewModel.rows.count == BundledArticleService.records.count)
  }

  @Test func aLinkDuringTheFirstLoadWaitsForIt() async throws {
    struct Held: ArticleService {
      let gate: Gate
      func articles() async throws(ServiceError) -> [ArticleRecord] {
        await gate.wait()
        return try await BundledArticleService().articles()
      }
    }
    let gate = Gate()
    let viewModel = ArticleListViewModel(
      service: Held(gate: gate), loader: BundledThumbnailLoader(delay: .zero))
    let routes = viewModel.route.record()
    let appeared = Task { await viewModel.viewDidLoad() }
    while !viewModel.isLoading.value { await Task.yield() }
    let opened = Task { try await viewModel.openRequested(id: 1) }
    for _ in 0..<10 { await Task.yield() }
    #expect(routes.values.isEmpty, "the link waits for the list")
    await gate.open()
    await appeared.value
    try await opened.value
    #expect(routes.values.map(\.article.title) == ["流程控制器：把导航移出视图"])
  }
}

@Suite struct ThumbnailTests {
  @Test func pgmRoundTrips() throws {
    let image = Thumbnail.generated(for: "x.pgm")
    #expect(try Thumbnail(pgm: image.pgmData) == image)
    #expect(image.width == 24 && image.height == 12)
    #expect(Thumbnail.generated(for: "x.pgm") == image)
    #expect(Thumbnail.generated(for: "y.pgm") != image)
  }

  @Test func malformedImagesAreRejectedWithAReason() {
    #expect(throws: ServiceError.malformedResponse("the thumbnail is not a PGM image")) {
      try Thumbnail(pgm: Data("<html>".utf8))
    }
    #expect(throws: ServiceError.malformedResponse("the thumbnail's PGM header is invalid")) {
      try Thumbnail(pgm: Data("P5\n0 0\n255\n".utf8))
    }
    #expect(
      throws: ServiceError.malformedResponse("the thumbnail has fewer pixels than its header says")
    ) {
      try Thumbnail(pgm: Data("P5\n4 4\n255\n".utf8) + Data([1, 2, 3]))
    }
    #expect(Thumbnail(width: 2, height: 2, pixels: [1]) == nil)
  }
}
