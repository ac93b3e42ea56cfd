import Foundation
import Testing
import TetherTesting

// Seed 000's gallery, rewritten with Tether: the closures `reloadTableViewClosure`,
// `updateLoadingStatus` and `showAlertClosure` become read-only properties and signals, and the
// view binds them in a few lines. This file shows the intended usage end to end.

struct Photo: Equatable, Sendable {
  var id: Int
  var name: String
  var description: String?
  var createdAt: Date
  var imageURL: String
  var forSale: Bool
  var camera: String?
}

/// The service, injected through `init` as a protocol (as `Examples/Gallery` does).
protocol PhotoService: Sendable {
  func popularPhotos() async throws -> [Photo]
}

/// A service answering from a closure, for tests: `.stub(samplePhotos)`.
struct StubPhotoService: PhotoService {
  var answer: @Sendable () async throws -> [Photo]

  func popularPhotos() async throws -> [Photo] { try await answer() }
}

extension PhotoService where Self == StubPhotoService {
  /// Answers `photos` to every request.
  static func stub(_ photos: [Photo]) -> StubPhotoService { StubPhotoService { photos } }
}

struct PhotoListCellViewModel: Equatable, Identifiable {
  var id: Int
  var titleText: String
  var descText: String
  var imageURL: String
  var dateText: String
}

@MainActor final class PhotoListViewModel {
  @Output private(set) var isLoading = false  // an output: `$isLoading` is read-only
  @Output private(set) var rows: [PhotoListCellViewModel] = []
  @Event var alertMessage: Signal<String>  // a one-shot event: only `_alertMessage` sends
  @Event var route: Signal<Photo>  // a for-sale photo's detail

  func userSelected(row index: Int) {
    guard photos.indices.contains(index) else { return }
    if photos[index].forSale {
      _route.send(photos[index])
    } else {
      _alertMessage.send("This item is not for sale")
    }
  }

  private let service: any PhotoService
  private var photos: [Photo] = []
  let numberOfCells: Property<Int>

  private let dateFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter
  }()

  init(service: some PhotoService) {
    self.service = service
    numberOfCells = _rows.projectedValue.map(\.count)  // `$rows` once `self` is ready
  }

  func viewDidLoad() async {
    isLoading = true
    do {
      photos = try await service.popularPhotos()
      rows = photos.map(makeCell)
    } catch {
      _alertMessage.send("Failed to load photos: \(error)")
    }
    isLoading = false
  }

  private func makeCell(_ photo: Photo) -> PhotoListCellViewModel {
    let parts = [photo.camera, photo.description]
      .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
      .filter { !$0.isEmpty }
    return PhotoListCellViewModel(
      id: photo.id, titleText: photo.name, descText: parts.joined(separator: " - "),
      imageURL: photo.imageURL, dateText: dateFormatter.string(from: photo.createdAt))
  }
}

/// The view side: a passive object that binds in a few lines.
@MainActor
final class PhotoListView: @MainActor LifetimeProvider {
  let lifetime = Lifetime()
  var spinnerIsAnimating = false
  var rows: [String] = []
  var presentedAlert: String?
  var renderCount = 0

  init(viewModel: PhotoListViewModel) {
    bindable(\.spinnerIsAnimating) <~ viewModel.$isLoading
    bindable(\.presentedAlert) <~ viewModel.alertMessage
    observe { view in  // re-runs while the view lives; no token to keep
      view.rows = viewModel.rows.map { "\($0.titleText) | \($0.descText) | \($0.dateText)" }
      view.renderCount += 1
    }
  }
}

private actor CallCounter {
  private(set) var count = 0
  func increment() { count += 1 }
}

private struct ServiceError: Error, CustomStringConvertible {
  var description: String { "No Network" }
}

private let day = Date(timeIntervalSince1970: 1_506_853_411)  // 2017-10-01T10:23:31Z

