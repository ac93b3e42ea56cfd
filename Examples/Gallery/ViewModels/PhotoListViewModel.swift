import ExampleSupport
import Foundation
import Tether

/// The gallery's list screen: seed 000's `PhotoListViewModel`, with pagination, refresh and an
/// error state with retry.
///
/// Inputs are what the user did; outputs are read-only properties (state) and signals (events):
///
/// ```swift
/// let viewModel = PhotoListViewModel(service: BundledPhotoService())
/// spinner.bindable(\.isAnimating) <~ viewModel.isLoading
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
  public let isLoading: Property<Bool>
  /// Whether a further page is loading (the footer spinner).
  public let isLoadingNextPage: Property<Bool>
  private let _rows = MutableProperty<[PhotoListCellViewModel]>([])
  /// One row per photo, in order.
  public var rows: Property<[PhotoListCellViewModel]> { _rows }
  /// Seed 000's `numberOfCells`.
  public let numberOfCells: Property<Int>
  /// Why the last load failed, or `nil`.
  public let errorMessage: Property<String?>
  private let _emptyStateMessage = MutableProperty<String?>(nil)
  /// The message for an empty list, or `nil`.
  public var emptyStateMessage: Property<String?> { _emptyStateMessage }
  private let _canLoadMore = MutableProperty(false)
  /// Whether the server has more pages.
  public var canLoadMore: Property<Bool> { _canLoadMore }
  /// A line about the list: "30 photos", or "Loading more photos…" while a page loads.
  public let statusText: Property<String>
  private let alertPipe = Signal<Alert>.pipe()
  /// Alerts to show (seed 000's "not for sale").
  public var alert: Signal<Alert> { alertPipe.output }
  private let routePipe = Signal<Route>.pipe()
  /// Where to go: a for-sale photo's detail.
  public var route: Signal<Route> { routePipe.output }

  private enum Request {
    case firstPage, nextPage
  }

  private let service: any PhotoService
  private let dates: PhotoDateFormat
  private var photos: [Photo] = []
  private var loadedIDs: Set<Int> = []
  private var lastPage: PhotoPage?
  private var generation = 0
  private var failedRequest: Request?

  /// Creates the list.
  ///
  /// - Parameters:
  ///   - service: Where photos come from.
  ///   - timeZone: The time zone dates are shown in.
  public init(service: any PhotoService, timeZone: TimeZone = .current) {
    isLoading = firstPage.isLoading
    isLoadingNextPage = nextPage.isLoading
    self.service = service
    dates = PhotoDateFormat(timeZone: timeZone)
    numberOfCells = _rows.map(\.count)
    errorMessage = firstPage.errorMessage.combineLatest(with: nextPage.errorMessage)
      .map { first, next in first ?? next }.skipRepeats()
    statusText = nextPage.isLoading.combineLatest(with: numberOfCells).map { loading, count in
      if loading { return "Loading more photos…" }
      return count == 1 ? "1 photo" : "\(count) photos"
    }.skipRepeats()
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
    guard index >= photos.count - 1 else { return }
    await loadNextPage()
  }

  /// The user chose row `index`: a for-sale photo routes to its detail, any other alerts.
  ///
  /// - Parameter index: The chosen row; rows outside the list are ignored.
  public func userSelected(row index: Int) {
    guard photos.indices.contains(index) else { return }
    open(photos[index])
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
    let rows = _rows.value
    return rows.indices.contains(index) ? rows[index] : nil
  }

  private func open(_ photo: Photo) {
    if photo.forSale {
      routePipe.input.send(.detail(PhotoDetailViewModel(photo: photo, dates: dates)))
    } else {
      alertPipe.input.send(.notForSale(photoName: photo.name))
    }
  }

  private func loadFirstPage() async {
    generation += 1
    nextPage.clearError()
    await firstPage.run { [self] () async throws(ServiceError) in
      failedRequest = .firstPage
      let page = try await service.popularPhotos(page: 1)
      photos = []
      loadedIDs = []
      append(page)
      set(_emptyStateMessage, to: photos.isEmpty ? Self.emptyMessage : nil)
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

  private func set<Value: Equatable>(_ property: MutableProperty<Value>, to value: Value) {
    if property.value != value { property.value = value }
  }

  private func append(_ page: PhotoPage) {
    let fresh = page.photos.filter { loadedIDs.insert($0.id).inserted }
    photos += fresh
    lastPage = page
    set(_canLoadMore, to: page.hasNextPage)
    if photos.count == fresh.count {
      _rows.value = fresh.map { PhotoListCellViewModel(photo: $0, dates: dates) }
    } else {
      _rows.modify { $0 += fresh.map { PhotoListCellViewModel(photo: $0, dates: dates) } }
    }
  }
}
