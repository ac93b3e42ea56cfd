import Testing
import Tether
import TetherFlow
import TetherTesting

/// A list whose first load sleeps on a test clock, through a ``Command``.
@MainActor
private final class SlowList {
  let load: Command<Void, [String], Never>
  private(set) var rows: [String] = []

  init(clock: TestClock<Duration>, interruptions: Counter) {
    load = Command { () async throws(Never) in
      do {
        try await clock.sleep(for: .seconds(5))
        return ["a", "b"]
      } catch {
        interruptions.count += 1
        return []
      }
    }
  }

  func viewDidLoad() async {
    if let rows = await load.run().value { self.rows = rows }
  }
}

@MainActor
private final class Counter {
  var count = 0
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct CancellationTests {
  @Test func aPoppedScreenCancelsItsFirstLoadAndReleasesItsViewModel() async {
    let clock = TestClock()
    let stack = ScreenStack<String>()
    let cache = ScreenViewCache<String>(stack: stack) { $0.title }
    let interruptions = Counter()
    stack.setRoot(Screen("home", title: "Home"))
    weak var weakList: SlowList?
    var executing: Recorder<Bool>?
    do {
      let list = SlowList(clock: clock, interruptions: interruptions)
      weakList = list
      executing = list.load.isExecuting.record()
      stack.push(Screen("list", title: "List", onAppear: { await list.viewDidLoad() }))
    }
    for _ in 0..<20 { await Task.yield() }
    #expect(weakList?.load.isExecuting.value == true, "the first load runs")
    stack.pop()
    for _ in 0..<20 { await Task.yield() }
    #expect(interruptions.count == 1, "the load's sleep was cancelled")
    #expect(executing?.values == [false, true, false])
    #expect(weakList == nil, "the popped screen's view model was released")
    #expect(cache.count == 1)
  }

  @Test func aButtonsAsyncActionRunsOneAtATimeTheLatestWinningAndStopsWhenReleased() async {
    let clock = TestClock()
    var starts = 0
    var finishes = 0
    var action: (@MainActor () -> Void)? = asyncAction {
      starts += 1
      try? await clock.sleep(for: .seconds(1))
      if !Task.isCancelled { finishes += 1 }
    }
    action?()
    for _ in 0..<20 { await Task.yield() }
    action?()  // pressed again while it runs: the first run is cancelled, this one goes on
    for _ in 0..<20 { await Task.yield() }
    #expect(starts == 2)
    #expect(finishes == 0)
    await clock.advance(by: .seconds(1))
    for _ in 0..<20 { await Task.yield() }
    #expect(finishes == 1, "only the latest press's run finished")

    action?()
    for _ in 0..<20 { await Task.yield() }
    action = nil  // the view that held it is gone
    for _ in 0..<20 { await Task.yield() }
    await clock.advance(by: .seconds(2))
    for _ in 0..<20 { await Task.yield() }
    #expect(starts == 3)
    #expect(finishes == 1, "the released action's run was cancelled")
  }
}