private let samplePhotos = [
  Photo(
    id: 1, name: "Dawn", description: "  Morning light\n", createdAt: day,
    imageURL: "https://img/1", forSale: true, camera: "Nikon D810"),
  Photo(
    id: 2, name: "东京", description: nil, createdAt: day, imageURL: "https://img/2",
    forSale: false, camera: "Canon"),
  Photo(
    id: 3, name: "Untitled", description: "", createdAt: day, imageURL: "https://img/3",
    forSale: false, camera: nil),
]

@MainActor
@Suite struct PhotoListViewModelTests {
  @Test func fetchIsCalledOnLoad() async {
    let counter = CallCounter()
    let viewModel = PhotoListViewModel(
      service: StubPhotoService {
        await counter.increment()
        return []
      })
    await viewModel.viewDidLoad()
    #expect(await counter.count == 1)
  }

  @Test func loadingGoesTrueThenFalse() async {
    let viewModel = PhotoListViewModel(service: .stub(samplePhotos))
    let loading = viewModel.$isLoading.record()
    await viewModel.viewDidLoad()
    loading.assertValues([false, true, false])
  }

  @Test func loadIsExhaustivelyAsserted() async {
    let viewModel = PhotoListViewModel(service: .stub(samplePhotos))
    let probe = ViewModelProbe(viewModel)
    await viewModel.viewDidLoad()
    probe.expect(\.$isLoading, [true, false])
    probe.expect(\.numberOfCells, [3])
    probe.expect(\.$rows) { $0.last?.map(\.titleText) == ["Dawn", "东京", "Untitled"] }
    probe.finish()
  }

  @Test func cellTextSkipsMissingCameraOrDescription() async {
    let viewModel = PhotoListViewModel(service: .stub(samplePhotos))
    await viewModel.viewDidLoad()
    let cells = viewModel.rows
    #expect(cells.map(\.descText) == ["Nikon D810 - Morning light", "Canon", ""])
    #expect(cells.allSatisfy { $0.dateText == "2017-10-01" })
  }

  @Test func failureShowsTheErrorMessage() async {
    let viewModel = PhotoListViewModel(service: StubPhotoService { throw ServiceError() })
    let probe = ViewModelProbe(viewModel)
    await viewModel.viewDidLoad()
    probe.expect(\.alertMessage, ["Failed to load photos: No Network"])
    probe.expect(\.$isLoading, [true, false])
    probe.finish()
  }

  @Test func pressingAForSalePhotoRoutesToDetail() async {
    let viewModel = PhotoListViewModel(service: .stub(samplePhotos))
    await viewModel.viewDidLoad()
    let probe = ViewModelProbe(viewModel)
    viewModel.userSelected(row: 0)
    probe.expect(\.route) { $0.map(\.id) == [1] }
    probe.finish()
  }

  @Test func notForSalePhotoShowsAlert() async {
    await withLeakTracking { leaks in  // fails if the view model leaks
      let viewModel = leaks.track(PhotoListViewModel(service: .stub(samplePhotos)))
      await viewModel.viewDidLoad()
      let probe = ViewModelProbe(viewModel)  // records every output
      viewModel.userSelected(row: 1)
      viewModel.userSelected(row: 99)  // out of range: ignored, no crash
      probe.expect(\.alertMessage, ["This item is not for sale"])
      probe.finish()  // fails on any unasserted change
    }
  }

  @Test func boundViewFollowsTheViewModelAndNothingLeaks() async {
    await withLeakTracking { leaks in
      let viewModel = leaks.track(PhotoListViewModel(service: .stub(samplePhotos)))
      let view = leaks.track(PhotoListView(viewModel: viewModel))
      #expect(view.rows.isEmpty)

      await viewModel.viewDidLoad()
      await expectEventually { view.rows.count == 3 }
      #expect(view.spinnerIsAnimating == false)
      #expect(view.rows.first == "Dawn | Nikon D810 - Morning light | 2017-10-01")
      #expect(view.rows.count == 3)

      viewModel.userSelected(row: 2)
      #expect(view.presentedAlert == "This item is not for sale")
    }
  }
}
