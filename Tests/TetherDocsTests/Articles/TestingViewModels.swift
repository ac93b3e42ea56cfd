import Testing
import TetherTesting

// The compiled companion of TestingViewModels.md.
enum TestingViewModelsArticle {
  struct Photo: Sendable {
    var name: String
    var forSale: Bool
  }

  struct PhotoService: Sendable {
    var popularPhotos: @Sendable () async throws -> [Photo]

    static func stub(_ photos: [Photo]) -> PhotoService { PhotoService { photos } }
  }

  static let samplePhotos = [
    Photo(name: "Dawn", forSale: true), Photo(name: "东京", forSale: false),
  ]

  @MainActor
  final class PhotoListViewModel {
    @Output private(set) var isLoading = false
    @Output private(set) var titles: [String] = []
    @Event var alertMessage: Signal<String>
    @Event var showDetail: Signal<String>
    private let service: PhotoService
    private var photos: [Photo] = []

    init(service: PhotoService) { self.service = service }

    func viewDidLoad() async {
      isLoading = true
      photos = (try? await service.popularPhotos()) ?? []
      titles = photos.map(\.name)
      isLoading = false
    }

    func userSelected(row: Int) {
      guard photos.indices.contains(row) else { return }
      if photos[row].forSale {
        _showDetail.send(photos[row].name)
      } else {
        _alertMessage.send("This item is not for sale")
      }
    }
  }

  @MainActor
  final class PhotoListView: @MainActor LifetimeProvider {
    let lifetime = Lifetime()
    var spinner = false
    init(viewModel: PhotoListViewModel) { bindable(\.spinner) <~ viewModel.$isLoading }
  }

  struct SearchClient: Sendable {
    var search: @Sendable (String) async -> [String]
  }

  @MainActor
  final class SearchViewModel {
    @Output private(set) var isSearching = false
    @Output private(set) var results: [String] = []
    private let query = MutableProperty("")
    private let search: Command<String, [String], Never>
    private var tokens: Set<ObservationToken> = []

    init(client: SearchClient, clock: some Clock<Duration>) {
      search = Command(reentry: .replace) { (text: String) async throws(Never) in
        await client.search(text)
      }
      query.skipRepeats().debounce(for: .milliseconds(300), clock: clock)
        .observe { [weak self] text in if !text.isEmpty { self?.search.start(text) } }
        .store(in: &tokens)
      search.isExecuting.observe { [weak self] in self?.isSearching = $0 }.store(in: &tokens)
      search.values.observe { [weak self] in self?.results = $0 }.store(in: &tokens)
    }

    func queryChanged(_ text: String) { query.value = text }
  }

  static let client = SearchClient { text in ["\(text) 1", "\(text) 2", "\(text) 3"] }
  static let service = PhotoService.stub(samplePhotos)

  @MainActor @Suite struct PhotoListViewModelTests {
    @Test func loadingGoesTrueThenFalse() async {
      let viewModel = PhotoListViewModel(service: .stub(samplePhotos))
      let loading = viewModel.$isLoading.record()
      await viewModel.viewDidLoad()
      loading.assertValues([false, true, false])
    }

    @Test func notForSalePhotoShowsAlert() async {
      let viewModel = PhotoListViewModel(service: .stub(samplePhotos))
      await viewModel.viewDidLoad()
      let probe = ViewModelProbe(viewModel)

      viewModel.userSelected(row: 1)

      probe.expect(\.alertMessage, ["This item is not for sale"])
      probe.finish()  // fails if, say, `showDetail` also fired
    }

    @Test func viewAndViewModelAreReleased() async {
      await withLeakTracking { leaks in
        let viewModel = leaks.track(PhotoListViewModel(service: service))
        let view = leaks.track(PhotoListView(viewModel: viewModel))
        await viewModel.viewDidLoad()
        _ = view
      }
    }

    @Test func aSearchWaitsForTheQueryToSettle() async {
      let clock = TestClock()
      let viewModel = SearchViewModel(client: client, clock: clock)
      viewModel.queryChanged("swift")
      await clock.advance(by: .milliseconds(300))
      await expectEventually { viewModel.results.count == 3 }
    }
  }
}
