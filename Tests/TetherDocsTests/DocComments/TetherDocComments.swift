import Clocks
import Foundation
import Testing
import Tether

// The compiled companion of the Swift blocks in the doc comments of `Sources/Tether`: each
// block appears here, line for line, with the stand-ins it needs around it
// (DocSnippetTests checks it). Nothing here runs; it must compile.
enum TetherDocComments {
  // Stand-ins for the UI a block binds to.
  final class Label: LifetimeProvider {
    let lifetime = Lifetime()
    var text = ""
    var isHidden = false
  }
  final class Spinner: LifetimeProvider {
    let lifetime = Lifetime()
    var isHidden = false
    var isAnimating = false
  }
  struct ServiceError: Error {
    var isTransient: Bool { true }
  }
  struct Course: Sendable {}
  protocol CourseService: Sendable {
    func courses() async throws(ServiceError) -> [Course]
  }
  struct Photo {
    var id = 1
    var forSale = true
  }
  struct PhotoListCellViewModel: Identifiable, Equatable {
    var id = 1
    init(_ photo: Photo) { id = photo.id }
  }
  struct PhotoService {
    func photos() async throws -> [Photo] { [] }
  }

  // Sources/Tether/BindingOperator.swift, BindingTarget.swift
  final class PhotoCell: LifetimeProvider {
    let lifetime = Lifetime()
    var title = ""
  }
  @MainActor static func bindings(viewModel: TitleViewModel, lifetime: Lifetime) {
    let label = Label()
    label.bindable(\.text) <~ viewModel.title
    let titleLabel = Label()
    BindingTarget(titleLabel, \.text, lifetime: lifetime) <~ viewModel.title
    let cell = PhotoCell()
    let spinner = Spinner()
    cell.bindable(\.title) <~ viewModel.title
    spinner.bindable(\.isHidden) <~ viewModel.isLoading.map { !$0 }
  }
  @MainActor final class TitleViewModel {
    let title = Property(value: "Photos")
    let isLoading = Property(value: false)
  }

  // Sources/Tether/Command.swift
  enum CommandExample {
    @MainActor final class CourseListViewModel {
      let load: Command<Void, [Course], ServiceError>
      var isLoading: Property<Bool> { load.isExecuting }

      init(service: any CourseService) {
        load = Command { () async throws(ServiceError) in try await service.courses() }
      }
    }

    @MainActor static func use(_ viewModel: CourseListViewModel) async {
      let outcome = await viewModel.load.run()  // a test awaits the run and its outcome
      viewModel.load.start()  // a view's Retry button starts it and returns
      _ = outcome
    }
  }

  // Sources/Tether/RetryPolicy.swift
  @MainActor static func retry(service: any CourseService) {
    let load: Command<Void, [Course], ServiceError>
    load = Command(retry: .exponentialBackoff(maximumAttempts: 4, when: \.isTransient)) {
      () async throws(ServiceError) in try await service.courses()
    }
    _ = load
  }

  // Sources/Tether/Debugging.swift, Signal+Sequencing.swift
  struct Purchase { var amount: Int }
  @MainActor static func signals(
    saveTapped: Signal<Void>, title: Property<String>, purchases: Signal<Purchase>,
    submitTapped: Signal<Void>, text: Property<String>, saves: Signal<Void>
  ) {
    let saved = saveTapped.debug("save tapped").withLatestFrom(title).map { $1 }
    let status: Signal<String> = saves.map { _ in "Saved" }.prepend("Not saved yet")
    let total: Signal<Int> = purchases.scan(0) { sum, purchase in sum + purchase.amount }
    let submitted: Signal<String> = submitTapped.withLatestFrom(text).map { $1 }
    _ = (saved, total, submitted, status)
  }

  // Sources/Tether/Derived.swift
  enum DerivedExample {
    @MainActor final class PhotoListViewModel {
      @Output private(set) var rows: [PhotoListCellViewModel] = []
      @Output private(set) var isLoadingMore = false
      @Derived(\PhotoListViewModel.$rows, \.count) var numberOfCells: Int
      @Derived({ (model: PhotoListViewModel) in
        model.$isLoadingMore.combineLatest(with: model.$rows).map { loading, rows in
          loading ? "Loading more photos…" : "\(rows.count) photos"
        }
      })
      var statusText: String
    }

    @MainActor static func use(_ viewModel: PhotoListViewModel, label: Label, lifetime: Lifetime) {
      func render(_ count: Int) {}
      label.bindable(\.text) <~ viewModel.$statusText
      observe { render(viewModel.numberOfCells) }.store(in: lifetime)  // a read is tracked
    }
  }

  // Sources/Tether/Event.swift
  enum EventExample {
    enum Route { case detail(Int) }
    @MainActor final class Navigator { func show(_ route: Route) {} }

