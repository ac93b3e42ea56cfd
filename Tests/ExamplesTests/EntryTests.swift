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
      let selected = viewModel.onUserNameSelected.record()
      await viewModel.fetchUser()
      viewModel.selectUser()
      selected.stop()
    }
  }

  @Test func fetchedNameArrivesThroughTheReadOnlyProperty() async {
    let viewModel = EntryViewModel(fetcher: BundledUserFetcher())
    // `fetchedUsers` is the private pipe feeding `userName` through `<~`, not an output.
    let probe = ViewModelProbe(viewModel, ignoring: ["fetchedUsers.output"])
    await viewModel.fetchUser()
    probe.expect(\.isFetching, [true, false])
    probe.expect(\.userName, ["Ada Lovelace"])
    probe.expect(\.canSelect, [true])
    await viewModel.fetchUser()
    probe.expect(\.isFetching, [true, false])
    probe.expect(\.userName, ["Grace Hopper"])
    probe.expect(\.canSelect, [true])
    probe.finish()
  }

  @Test func selectingBeforeFetchingDoesNothing() {
    let viewModel = EntryViewModel(fetcher: BundledUserFetcher())
    let selected = viewModel.onUserNameSelected.record()
    viewModel.selectUser()
    #expect(selected.values.isEmpty)
  }

  @Test func selectingReportsTheFetchedName() async {
    let viewModel = EntryViewModel(fetcher: BundledUserFetcher())
    let selected = viewModel.onUserNameSelected.record()
    await viewModel.fetchUser()
    viewModel.selectUser()
    selected.assertValues(["Ada Lovelace"])
  }

  @Test func failedFetchShowsItsMessageAndKeepsNoName() async {
    let viewModel = EntryViewModel(fetcher: FailingFetcher())
    await viewModel.fetchUser()
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
@Suite struct EntryFlowLogicTests {
  @Test func selectingAUserRoutesToItsGreeting() async {
    await withLeakTracking { leaks in
      let flow = leaks.track(EntryFlowLogic(fetcher: BundledUserFetcher()))
      leaks.track(flow.entry)
      let routes = flow.route.record()
      await flow.entry.fetchUser()
      flow.entry.selectUser()
      guard case .greeting(let greeting) = routes.values.first else {
        Issue.record("no greeting route")
        return
      }
      #expect(greeting.greeting == "Hello, Ada Lovelace!")
      #expect(routes.values.count == 1)
      routes.stop()
    }
  }

  @Test func nothingIsRoutedWithoutASelection() async {
    let flow = EntryFlowLogic(fetcher: BundledUserFetcher())
    let routes = flow.route.record()
    await flow.entry.fetchUser()
    #expect(routes.values.isEmpty)
  }
}
