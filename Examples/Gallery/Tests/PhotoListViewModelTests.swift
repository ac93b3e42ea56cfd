import ExampleSupport
import Foundation
import Gallery
import Testing
import TetherTesting

@MainActor
@Suite struct PhotoListViewModelTests {
  @Test func loadFetchesTheFirstPage() async {
    let service = StubPhotoService.catalog
    let viewModel = PhotoListViewModel(service: service, timeZone: utc)
    await viewModel.viewDidLoad()
    #expect(await service.log.pages == [1])
  }

  @Test func loadingGoesTrueThenFalse() async {
    let viewModel = PhotoListViewModel(service: StubPhotoService.catalog, timeZone: utc)
    let loading = viewModel.$isLoading.record()
    await viewModel.viewDidLoad()
    loading.assertValues([false, true, false])
  }

  @Test func loadShowsOneCellPerPhotoAndChangesNothingElse() async {
    await withLeakTracking { leaks in
      let viewModel = leaks.track(
        PhotoListViewModel(service: StubPhotoService.catalog, timeZone: utc))
      let probe = ViewModelProbe(viewModel)
      await viewModel.viewDidLoad()
      probe.expect(\.$isLoading, [true, false])
      probe.expect(\.$numberOfCells, [20])
      probe.expect(\.$canLoadMore, [true])
      probe.expect(\.$statusText, ["20 photos"])
      probe.expect(\.$rows) { $0.last?.map(\.id) == BundledPhotoService.page(1).photos.map(\.id) }
      probe.finish()
    }
  }

  @Test func failureShowsTheErrorMessageAndNoSilentEmptyList() async {
    let viewModel = PhotoListViewModel(service: StubPhotoService.failing(.noConnection))
    let probe = ViewModelProbe(viewModel)
    await viewModel.viewDidLoad()
    probe.expect(\.$isLoading, [true, false])
    probe.expect(\.$errorMessage, ["No Network"])
    probe.finish()
    #expect(viewModel.rows.isEmpty)
    #expect(viewModel.emptyStateMessage == nil)
  }

  @Test(arguments: [
    (ServiceError.noConnection, "No Network"),
    (.timedOut, "No Network"),
    (.unauthorized(status: 401), "You don't have permission"),
    (.unauthorized(status: 403), "You don't have permission"),
    (.serverError(status: 503), "Server is overloaded"),
    (
      .malformedResponse("missing field 'id' at photos[0]"),
      "The server sent data the app could not read: missing field 'id' at photos[0]"
    ),
  ])
  func eachErrorClassHasItsMessage(error: ServiceError, message: String) async {
    let viewModel = PhotoListViewModel(service: StubPhotoService.failing(error))
    await viewModel.viewDidLoad()
    #expect(viewModel.errorMessage == message)
  }

  @Test func pressingAForSalePhotoRoutesToItsDetail() async throws {
    let viewModel = PhotoListViewModel(service: StubPhotoService.catalog, timeZone: utc)
    await viewModel.viewDidLoad()
    let index = try #require(BundledPhotoService.page(1).photos.firstIndex { $0.forSale })
    let probe = ViewModelProbe(viewModel)
    viewModel.userSelected(row: index)
    probe.expect(\.route) { routes in
      guard routes.count == 1, case .detail(let detail) = routes[0] else { return false }
      return detail.photo == BundledPhotoService.page(1).photos[index]
    }
    probe.finish()
  }

  @Test func pressingAPhotoNotForSaleAlerts() async throws {
    let viewModel = PhotoListViewModel(service: StubPhotoService.catalog, timeZone: utc)
    await viewModel.viewDidLoad()
    let index = try #require(BundledPhotoService.page(1).photos.firstIndex { !$0.forSale })
    let photo = BundledPhotoService.page(1).photos[index]
    let probe = ViewModelProbe(viewModel)
    viewModel.userSelected(row: index)
    viewModel.userSelected(row: -1)
    viewModel.userSelected(row: 10_000)
    probe.expect(\.alert, [.notForSale(photoName: photo.name)])
    probe.finish()
  }