    @MainActor final class PhotoListViewModel {
      @Event var route: Signal<Route>

      func userPressed(_ photo: Photo) {
        if photo.forSale { _route.send(.detail(photo.id)) }
      }
    }

    @MainActor static func use(_ viewModel: PhotoListViewModel, navigator: Navigator) {
      let token = viewModel.route.observe { route in navigator.show(route) }  // the read-only side
      _ = token
    }
  }

  // Sources/Tether/Signal.swift
  enum SignalExample {
    @MainActor final class PhotoListViewModel {
      private var photos: [Photo] = []
      @Event var alertMessage: Signal<String>

      func userPressed(at index: Int) {
        if !photos[index].forSale { _alertMessage.send("This item is not for sale") }
      }
    }
  }

  // Sources/Tether/Lifetime.swift
  @MainActor final class ProfileHeaderViewModel {
    let nickname = Property(value: "@ada")
    let bio = Property(value: "")
  }
  @MainActor final class ProfileHeaderView: @MainActor LifetimeProvider {
    let lifetime = Lifetime()
    let name = Label()
    let bio = Label()

    func bind(to viewModel: ProfileHeaderViewModel) {
      BindingTarget(name, \.text, lifetime: lifetime) <~ viewModel.nickname
      viewModel.bio.observe { [weak self] in self?.bio.text = $0 }.store(in: lifetime)
    }
  }
  enum LifetimeExample {
    @MainActor final class PhotoListView: @MainActor LifetimeProvider {
      let lifetime = Lifetime()
    }
  }

  // Sources/Tether/LifetimeProvider+Observe.swift
  @MainActor final class CounterViewModel {
    let count = Property(value: 0)
    let title = Property(value: "Counter")
    let route = Signal<Photo>.pipe().output
  }
  enum LifetimeObserveExample {
    @MainActor final class CounterView: @MainActor LifetimeProvider {
      let lifetime = Lifetime()
      var text = ""

      init(viewModel: CounterViewModel) {
        observe { [weak self] in self?.text = "Count: \(viewModel.count.value)" }
      }
    }

    @MainActor final class TitledView: @MainActor LifetimeProvider {
      let lifetime = Lifetime()
      var text = ""
      var title = ""

      func bind(_ viewModel: CounterViewModel) {
        observe { view in view.text = "Count: \(viewModel.count.value)" }
        viewModel.title.observe(for: self) { view, title in view.title = title }
      }
    }

    @MainActor final class PhotoFlow: @MainActor LifetimeProvider {
      let lifetime = Lifetime()
      func showDetail(of photo: Photo) {}

      func bind(_ viewModel: CounterViewModel) {
        viewModel.route.observe(for: self) { flow, photo in flow.showDetail(of: photo) }
      }
    }
  }

  // Sources/Tether/ListDiff.swift
  struct Cell: Identifiable, Equatable { var id: Int }
  @MainActor final class ListView { func apply(_ diff: ListDiff<Cell>) {} }
  @MainActor static func diffs(oldCells: [Cell], newCells: [Cell], list: ListView) throws {
    let diff = ListDiff(from: oldCells, to: newCells)
    list.apply(diff)  // a view applies the minimal update
    assert((try? oldCells.applying(diff)) == newCells)
  }
  static func indices(a: Cell, b: Cell, c: Cell) {
    let diff = ListDiff(from: [a, b, c], to: [c, a])
    let positions = diff.newIndices()  // [1, nil, 0]
    _ = positions
  }

  // Sources/Tether/ObservationToken.swift
  enum TokenExample {
    @MainActor final class PhotoListViewModel { let isLoading = Property(value: false) }
    @MainActor
    final class PhotoListView {
      private let lifetime = Lifetime()
      private let spinner = Spinner()

      init(viewModel: PhotoListViewModel) {
        viewModel.isLoading.observe { [weak self] in self?.spinner.isHidden = !$0 }
          .store(in: lifetime)
      }
    }
  }

  // Sources/Tether/Observe.swift
  @MainActor final class RenderedView {
    var rows: [String] = []
    func render(isLoading: Bool, cells: [Cell]) {}
    func render(_ items: [String], _ total: Int) {}
  }
  @MainActor final class CellsViewModel {
    let isLoading = Property(value: false)
    let cells = Property(value: [Cell]())
  }
  @MainActor final class CartModel {
    @Output var items: [String] = []
    @Output var total = 0
    func add(_ item: String) { items.append(item) }
  }
  @MainActor static func observing(
    view: RenderedView, viewModel: CellsViewModel, model: CartModel, lifetime: Lifetime
  ) {
    observe { [weak view] in
      view?.render(isLoading: viewModel.isLoading.value, cells: viewModel.cells.value)
    }
    .store(in: lifetime)
    observe(debug: "cart view") { view.render(model.items, model.total) }
      // cart view: first run
      // cart view: runs again: a Property<Int> it read became 12
      .store(in: lifetime)
  }
  @MainActor static func flushing(viewModel: CartModel, view: RenderedView) {
    viewModel.add("tea")
    flushObservations()
    #expect(view.rows == ["tea"])
  }

