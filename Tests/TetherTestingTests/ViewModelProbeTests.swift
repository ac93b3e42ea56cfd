import Foundation
import Testing
import TetherTesting

@MainActor
private final class CounterViewModel {
  private let _count = MutableProperty(0)
  var count: Property<Int> { _count }
  let isEven: Property<Bool>
  private let messagePipe = Signal<String>.pipe()
  var message: Signal<String> { messagePipe.output }
  var doubledEachTime: Property<Int> { _count.map { $0 * 2 } }

  init() {
    isEven = _count.map { $0.isMultiple(of: 2) }
  }

  func increment() {
    _count.value += 1
    if _count.value == 3 { messagePipe.input.send("three") }
  }
}

@MainActor
private final class WrappedOutputViewModel {
  private let _name = MutableProperty("")
  let name: Property<String>
  private let requests = Signal<String>.pipe()

  init() {
    name = Property(_name)
    _name <~ requests.output
  }

  func rename(_ value: String) { requests.input.send(value) }
}

@MainActor
private final class SearchViewModel {
  /// An input: the search field writes it.
  let query = MutableProperty("")
  @Derived(\SearchViewModel.query, { $0.trimmingCharacters(in: .whitespaces).isEmpty })
  var showsEverything: Bool
}

@MainActor
@Suite struct ViewModelProbeTests {
  @Test func anInputIsRecordedAndAssertedLikeAnOutput() {
    let viewModel = SearchViewModel()
    let probe = ViewModelProbe(viewModel)
    #expect(probe.outputNames == ["query", "showsEverything"])
    viewModel.query.value = "tea"
    viewModel.query.value = "tea "
    probe.expect(\.query, ["tea", "tea "])
    probe.expect(\.$showsEverything, [false])
    probe.finish()
  }

  @Test func readOnlyWrapperIsTheOutputNotItsStorage() {
    let viewModel = WrappedOutputViewModel()
    let probe = ViewModelProbe(viewModel, ignoring: ["requests.output"])
    #expect(probe.outputNames == ["name"])
    viewModel.rename("Ada")
    probe.expect(\.name, ["Ada"])
    probe.finish()
  }

  @Test func plumbingIsReportedUnlessIgnored() {
    let viewModel = WrappedOutputViewModel()
    let probe = ViewModelProbe(viewModel)
    #expect(probe.outputNames == ["name", "requests.output"])
    viewModel.rename("Ada")
    probe.expect(\.name, ["Ada"])
    withKnownIssue {
      probe.finish()
    } matching: { issue in
      String(describing: issue).contains("requests.output sent [\"Ada\"]")
    }
  }

  @Test func findsStoredOutputsByName() {
    let probe = ViewModelProbe(CounterViewModel())
    #expect(probe.outputNames == ["count", "isEven", "messagePipe.output"])
    probe.finish()
  }

  @Test func passesWhenEveryChangeIsAsserted() {
    let viewModel = CounterViewModel()
    let probe = ViewModelProbe(viewModel)
    viewModel.increment()
    viewModel.increment()
    viewModel.increment()
    probe.expect(\.count, [1, 2, 3])
    probe.expect(\.isEven, [false, true, false])
    probe.expect(\.message, ["three"])
    probe.finish()
  }

  @Test func failsNamingAnUnassertedOutputAndItsValues() {
    let viewModel = CounterViewModel()
    let probe = ViewModelProbe(viewModel)
    viewModel.increment()
    probe.expect(\.count, [1])
    withKnownIssue {
      probe.finish()
    } matching: { issue in
      String(describing: issue).contains("CounterViewModel.isEven changed to [false]")
    }
  }

  @Test func failsForAnUnassertedSignal() {
    let viewModel = CounterViewModel()
    let probe = ViewModelProbe(viewModel)
    for _ in 0..<3 { viewModel.increment() }
    probe.expect(\.count, [1, 2, 3])
    probe.skip(\.isEven)
    withKnownIssue {
      probe.finish()
    } matching: { issue in
      String(describing: issue).contains("messagePipe.output sent [\"three\"]")
    }
  }

  @Test func failsWhenTheExpectedValuesDiffer() {
    let viewModel = CounterViewModel()
    let probe = ViewModelProbe(viewModel)
    viewModel.increment()
    withKnownIssue {
      probe.expect(\.count, [2])
    } matching: { issue in
      String(describing: issue).contains("CounterViewModel.count changed to [1], not [2]")
    }
    probe.skip(\.isEven)
    probe.finish()
  }

  @Test func expectingNoChangeFailsIfThereWasOne() {
    let viewModel = CounterViewModel()
    let probe = ViewModelProbe(viewModel)
    viewModel.increment()
    probe.skip(\.isEven)
    withKnownIssue {
      probe.expect(\.count, [])
    }
    probe.finish()
  }

  @Test func reportsAtDeinitWhenNotFinished() {
    let viewModel = CounterViewModel()
    withKnownIssue {
      let probe = ViewModelProbe(viewModel)
      viewModel.increment()
      probe.expect(\.count, [1])
      // `isEven` changed and the probe goes out of scope without `finish()`.
    } matching: { issue in
      String(describing: issue).contains("isEven")
    }
  }

  @Test func refusesAComputedOutputItCannotHaveRecorded() {
    let viewModel = CounterViewModel()
    let probe = ViewModelProbe(viewModel)
    withKnownIssue {
      probe.expect(\.doubledEachTime, [])
    } matching: { issue in
      String(describing: issue).contains("not a stored property")
    }
    probe.finish()
  }

  @Test func predicateFormChecksNonEquatableChanges() {
    let viewModel = CounterViewModel()
    let probe = ViewModelProbe(viewModel)
    viewModel.increment()
    probe.expect(\.count) { $0 == [1] }
    probe.expect(\.isEven) { $0.count == 1 }
    withKnownIssue {
      probe.expect(\.message) { !$0.isEmpty }
    }
    probe.finish()
  }
}