  @Test func cellTextSkipsMissingCameraOrDescription() async {
    let photos = [
      photo(id: 1, description: " sunset \n", camera: "Nikon"),
      photo(id: 2, description: nil, camera: "Canon"),
      photo(id: 3, description: "only text", camera: nil),
      photo(id: 4, description: "", camera: ""),
    ]
    let service = StubPhotoService { _ throws(ServiceError) in
      PhotoPage(currentPage: 1, totalPages: 1, totalItems: 4, photos: photos)
    }
    let viewModel = PhotoListViewModel(service: service, timeZone: utc)
    await viewModel.viewDidLoad()
    #expect(
      viewModel.rows.map(\.descriptionText) == ["Nikon - sunset", "Canon", "only text", ""])
    #expect(viewModel.cellViewModel(at: 0)?.dateText == "2017-10-01")
    #expect(viewModel.cellViewModel(at: 4) == nil)
  }

  @Test func dateFollowsTheInjectedTimeZone() {
    // 2017-10-01T14:23:31Z is already October 2 in Tokyo and still October 1 in Honolulu.
    let late = Photo(
      id: 1, name: "x", description: nil, camera: nil,
      createdAt: Date(timeIntervalSince1970: 1_506_867_811 + 10 * 3600), imageURL: "",
      forSale: false)
    let tokyo = TimeZone(identifier: "Asia/Tokyo") ?? utc
    let honolulu = TimeZone(identifier: "Pacific/Honolulu") ?? utc
    #expect(
      PhotoListCellViewModel(photo: late, dates: .init(timeZone: tokyo)).dateText == "2017-10-02")
    #expect(
      PhotoListCellViewModel(photo: late, dates: .init(timeZone: honolulu)).dateText == "2017-10-01"
    )
  }

  @Test func reachingTheEndLoadsTheNextPage() async {
    let service = StubPhotoService.catalog
    let viewModel = PhotoListViewModel(service: service, timeZone: utc)
    await viewModel.viewDidLoad()
    let loadingMore = viewModel.$isLoadingNextPage.record()
    await viewModel.userReached(row: 5)
    #expect(viewModel.numberOfCells == 20)
    await viewModel.userReached(row: 19)
    #expect(viewModel.numberOfCells == 40)
    #expect(await service.log.pages == [1, 2])
    loadingMore.assertValues([false, true, false])
    #expect(
      viewModel.rows.map(\.id)
        == (BundledPhotoService.page(1).photos + BundledPhotoService.page(2).photos).map(\.id))
  }

  @Test func noPageIsRequestedPastTheLast() async {
    let service = StubPhotoService { page throws(ServiceError) in
      PhotoPage(currentPage: page, totalPages: 2, totalItems: 2, photos: [photo(id: page)])
    }
    let viewModel = PhotoListViewModel(service: service)
    await viewModel.viewDidLoad()
    await viewModel.userReached(row: 0)
    await viewModel.userReached(row: 1)
    await viewModel.userReached(row: 1)
    #expect(await service.log.pages == [1, 2])
    #expect(viewModel.canLoadMore == false)
  }

  @Test func overlappingPagesDoNotDuplicateRows() async {
    // A live feed shifts: page 2 starts with the last photo of page 1.
    let service = StubPhotoService { page throws(ServiceError) in
      let ids = page == 1 ? [1, 2, 3] : [3, 4, 5]
      return PhotoPage(
        currentPage: page, totalPages: 2, totalItems: 6, photos: ids.map { photo(id: $0) })
    }
    let viewModel = PhotoListViewModel(service: service)
    await viewModel.viewDidLoad()
    await viewModel.userReached(row: 2)
    #expect(viewModel.rows.map(\.id) == [1, 2, 3, 4, 5])
  }

  @Test func refreshReloadsFromTheFirstPage() async {
    let service = StubPhotoService.catalog
    let viewModel = PhotoListViewModel(service: service, timeZone: utc)
    await viewModel.viewDidLoad()
    await viewModel.userReached(row: 19)
    await viewModel.reloadRequested()
    #expect(await service.log.pages == [1, 2, 1])
    #expect(viewModel.numberOfCells == 20)
    #expect(viewModel.canLoadMore)
  }

  @Test func retryAfterAFirstPageFailureLoadsIt() async {
    let failures = FailureSwitch(failing: true)
    let service = StubPhotoService { page throws(ServiceError) in
      if await failures.isFailing { throw .serverError(status: 503) }
      return BundledPhotoService.page(page)
    }
    let viewModel = PhotoListViewModel(service: service, timeZone: utc)
    await viewModel.viewDidLoad()
    #expect(viewModel.errorMessage == "Server is overloaded")
    await failures.set(false)
    await viewModel.reloadRequested()
    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.numberOfCells == 20)
  }

  @Test func retryAfterANextPageFailureKeepsTheRowsAndLoadsThatPage() async {
    let failures = FailureSwitch(failing: false)
    let service = StubPhotoService { page throws(ServiceError) in
      if page == 2, await failures.isFailing { throw .timedOut }
      return BundledPhotoService.page(page)
    }
    let viewModel = PhotoListViewModel(service: service, timeZone: utc)
    await viewModel.viewDidLoad()
    await failures.set(true)
    await viewModel.userReached(row: 19)
    #expect(viewModel.errorMessage == "No Network")
    #expect(viewModel.numberOfCells == 20)
    await failures.set(false)
    await viewModel.reloadRequested()
    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.numberOfCells == 40)
    #expect(await service.log.pages == [1, 2, 2])
  }

  @Test func emptyFeedSaysSo() async {
    let service = StubPhotoService { _ throws(ServiceError) in
      PhotoPage(currentPage: 1, totalPages: 0, totalItems: 0, photos: [])
    }
    let viewModel = PhotoListViewModel(service: service)
    await viewModel.viewDidLoad()
    #expect(viewModel.emptyStateMessage == "No photos yet")
    #expect(viewModel.errorMessage == nil)
  }

  @Test func viewModelIsReleasedWithItsServiceCallbacks() async {
    await withLeakTracking { leaks in
      let viewModel = leaks.track(PhotoListViewModel(service: StubPhotoService.catalog))
      let token = viewModel.route.observe { _ in }
      await viewModel.viewDidLoad()
      viewModel.userSelected(row: 0)
      token.cancel()
    }
  }
}

