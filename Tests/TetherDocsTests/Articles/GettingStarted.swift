import Foundation
import Testing
import TetherTesting

// The compiled companion of GettingStarted.md: its blocks, in order, with what they leave out.
enum GettingStartedArticle {
  struct Photo: Sendable {
    var name: String
    var forSale: Bool
  }

  protocol PhotoService: Sendable {
    func popularPhotos() async throws -> [Photo]
  }

  struct StubPhotoService: PhotoService {
    var photos: [Photo]
    func popularPhotos() async throws -> [Photo] { photos }
  }

  struct PhotoCellViewModel: Identifiable, Equatable {
    var id: String { title }
    var title: String
    init(_ photo: Photo) { title = photo.name }
  }

  @MainActor
  final class PhotoListViewModel {
    @Output private(set) var isLoading = false
    @Output private(set) var rows: [PhotoCellViewModel] = []

    @Event var alertMessage: Signal<String>

    private let service: any PhotoService

    init(service: some PhotoService) { self.service = service }

    func viewDidLoad() async {
      isLoading = true
      defer { isLoading = false }
      do {
        rows = try await service.popularPhotos().map(PhotoCellViewModel.init)
      } catch {
        _alertMessage.send("Failed to load photos")
      }
    }
  }

  @MainActor
  final class CartViewModel {
    @Output private(set) var items: [String] = []
    @Output private(set) var isSaving = false
    @Derived(\CartViewModel.$items, \.count) var count: Int
    @Derived({ (model: CartViewModel) in
      model.$isSaving.combineLatest(with: model.$items).map { saving, items in
        saving ? "Saving…" : "\(items.count) in the cart"
      }
    })
    var status: String
    @Event var checkedOut: Signal<[String]>

    func add(_ item: String) { items.append(item) }
    func rename(_ index: Int, to name: String) { items[index] = name }
    func checkOut() { _checkedOut.send(items) }
  }

  @MainActor
  final class PhotoListView: @MainActor LifetimeProvider {
    let lifetime = Lifetime()
    var spinnerIsAnimating = false
    var alert: String?
    private(set) var shown: [String] = []
    func reload(_ rows: [PhotoCellViewModel]) { shown = rows.map(\.title) }

    init(viewModel: PhotoListViewModel) {
      bindable(\.spinnerIsAnimating) <~ viewModel.$isLoading
      bindable(\.alert) <~ viewModel.alertMessage
      observe { view in view.reload(viewModel.rows) }
    }
  }

  @MainActor
  static func deriveState(
    name: MutableProperty<String>, email: MutableProperty<String>,
    password: MutableProperty<String>, searchText: MutableProperty<String>
  ) -> (Property<String>, Property<Bool>, Property<String>) {
    let title = name.map { "Hello, \($0)" }
    let canSubmit = email.combineLatest(with: password).map { !$0.isEmpty && $1.count >= 8 }
    let query = searchText.debounce(for: .milliseconds(300), clock: ContinuousClock())
    return (title, canSubmit, query)
  }

  struct Cell: Identifiable, Equatable {
    var id: Int
    var text: String
  }

  static func updateMinimally(oldCells: [Cell], newCells: [Cell]) throws -> [Cell] {
    let diff = ListDiff(from: oldCells, to: newCells)
    print(diff.deletions, diff.insertions, diff.moves, diff.updates)  // what a list view applies
    return try oldCells.applying(diff)
  }

  @MainActor
  @Suite struct Checks {
    @Test func theArticlesViewFollowsItsViewModel() async {
      let viewModel = PhotoListViewModel(
        service: StubPhotoService(photos: [Photo(name: "Dawn", forSale: true)]))
      let view = PhotoListView(viewModel: viewModel)
      await viewModel.viewDidLoad()
      await expectEventually { view.shown == ["Dawn"] }
      #expect(!view.spinnerIsAnimating)
    }

    @Test func theCartsOutputsDeliverChangesAndItsEventOnlyItsSends() {
      let viewModel = CartViewModel()
      let counts = viewModel.$count.record()
      let statuses = viewModel.$status.record()
      let sent = viewModel.checkedOut.record()
      viewModel.add("tea")
      viewModel.rename(0, to: "green tea")  // `items` changes, `count` does not
      viewModel.checkOut()
      counts.assertValues([0, 1])
      statuses.assertValues(["0 in the cart", "1 in the cart"])
      sent.assertValues([["green tea"]])
    }

    @Test func derivedStateFollowsItsSources() {
      let (title, canSubmit, _) = GettingStartedArticle.deriveState(
        name: MutableProperty("Ann"), email: MutableProperty("a@b.c"),
        password: MutableProperty("12345678"), searchText: MutableProperty(""))
      #expect(title.value == "Hello, Ann")
      #expect(canSubmit.value)
    }

    @Test func aDiffTurnsOldIntoNew() throws {
      let old = [Cell(id: 1, text: "a"), Cell(id: 2, text: "b")]
      let new = [Cell(id: 2, text: "b"), Cell(id: 3, text: "c")]
      #expect(try GettingStartedArticle.updateMinimally(oldCells: old, newCells: new) == new)
    }
  }
}