  // Sources/Tether/Output.swift
  enum OutputExample {
    @MainActor final class PhotoListViewModel {
      private let service = PhotoService()
      @Output private(set) var isLoading = false
      @Output private(set) var rows: [PhotoListCellViewModel] = []

      func viewDidLoad() async throws {
        isLoading = true  // delivered to observers, in order
        rows = try await service.photos().map(PhotoListCellViewModel.init)
        isLoading = false
      }
    }

    @MainActor final class PhotoListView { func render(_ rows: [PhotoListCellViewModel]) {} }

    @MainActor static func use(
      _ viewModel: PhotoListViewModel, spinner: Spinner, view: PhotoListView, lifetime: Lifetime
    ) {
      spinner.bindable(\.isAnimating) <~ viewModel.$isLoading  // the read-only face
      observe { [weak view] in view?.render(viewModel.rows) }  // a read is tracked
        .store(in: lifetime)
    }
  }

  // Sources/Tether/Property+AsyncSequence.swift
  struct Connection { var statusUpdates: AsyncStream<String> }
  struct Price { var formatted: String }
  struct Feed { var prices: AsyncThrowingStream<Price, any Error> }
  @MainActor static func sequences(
    connection: Connection, feed: Feed, errorMessage: MutableProperty<String>,
    viewModel: CellsViewModel
  ) async {
    let status = Property(initial: "Connecting…", then: connection.statusUpdates)
    let price = Property(initial: "—", then: feed.prices.map(\.formatted)) { error in
      errorMessage.value = "The price feed stopped: \(error)"
    }
    for await isLoading in viewModel.isLoading.values where !isLoading { break }
    _ = (status, price)
  }

  // Sources/Tether/Property+Logic.swift, Property+Operators.swift, Property+Timing.swift
  struct Field { var isValid: Property<Bool> }
  struct PhotoDetail {}
  @MainActor final class DetailStore {
    func detail(for photo: Int) -> Property<PhotoDetail> { Property(value: PhotoDetail()) }
  }
  @MainActor static func operators(
    fields: [Field], name: Property<String>, email: Property<String>,
    password: Property<String>, selectedPhoto: Property<Int>, store: DetailStore,
    searchText: Property<String>, clock: TestClock<Duration>
  ) {
    let allValid = Property.combineLatest(fields.map(\.isValid)).map { $0.allSatisfy { $0 } }
    let title: Property<String> = name.map { "Hello, \($0)" }
    let canSubmit = email.combineLatest(with: password).map { !$0.isEmpty && $1.count >= 8 }
    // The detail of whichever photo is selected; edits to a previous selection are ignored.
    let detail = selectedPhoto.flatMapLatest { photo in store.detail(for: photo) }
    let query = searchText.debounce(for: .milliseconds(300), clock: clock)
    _ = (allValid, title, canSubmit, detail, query)
  }

  // Sources/Tether/Property+Timing.swift: delay and timeout
  enum Reply { case text(String), timedOut }
  @MainActor static func timing(
    status: Property<String>, answers: Signal<Reply>, clock: TestClock<Duration>
  ) {
    let banner = status.delay(for: .seconds(2), clock: clock)  // a toast that lags its cause
    let reply: Signal<Reply> = answers.timeout(
      after: .seconds(5), clock: clock, fallback: .timedOut)
    _ = (banner, reply)
  }

  // Sources/Tether/Property.swift
  enum PropertyExample {
    @MainActor
    final class PhotoListViewModel {
      private let _isLoading = MutableProperty(false)
      var isLoading: Property<Bool> { _isLoading }  // outputs are read-only by type
    }

    @MainActor static func use(_ viewModel: PhotoListViewModel, spinner: Spinner) {
      // Runs now, then on each change.
      let token = viewModel.isLoading.observe { spinner.isAnimating = $0 }
      _ = token
    }

    struct User { var name: String }
    struct UserFetcher { func fetchUser() async throws -> User { User(name: "Ada") } }

    @MainActor final class EntryViewModel {
      private let fetcher = UserFetcher()
      private let _userName = MutableProperty<String?>(nil)
      var userName: Property<String?> { _userName }

      func fetchUser() async {
        _userName.value = try? await fetcher.fetchUser().name
      }
    }

    struct SelectableCell { var isSelected = false }
    @MainActor static func modifying(cells: MutableProperty<[SelectableCell]>, index: Int) {
      cells.modify { $0[index].isSelected = true }
    }
  }
}
