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
