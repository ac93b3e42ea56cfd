import ExampleSupport
import Foundation
import Tether
import TetherPubSub

/// The gallery's list screen: seed 000's `PhotoListViewModel`, with pagination, refresh and an
/// error state with retry.
///
/// Inputs are what the user did; outputs are read-only properties (state) and signals (events):
///
/// ```swift
/// let viewModel = PhotoListViewModel(service: BundledPhotoService())
/// spinner.bindable(\.isAnimating) <~ viewModel.$isLoading
/// list.bindable(\.rows) <~ viewModel.$rows              // an `@Output`'s read-only face
/// viewModel.route.observe { route in … }          // a for-sale photo was pressed
/// await viewModel.viewDidLoad()
/// ```
@MainActor
public final class PhotoListViewModel {
  /// Where the list leads.
  public enum Route {
    /// The detail of a for-sale photo.
    case detail(PhotoDetailViewModel)
  }

  /// An alert the list asks its flow to show: a typed value, so nobody compares messages.
  public enum Alert: Equatable, Sendable {
    /// The photo the user chose is not for sale (seed 000).
    case notForSale(photoName: String)

    /// The alert's title.
    public var title: String {
      switch self {
      case .notForSale: "Not for sale"
      }
    }

    /// The alert's message.
    public var message: String {
      switch self {
      case .notForSale: PhotoListViewModel.notForSaleMessage
      }
    }
  }

  /// The screen's title.
  public let title = "Popular"
  /// Seed 000's message for a photo that is not for sale.
  public nonisolated static let notForSaleMessage = "This item is not for sale"
  /// The message shown when the first page has no photos.
  public static let emptyMessage = "No photos yet"

  private let firstPage = LoadCycle()
  private let nextPage = LoadCycle()
  /// Whether the first page is loading (the full-screen spinner).
  @Derived(\PhotoListViewModel.firstPage.isLoading) public var isLoading: Bool
  /// Whether a further page is loading (the footer spinner).
  @Derived(\PhotoListViewModel.nextPage.isLoading) public var isLoadingNextPage: Bool
  /// One row per photo, in order.
  @Output public private(set) var rows: [PhotoListCellViewModel] = []
  /// Seed 000's `numberOfCells`.
  @Derived(\PhotoListViewModel.$rows, \.count) public var numberOfCells: Int
  /// Why the last load failed, or `nil`.
  @Derived({ (model: PhotoListViewModel) in
    model.firstPage.errorMessage.combineLatest(with: model.nextPage.errorMessage).map { $0 ?? $1 }
  })
  public var errorMessage: String?
  /// The message for an empty list, or `nil`.
  @Output public private(set) var emptyStateMessage: String? = nil
  /// Whether the server has more pages.
  @Output public private(set) var canLoadMore = false
  /// A line about the list: "30 photos", or "Loading more photos…" while a page loads.
  @Derived({ (model: PhotoListViewModel) in
    model.nextPage.isLoading.combineLatest(with: model.$numberOfCells).map { loading, count in
      loading ? "Loading more photos…" : count == 1 ? "1 photo" : "\(count) photos"
    }
  })
  public var statusText: String
  /// The search field's text, as typed: the field writes it. Once the person stops typing for
  /// ``searchDelay``, the list shows the loaded photos whose title contains it (ignoring case
  /// and accents); empty shows them all.
  public let searchText = MutableProperty("")
  /// How long the search waits after the last keystroke.
  public static let searchDelay = Duration.milliseconds(200)
  /// Whether the search field has focus (a terminal's `/` gives it; Enter or Escape ends it).
  @Output public private(set) var isSearching = false
  /// Alerts to show (seed 000's "not for sale").
  @Event public var alert: Signal<Alert>
  /// Where to go: a for-sale photo's detail.
  @Event public var route: Signal<Route>
  /// Photos the person adds from their device, shown above the list.
  public let added = PhotoUploadViewModel()

  private enum Request {
    case firstPage, nextPage
  }

  private let service: any PhotoService
  private let pubsub: PubSub?
  private let dates: PhotoDateFormat
  private var photos: [Photo] = []
  /// The photos the rows show: those matching the search, in order.
  private var visible: [Photo] = []
  /// The search applied (trimmed): the last debounced ``searchText``.
  private var query = ""
  private var searchToken: ObservationToken?
  private var loadedIDs: Set<Int> = []
  private var lastPage: PhotoPage?
  private var generation = 0
  private var failedRequest: Request?

  /// Creates the list.
  ///
  /// - Parameters:
  ///   - service: Where photos come from.
  ///   - timeZone: The time zone dates are shown in.
  ///   - pubsub: Where each photo's detail counts who else shows it; none unless given.
  public convenience init(
    service: any PhotoService, timeZone: TimeZone = .current, pubsub: PubSub? = nil
  ) {
    self.init(
      service: service, timeZone: timeZone, searchClock: ContinuousClock(), pubsub: pubsub)
  }

