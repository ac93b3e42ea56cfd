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
  /// Where the list sends the user.
  public enum Route {
    /// Show the detail screen of a for-sale photo.
    case detail(PhotoDetailViewModel)
  }

  /// The screen's title.
  public let title = "Popular"
  /// The alert shown for a photo that is not for sale (seed 000's text).
  public static let notForSaleMessage = "This item is not for sale"
  /// Shown instead of the list when the feed has no photos.
  public static let emptyMessage = "No photos yet"

  private let _isLoading = MutableProperty(false)
  /// Whether the first page is loading (initial load or refresh): show a spinner.
  public var isLoading: Property<Bool> { _isLoading }
  private let _isLoadingNextPage = MutableProperty(false)
  /// Whether a further page is loading: show a row at the end of the list.
  public var isLoadingNextPage: Property<Bool> { _isLoadingNextPage }
  private let _cells = MutableProperty<[PhotoListCellViewModel]>([])
  /// The rows, in order.
  public var cells: Property<[PhotoListCellViewModel]> { _cells }
  /// The number of rows (seed 000's `numberOfCells`).
  public let numberOfCells: Property<Int>
  private let _errorMessage = MutableProperty<String?>(nil)
  /// The last load's failure, for an error state with a retry action; `nil` when none.
  public var errorMessage: Property<String?> { _errorMessage }
  private let _emptyStateMessage = MutableProperty<String?>(nil)
  /// ``emptyMessage`` when a load succeeded with no photos; `nil` otherwise.
  public var emptyStateMessage: Property<String?> { _emptyStateMessage }
  private let _canLoadMore = MutableProperty(false)
  /// Whether pages remain after the last one loaded.
  public var canLoadMore: Property<Bool> { _canLoadMore }
  private let alertPipe = Signal<String>.pipe()
  /// One-shot alerts, such as "This item is not for sale".
  public var alertMessage: Signal<String> { alertPipe.output }
  private let routePipe = Signal<Route>.pipe()
  /// Navigation requests, handled by the flow controller.
  public var route: Signal<Route> { routePipe.output }

  private enum Request {
    case firstPage, nextPage
  }

  private let service: any PhotoService
  private let dates: PhotoDateFormat
  private var photos: [Photo] = []
  private var loadedIDs: Set<Int> = []
  private var lastPage: PhotoPage?
  /// Bumped by each first-page load, so a slower next-page result cannot land after a refresh.
  private var generation = 0
  private var failedRequest: Request?

  /// Creates the list.
  ///
  /// - Parameters:
  ///   - service: Where photos come from.
  ///   - timeZone: The zone dates are shown in; the user's own by default.
  public init(service: any PhotoService, timeZone: TimeZone = .current) {
    self.service = service
    dates = PhotoDateFormat(timeZone: timeZone)
    numberOfCells = _cells.map(\.count)
  }

  /// The screen appeared: load the first page.
  public func viewDidLoad() async {
    await loadFirstPage()
  }

  /// The user asked for fresh data: reload from the first page.
  public func refreshRequested() async {
    await loadFirstPage()
  }

  /// The user chose "retry" on the error state: repeat the request that failed.
  public func retryRequested() async {
    switch failedRequest {
    case .firstPage: await loadFirstPage()
    case .nextPage: await loadNextPage()
    case nil: break
    }
  }

  /// The user's selection or scroll position reached row `index`: near the end, load the next
  /// page.
  ///
  /// - Parameter index: The row the user reached.
  public func userReached(row index: Int) async {
    guard index >= photos.count - 1 else { return }
    await loadNextPage()
  }

  /// The user pressed row `index`: a for-sale photo opens its detail screen, any other shows
  /// "This item is not for sale" (seed 000). Indices outside the list are ignored.
  ///
  /// - Parameter index: The pressed row.
  public func userPressed(at index: Int) {
    guard photos.indices.contains(index) else { return }
    let photo = photos[index]
    if photo.forSale {
      routePipe.input.send(.detail(PhotoDetailViewModel(photo: photo, dates: dates)))
    } else {
      alertPipe.input.send(Self.notForSaleMessage)
    }
  }

  /// The row at `index`, or `nil` outside the list (seed 000's `getCellViewModel(at:)`).
  ///
  /// - Parameter index: The row.
  /// - Returns: Its view model.
  public func cellViewModel(at index: Int) -> PhotoListCellViewModel? {
    let cells = _cells.value
    return cells.indices.contains(index) ? cells[index] : nil
  }

  private func loadFirstPage() async {
    guard !_isLoading.value else { return }
    generation += 1
    set(_errorMessage, to: nil)
    _isLoading.value = true
    do {
      let page = try await service.popularPhotos(page: 1)
      photos = []
      loadedIDs = []
      append(page)
      set(_emptyStateMessage, to: photos.isEmpty ? Self.emptyMessage : nil)
      failedRequest = nil
    } catch {
      failedRequest = .firstPage
      _errorMessage.value = error.userMessage
    }
    // First-page loads never overlap (the guard above), so this result always lands.
    _isLoading.value = false
  }

  private func loadNextPage() async {
    guard !_isLoading.value, !_isLoadingNextPage.value, let lastPage, lastPage.hasNextPage
    else { return }
    let current = generation
    set(_errorMessage, to: nil)
    _isLoadingNextPage.value = true
    do {
      let page = try await service.popularPhotos(page: lastPage.currentPage + 1)
      if current == generation {
        append(page)
        failedRequest = nil
      }
    } catch {
      if current == generation {
        failedRequest = .nextPage
        _errorMessage.value = error.userMessage
      }
    }
    _isLoadingNextPage.value = false
  }

  /// Publishes `value` only if it differs, so views are not redrawn for nothing.
  private func set<Value: Equatable>(_ property: MutableProperty<Value>, to value: Value) {
    if property.value != value { property.value = value }
  }

  /// Adds a page's photos that are not already shown (a live feed shifts between requests).
  private func append(_ page: PhotoPage) {
    let fresh = page.photos.filter { loadedIDs.insert($0.id).inserted }
    photos += fresh
    lastPage = page
    set(_canLoadMore, to: page.hasNextPage)
    if photos.count == fresh.count {
      _cells.value = fresh.map { PhotoListCellViewModel(photo: $0, dates: dates) }
    } else {
      _cells.modify { $0 += fresh.map { PhotoListCellViewModel(photo: $0, dates: dates) } }
    }
  }
}
