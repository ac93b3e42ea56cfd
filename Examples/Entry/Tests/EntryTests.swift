import Entry
import ExampleSupport
import Testing
import TetherTesting

struct FailingFetcher: UserFetcher {
  func fetchUser() async throws(ServiceError) -> User { throw .noConnection }
}

@MainActor
@Suite struct EntryViewModelTests {
  @Test func viewModelIsReleasedWithItsFetcherCallbacks() async {
    await withLeakTracking { leaks in
      let viewModel = leaks.track(EntryViewModel(fetcher: BundledUserFetcher()))
      let selected = viewModel.route.record()
      await viewModel.fetchRequested()
      viewModel.selectRequested()
      selected.stop()
    }
  }

  @Test func fetchedNameArrivesThroughTheReadOnlyProperty() async {
    let viewModel = EntryViewModel(fetcher: BundledUserFetcher())
    // `fetchedUsers` is the private pipe feeding `userName` through `<~`, not an output.
    let probe = ViewModelProbe(viewModel, ignoring: ["fetchedUsers.output"])
    await viewModel.fetchRequested()
    probe.expect(\.isFetching, [true, false])
    probe.expect(\.userName, ["Ada Lovelace"])
    probe.expect(\.userText, ["User: Ada Lovelace"])
    probe.expect(\.canSelect, [true])
    await viewModel.fetchRequested()
    probe.expect(\.isFetching, [true, false])
    probe.expect(\.userName, ["Grace Hopper"])
    probe.expect(\.userText, ["User: Grace Hopper"])
    probe.expect(\.canSelect, [true])
    probe.finish()
  }

  @Test func selectingBeforeFetchingDoesNothing() {
    let viewModel = EntryViewModel(fetcher: BundledUserFetcher())
    let selected = viewModel.route.record()
    viewModel.selectRequested()
    #expect(selected.values.isEmpty)
  }

  @Test func selectingRoutesToTheFetchedUsersGreeting() async throws {
    let viewModel = EntryViewModel(fetcher: BundledUserFetcher())
    let selected = viewModel.route.record()
    await viewModel.fetchRequested()
    viewModel.selectRequested()
    guard case .greeting(let greeting) = try #require(selected.values.first) else { return }
    #expect(greeting.userName == "Ada Lovelace")
    #expect(greeting.greeting.value == "Hello, Ada Lovelace!")
    #expect(greeting.title == "Greeting")
    #expect(selected.values.count == 1)
  }

  @Test func failedFetchShowsItsMessageAndKeepsNoName() async {
    let viewModel = EntryViewModel(fetcher: FailingFetcher())
    await viewModel.fetchRequested()
    #expect(viewModel.errorMessage.value == "No Network")
    #expect(viewModel.userName.value == nil)
    #expect(viewModel.canSelect.value == false)
  }

  @Test func userNameIsReadOnlyByType() {
    let viewModel = EntryViewModel(fetcher: BundledUserFetcher())
    // `Property(_:)` hides the mutable property: the output cannot be downcast and set.
    #expect(!(viewModel.userName is MutableProperty<String?>))
  }
}

@MainActor
@Suite struct EntryRouteTests {
  @Test func selectingAgainAfterANewFetchGreetsTheNewUser() async {
    await withLeakTracking { leaks in
      let entry = leaks.track(EntryViewModel(fetcher: BundledUserFetcher()))
      let routes = entry.route.record()
      await entry.fetchRequested()
      await entry.fetchRequested()
      entry.selectRequested()
      let names = routes.values.map { route in
        switch route {
        case .greeting(let greeting): greeting.userName
        }
      }
      #expect(names == ["Grace Hopper"])
      routes.stop()
    }
  }

  @Test func nothingIsRoutedWithoutASelection() async {
    let entry = EntryViewModel(fetcher: BundledUserFetcher())
    let routes = entry.route.record()
    await entry.fetchRequested()
    #expect(routes.values.isEmpty)
  }
}