  /// Creates the list, with the clock the search's debounce runs on (a test's `TestClock`).
  ///
  /// - Parameters:
  ///   - service: Where photos come from.
  ///   - timeZone: The time zone dates are shown in.
  ///   - searchClock: The screen's clock.
  ///   - pubsub: Where each photo's detail counts who else shows it; none unless given.
  public init<C: Clock<Duration>>(
    service: any PhotoService, timeZone: TimeZone = .current, searchClock: C,
    pubsub: PubSub? = nil
  ) {
    self.service = service
    self.pubsub = pubsub
    dates = PhotoDateFormat(timeZone: timeZone)
    searchToken = searchText.debounce(for: Self.searchDelay, clock: searchClock).observe {
      [weak self] text in self?.search(text)
    }
  }

  /// `/` in a terminal: the search field takes the keys.
  public func searchRequested() {
    if !isSearching { isSearching = true }
  }

  /// Enter in the search field: the keys go back to the list, the search stays.
  public func searchEnded() {
    if isSearching { isSearching = false }
  }

  /// Escape in the search field: the search is cleared and the keys go back to the list.
  public func searchCancelled() {
    searchText.value = ""
    search("")
    searchEnded()
  }

  private func search(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard trimmed != query else { return }
    query = trimmed
    // With no search, the rows show every photo: one array, shared, not a copy.
    visible = query.isEmpty ? photos : photos.filter(matches)
    rows = visible.map { PhotoListCellViewModel(photo: $0, dates: dates) }
    updateEmptyState()
  }

  private func matches(_ photo: Photo) -> Bool {
    query.isEmpty
      || photo.name.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
  }

  private func updateEmptyState() {
    let message: String? =
      if photos.isEmpty { Self.emptyMessage } else if visible.isEmpty {
        "No photo title contains “\(query)”"
      } else { nil }
    if emptyStateMessage != message { emptyStateMessage = message }
  }

  /// The screen appeared: load the first page.
  public func viewDidLoad() async {
    await loadFirstPage()
  }

  /// The user asked to load again: retry the request that failed, or refresh from the first
  /// page when nothing failed.
  public func reloadRequested() async {
    switch failedRequest {
    case .firstPage, nil: await loadFirstPage()
    case .nextPage: await loadNextPage()
    }
  }

  /// The selection reached row `index`: near the end, load the next page.
  ///
  /// - Parameter index: The selected row.
  public func userReached(row index: Int) async {
    guard index >= visible.count - 1 else { return }
    await loadNextPage()
  }

  /// The user chose row `index`: a for-sale photo routes to its detail, any other alerts.
  ///
  /// - Parameter index: The chosen row; rows outside the list are ignored.
  public func userSelected(row index: Int) {
    guard visible.indices.contains(index) else { return }
    open(visible[index])
  }

  /// A link asked for the photo with `id`: fetch it (it need not be on a loaded page) and
  /// open it as a chosen row would be.
  ///
  /// - Parameter id: The photo's id.
  /// - Throws: `OpenError.notFound` when the service has no such photo (404), else
  ///   `OpenError.unavailable` with the ``ServiceError``.
  public func openRequested(id: Int) async throws(OpenError) {
    do {
      open(try await service.photo(id: id))
    } catch .unexpectedStatus(404) {
      throw .notFound
    } catch {
      throw .unavailable(error)
    }
  }

  /// Seed 000's `getCellViewModel(at:)`.
  ///
  /// - Parameter index: The row.
  /// - Returns: The row's view model, or `nil` outside the list.
  public func cellViewModel(at index: Int) -> PhotoListCellViewModel? {
    rows.indices.contains(index) ? rows[index] : nil
  }

  private func open(_ photo: Photo) {
    if photo.forSale {
      _route.send(.detail(PhotoDetailViewModel(photo: photo, dates: dates, pubsub: pubsub)))
    } else {
      _alert.send(.notForSale(photoName: photo.name))
    }
  }

  private func loadFirstPage() async {
    generation += 1
    nextPage.clearError()
    await firstPage.run { [self] () async throws(ServiceError) in
      failedRequest = .firstPage
      let page = try await service.popularPhotos(page: 1)
      photos = []
      visible = []
      loadedIDs = []
      append(page)
      updateEmptyState()
      failedRequest = nil
    }
  }

  private func loadNextPage() async {
    guard !firstPage.isLoading.value, let lastPage, lastPage.hasNextPage else { return }
    let current = generation
    await nextPage.run { [self] () async throws(ServiceError) in
      do throws(ServiceError) {
        let page = try await service.popularPhotos(page: lastPage.currentPage + 1)
        guard current == generation else { return }
        append(page)
        failedRequest = nil
      } catch {
        // A refresh started meanwhile: this page belongs to the old list.
        guard current == generation else { return }
        failedRequest = .nextPage
        throw error
      }
    }
  }

  private func append(_ page: PhotoPage) {
    let fresh = page.photos.filter { loadedIDs.insert($0.id).inserted }
    photos += fresh
    let shown = fresh.filter(matches)
    lastPage = page
    if canLoadMore != page.hasNextPage { canLoadMore = page.hasNextPage }
    if query.isEmpty {
      visible = photos  // shared with `photos`, not a copy
    } else {
      visible += shown
    }
    if photos.count == fresh.count {
      rows = shown.map { PhotoListCellViewModel(photo: $0, dates: dates) }
    } else {
      rows += shown.map { PhotoListCellViewModel(photo: $0, dates: dates) }  // in place, once
    }
    if !query.isEmpty { updateEmptyState() }
  }
}
