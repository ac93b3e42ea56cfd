import Foundation
import Synchronization
import Testing
import TetherTesting

// The compiled companion of DataThatChangesUnderYou.md.
enum DataThatChangesUnderYouArticle {
  struct Shelf: Equatable, Sendable {
    var books: [Book] = []
    /// Grows with every change: a newer snapshot has a greater version.
    var version = 0
  }

  struct Book: Identifiable, Equatable, Sendable {
    var id: String
    var title: String
  }

  protocol ShelfStore: Sendable {
    func load() async throws -> Shelf
    /// Adds `book` unless a book with its id is there: adding it twice adds it once.
    func add(_ book: Book) async throws -> Int
    /// The shelf after every change from now on, whoever made it.
    func changes() -> AsyncStream<Shelf>
  }

  final class InMemoryShelfStore: ShelfStore {
    private struct State {
      var shelf = Shelf()
      var subscribers: [UUID: AsyncStream<Shelf>.Continuation] = [:]
    }
    private let state = Mutex(State())

    func load() -> Shelf { state.withLock { $0.shelf } }

    func add(_ book: Book) -> Int {
      state.withLock { state in
        guard !state.shelf.books.contains(where: { $0.id == book.id }) else {
          return state.shelf.version
        }
        state.shelf.books.append(book)
        state.shelf.version += 1
        for subscriber in state.subscribers.values { subscriber.yield(state.shelf) }
        return state.shelf.version
      }
    }

    func changes() -> AsyncStream<Shelf> {
      let (stream, continuation) = AsyncStream.makeStream(
        of: Shelf.self, bufferingPolicy: .bufferingNewest(1))
      let id = UUID()
      state.withLock { $0.subscribers[id] = continuation }
      continuation.onTermination = { [weak self] _ in
        self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
      }
      return stream
    }
  }

  @MainActor
  final class ShelfViewModel {
    @Output private(set) var titles: [String] = []
    @Output private(set) var errorMessage: String? = nil

    private let store: any ShelfStore
    private let stored: Property<Shelf?>
    private var storedToken: ObservationToken?
    private var confirmed = Shelf()
    /// Added here, not yet in a snapshot: shown on top of the newest one.
    private var pending: [Book] = []

    init(store: any ShelfStore) {
      self.store = store
      stored = Property(initial: nil, then: store.changes().map { Optional($0) })
      storedToken = stored.observe { [weak self] shelf in
        guard let self, let shelf else { return }
        receive(shelf)
      }
    }

    func viewDidLoad() async {
      do {
        receive(try await store.load())
      } catch {
        errorMessage = "The shelf could not be loaded."
      }
    }

    /// Adds a book, shown at once and kept when the store has it.
    ///
    /// - Parameters:
    ///   - title: The book's title.
    ///   - id: The new book's id, chosen here: sending the same add again adds nothing.
    func addRequested(title: String, id: String = UUID().uuidString) async {
      let book = Book(id: id, title: title)
      pending.append(book)
      refresh()
      do {
        _ = try await store.add(book)
        errorMessage = nil
      } catch {
        errorMessage = "Not saved yet: it stays on this screen."
      }
    }

    private func receive(_ shelf: Shelf) {
      // A snapshot older than the one shown arrived late: it would take changes away.
      guard shelf.version > confirmed.version || confirmed.version == 0 else { return }
      confirmed = shelf
      pending.removeAll { book in shelf.books.contains { $0.id == book.id } }
      refresh()
    }

    private func refresh() {
      let shown =
        confirmed.books
        + pending.filter { book in
          !confirmed.books.contains { $0.id == book.id }
        }
      titles = shown.map(\.title)
    }
  }
}

extension DataThatChangesUnderYouArticle {
  @Suite struct Tests {
    @MainActor
    @Test func anAddInOneScreenReachesTheOther() async throws {
      let store: any ShelfStore = InMemoryShelfStore()
      let first = ShelfViewModel(store: store)
      let second = ShelfViewModel(store: store)
      await first.viewDidLoad()
      await second.viewDidLoad()
      let titles = second.$titles.record()

      await first.addRequested(title: "Dune", id: "b1")
      await first.addRequested(title: "Dune", id: "b1")  // sent again: added once

      await expectEventually { second.titles == ["Dune"] }
      #expect(titles.values == [[], ["Dune"]])
      #expect(try await store.load().books.count == 1)
    }
  }
}
