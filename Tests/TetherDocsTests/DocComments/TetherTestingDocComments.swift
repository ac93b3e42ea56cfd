import Clocks
import Testing
import Tether
import TetherFlow
import TetherTesting

// The compiled companion of the Swift blocks in the doc comments of `Sources/TetherTesting`
// (DocSnippetTests checks that each appears here). The two `@Test`s run, on stand-ins.
@MainActor
@Suite struct TetherTestingDocComments {
  struct Photo: Sendable { var id: Int }
  struct PhotoService: Sendable {
    var photos: [Photo]
    static func stub(_ photos: [Photo]) -> PhotoService { PhotoService(photos: photos) }
  }
  @MainActor final class PhotoListViewModel {
    private let service: PhotoService
    @Output private(set) var isLoading = false
    @Output private(set) var cells: [Int] = []
    init(service: PhotoService) { self.service = service }
    func viewDidLoad() async {
      isLoading = true
      await Task.yield()
      cells = service.photos.map(\.id)
      isLoading = false
    }
  }
  @MainActor final class PhotoListView {
    let viewModel: PhotoListViewModel
    init(viewModel: PhotoListViewModel) { self.viewModel = viewModel }
  }
  let photos = (1...20).map { Photo(id: $0) }
  var service: PhotoService { .stub(photos) }

  // Sources/TetherTesting/LeakTracker.swift
  @Test func viewModelIsReleased() async {
    await withLeakTracking { leaks in
      let viewModel = leaks.track(PhotoListViewModel(service: service))
      let view = leaks.track(PhotoListView(viewModel: viewModel))
      await viewModel.viewDidLoad()
      _ = view
    }  // fails, naming the type, if a closure cycle keeps either alive
  }

  // Sources/TetherTesting/ViewModelProbe.swift
  @Test func loadShowsCells() async {
    let viewModel = PhotoListViewModel(service: .stub(photos))
    let probe = ViewModelProbe(viewModel)

    await viewModel.viewDidLoad()

    probe.expect(\.$isLoading, [true, false])
    probe.expect(\.$cells) { $0.last?.count == 20 }
  }  // `alertMessage` changed? The test fails: "alertMessage changed without an assertion…"

  // Sources/TetherTesting/Recorder.swift
  @MainActor final class LoadingViewModel {
    private let loading = MutableProperty(false)
    var isLoading: Property<Bool> { loading }
    func viewDidLoad() async {
      loading.value = true
      loading.value = false
    }
  }
  static func recording(viewModel: LoadingViewModel) async {
    let loading = viewModel.isLoading.record()
    await viewModel.viewDidLoad()
    loading.assertValues([false, true, false])
  }

  // Sources/TetherTesting/ExpectEventually.swift
  static func eventually(
    query: MutableProperty<String>, debounced: Property<String>, clock: TestClock<Duration>
  ) async {
    query.value = "swift"
    await clock.advance(by: .milliseconds(300))
    await expectEventually { debounced.value == "swift" }
  }

  // Sources/TetherTesting/RecordingNavigator.swift
  enum ShowcaseDestination { case home, gallery }
  struct Services { let home: HomeViewModel }
  @MainActor final class HomeViewModel {
    let route = Signal<Int>.pipe()
    func userSelected(row: Int) { route.input.send(row) }
  }
  @MainActor final class AppFlow: FlowController {
    private let lifetime = Lifetime()
    let home: HomeViewModel
    init(services: Services) { home = services.home }
    func start(on navigator: any Navigator<ShowcaseDestination>) -> Screen<ShowcaseDestination> {
      home.route.output.observe { [weak navigator] _ in
        navigator?.push(Screen(.gallery, title: "Popular", path: ["gallery"]))
      }
      .store(in: lifetime)
      return Screen(.home, title: "Tether showcase", owner: self)
    }
  }
  static func navigating(services: Services, homeViewModel: HomeViewModel) {
    let navigator = RecordingNavigator<ShowcaseDestination>()
    AppFlow(services: services).startFlow(on: navigator)  // TetherFlow's helper
    homeViewModel.userSelected(row: 0)
    navigator.assertEvents([.setRoot("Tether showcase"), .push("Popular")])
    #expect(navigator.path == "/gallery")
  }

  // Sources/TetherTesting/SeededRandomNumberGenerator.swift
  static func seeded() {
    var random = SeededRandomNumberGenerator(seed: 42)
    let script = (0..<100).map { _ in Int.random(in: 0..<4, using: &random) }
    _ = script
  }
}