actor FailureSwitch {
  private(set) var isFailing: Bool
  init(failing: Bool) { isFailing = failing }
  func set(_ failing: Bool) { isFailing = failing }
}

@MainActor
@Suite struct PhotoDetailViewModelTests {
  @Test func detailIsReleasedWithTheListThatCreatedIt() async {
    await withLeakTracking { leaks in
      let list = leaks.track(PhotoListViewModel(service: StubPhotoService.catalog))
      await list.viewDidLoad()
      let routes = list.route.record()
      if let index = BundledPhotoService.page(1).photos.firstIndex(where: { $0.forSale }) {
        list.userSelected(row: index)
      }
      if case .detail(let detail) = routes.values.first { leaks.track(detail) }
      routes.stop()
      routes.clear()
    }
  }

  @Test func formatsEveryFieldWithFallbacks() {
    let dates = PhotoDateFormat(timeZone: utc)
    var full = photo(
      id: 1, name: "Moose Bog", description: "Line one<br>\n<b>Line</b> two &amp; more",
      camera: " IQ160 ", forSale: true)
    full.width = 6000
    full.height = 4000
    full.rating = 98.46
    full.photographer = "W H"
    let detail = PhotoDetailViewModel(photo: full, dates: dates)
    #expect(detail.titleText == "Moose Bog")
    #expect(detail.photographerText == "by W H")
    #expect(detail.descriptionText == "Line one\nLine two & more")
    #expect(detail.cameraText == "Camera: IQ160")
    #expect(detail.dateText == "Uploaded 2017-10-01")
    #expect(detail.sizeText == "6000 × 4000 px")
    #expect(detail.ratingText == "Rating 98.5")

    let bare = PhotoDetailViewModel(
      photo: photo(id: 2, description: "  ", camera: nil), dates: dates)
    #expect(bare.photographerText == "Photographer unknown")
    #expect(bare.descriptionText == "No description")
    #expect(bare.cameraText == "Camera unknown")
    #expect(bare.sizeText == nil)
    #expect(bare.ratingText == nil)
  }
}

/// The list's decisions are inputs: what reload does, what a link opens, what the status says.
@MainActor
@Suite struct PhotoListInputTests {
  @Test func reloadRefreshesWhenNothingFailed() async {
    let service = StubPhotoService.catalog
    let viewModel = PhotoListViewModel(service: service, timeZone: utc)
    await viewModel.viewDidLoad()
    await viewModel.reloadRequested()
    #expect(await service.log.pages == [1, 1])
  }

  @Test func statusSaysHowManyPhotosAndWhenMoreAreLoading() async {
    let viewModel = PhotoListViewModel(service: StubPhotoService.catalog, timeZone: utc)
    let status = viewModel.$statusText.record()
    await viewModel.viewDidLoad()
    await viewModel.userReached(row: 19)
    status.assertValues(["0 photos", "20 photos", "Loading more photos…", "40 photos"])
  }

  @Test func aLinkToAForSalePhotoRoutesToItsDetailEvenOffThePage() async throws {
    let viewModel = PhotoListViewModel(service: BundledPhotoService(), timeZone: utc)
    let routes = viewModel.route.record()
    let alerts = viewModel.alert.record()
    let photo = try #require(BundledPhotoService.catalog.last { $0.forSale })
    try await viewModel.openRequested(id: photo.id)
    guard case .detail(let detail) = try #require(routes.values.first) else { return }
    #expect(detail.photo == photo)
    #expect(alerts.values.isEmpty)
    #expect(viewModel.rows.isEmpty, "opening a link loads no page")
  }

  @Test func aLinkToAPhotoNotForSaleAlertsAsChoosingItWould() async throws {
    let viewModel = PhotoListViewModel(service: BundledPhotoService(), timeZone: utc)
    let alerts = viewModel.alert.record()
    let photo = try #require(BundledPhotoService.catalog.first { !$0.forSale })
    try await viewModel.openRequested(id: photo.id)
    alerts.assertValues([.notForSale(photoName: photo.name)])
    #expect(alerts.values.first?.title == "Not for sale")
    #expect(alerts.values.first?.message == "This item is not for sale")
  }

  @Test func aLinkToAnUnknownPhotoThrowsNotFound() async {
    let viewModel = PhotoListViewModel(service: BundledPhotoService(), timeZone: utc)
    await #expect(throws: OpenError.notFound) {
      try await viewModel.openRequested(id: 1)
    }
  }
}
