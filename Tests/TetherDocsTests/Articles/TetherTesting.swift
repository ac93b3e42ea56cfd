import Testing
import TetherTesting

// The compiled companion of the TetherTesting catalog's landing page, TetherTesting.md.
enum TetherTestingArticle {
  struct PhotoService: Sendable {
    var count: Int
  }

  @MainActor final class PhotoListViewModel {
    @Output private(set) var isLoading = false
    @Output private(set) var statusText = "No photos yet"
    private let service: PhotoService

    init(service: PhotoService) { self.service = service }

    func viewDidLoad() async {
      isLoading = true
      statusText = "\(service.count) photos"
      isLoading = false
    }
  }

  static let service = PhotoService(count: 20)

  @MainActor @Suite struct Checks {
    @Test func theProbeAssertsEveryOutput() async {
      let viewModel = PhotoListViewModel(service: service)
      let probe = ViewModelProbe(viewModel)
      await viewModel.viewDidLoad()
      probe.expect(\.$isLoading, [true, false])
      probe.expect(\.$statusText, ["20 photos"])
      probe.finish()  // fails if any other output changed
    }
  }
}
