import Testing
import TetherTesting

// The compiled companion of the Tether catalog's landing page, Tether.md.
enum TetherArticle {
  struct PhotoCellViewModel: Equatable {
    var title: String
  }

  @MainActor final class PhotoListViewModel {
    @Output private(set) var isLoading = false  // read-only outside: `$isLoading` is a Property
    @Output private(set) var rows: [PhotoCellViewModel] = []
    @Event var alertMessage: Signal<String>

    func viewDidLoad() {
      isLoading = true
      rows = [PhotoCellViewModel(title: "Dawn")]
      isLoading = false
    }
  }

  @MainActor final class Spinner: @MainActor LifetimeProvider {
    let lifetime = Lifetime()
    var isAnimating = false
  }

  @MainActor final class PhotoListView: @MainActor LifetimeProvider {
    let lifetime = Lifetime()
    let spinner = Spinner()
    private(set) var titles: [String] = []
    func render(_ rows: [PhotoCellViewModel]) { titles = rows.map(\.title) }
  }

  @MainActor @Suite struct Checks {
    @Test func theLandingPagesBindingsFollowTheViewModel() async {
      let viewModel = PhotoListViewModel()
      let view = PhotoListView()
      view.spinner.bindable(\.isAnimating) <~ viewModel.$isLoading
      view.observe { view in view.render(viewModel.rows) }  // re-runs while the view lives
      viewModel.viewDidLoad()
      await expectEventually { view.titles == ["Dawn"] }
      #expect(!view.spinner.isAnimating)
    }
  }
}
