import Clocks
import Testing
import TetherTesting

@testable import Tether

@MainActor
@Suite struct TimingTests {
  @Test func debounceEmitsOnlyAfterAQuietPeriod() async {
    let clock = TestClock()
    let query = MutableProperty("")
    let debounced = query.debounce(for: .milliseconds(300), clock: clock)
    let recorder = debounced.record()

    query.value = "s"
    await clock.advance(by: .milliseconds(100))
    query.value = "sw"
    await clock.advance(by: .milliseconds(100))
    query.value = "swift"
    await clock.advance(by: .milliseconds(299))
    #expect(recorder.values == [""])

    await clock.advance(by: .milliseconds(1))
    await expectEventually { recorder.values == ["", "swift"] }

    await clock.advance(by: .seconds(5))
    #expect(recorder.values == ["", "swift"])
  }

  @Test func delaySendsEachEventItsIntervalLaterInOrder() async {
    let clock = TestClock()
    let (signal, input) = Signal<Int>.pipe()
    let recorder = signal.delay(for: .seconds(1), clock: clock).record()
    input.send(1)
    await clock.advance(by: .milliseconds(500))
    input.send(2)
    input.send(3)
    #expect(recorder.values.isEmpty)
    await clock.advance(by: .milliseconds(500))
    await expectEventually { recorder.values == [1] }
    await clock.advance(by: .milliseconds(500))
    await expectEventually { recorder.values == [1, 2, 3] }
  }

  @Test func aDelayedPropertyStartsWithTheValueAndLagsEachChange() async {
    let clock = TestClock()
    let status = MutableProperty("idle")
    let shown = status.delay(for: .seconds(2), clock: clock)
    let recorder = shown.record()
    status.value = "saving"
    #expect(shown.value == "idle")
    await clock.advance(by: .seconds(2))
    await expectEventually { recorder.values == ["idle", "saving"] }
    #expect(shown.value == "saving")
  }

  @Test func timeoutSendsItsFallbackOnceTheWaitRunsOutAndLetsGo() async {
    let clock = TestClock()
    let (signal, input) = Signal<Int>.pipe()
    let recorder = signal.timeout(after: .seconds(1), clock: clock, fallback: -1).record()
    await clock.advance(by: .milliseconds(600))
    input.send(1)
    await clock.advance(by: .milliseconds(600))
    input.send(2)  // within a second of the last: the wait starts again
    #expect(recorder.values == [1, 2])
    await clock.advance(by: .seconds(1))
    await expectEventually { recorder.values == [1, 2, -1] }
    #expect(signal.observerCount == 0, "finished: it let its source go")
    input.send(3)
    await clock.advance(by: .seconds(5))
    #expect(recorder.values == [1, 2, -1])
  }

  @Test func debounceNeverEmitsAStaleValueAfterANewerOne() async {
    let clock = TestClock()
    let (signal, input) = Signal<Int>.pipe()
    let recorder = signal.debounce(for: .seconds(1), clock: clock).record()
    for value in 1...5 {
      input.send(value)
      await clock.advance(by: .milliseconds(500))
    }
    await clock.advance(by: .seconds(1))
    await expectEventually { recorder.values == [5] }
  }

  @Test func throttleLetsTheFirstThroughThenTheLatestPerWindow() async {
    let clock = TestClock()
    let (signal, input) = Signal<Int>.pipe()
    let recorder = signal.throttle(for: .seconds(1), clock: clock).record()

    input.send(1)
    #expect(recorder.values == [1])
    input.send(2)
    input.send(3)
    await clock.advance(by: .milliseconds(999))
    #expect(recorder.values == [1])
    await clock.advance(by: .milliseconds(1))
    await expectEventually { recorder.values == [1, 3] }

    // A window with nothing held back closes; the next value passes with no more clock time.
    // (The window's timer task may run after the advance on a loaded machine: either way 4
    // arrives without the clock moving again.)
    await clock.advance(by: .seconds(1))
    await clock.run()
    input.send(4)
    await expectEventually { recorder.values == [1, 3, 4] }
  }

  @Test func throttleCanKeepTheFirstHeldBackValue() async {
    let clock = TestClock()
    let source = MutableProperty(0)
    let recorder = source.throttle(for: .seconds(1), clock: clock, latest: false).record()
    source.value = 1
    source.value = 2
    source.value = 3
    await clock.advance(by: .seconds(1))
    await expectEventually { recorder.values == [0, 1, 2] }
  }

  @Test func droppingADebouncedPropertyCancelsItsTimer() async {
    let clock = TestClock()
    let source = MutableProperty(0)
    weak var weakDebounced: Property<Int>?
    do {
      let debounced = source.debounce(for: .seconds(1), clock: clock)
      weakDebounced = debounced
      source.value = 1
    }
    #expect(weakDebounced == nil)
    #expect(source.observerCount == 0)
    await clock.run()
  }
}
