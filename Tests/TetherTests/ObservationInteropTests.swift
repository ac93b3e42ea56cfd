import Clocks
import Observation
import Testing
import TetherTesting

@testable import Tether

/// Counts how many times Observation fired `onChange` for a tracking of `read`.
///
/// `onChange` runs synchronously inside the property's `willSet`, here on the main actor, so
/// the count is confined to it; `assumeIsolated` also proves that it runs there.
@MainActor
private final class TrackingProbe {
  private(set) var changes = 0

  /// Registers `read` once, the way a SwiftUI `body` or UIKit `updateProperties()` is.
  func track(_ read: @escaping @MainActor () -> Void) {
    withObservationTracking {
      read()
    } onChange: { [weak self] in
      MainActor.assumeIsolated { self?.changes += 1 }
    }
  }

  /// Registers `read`, and registers it again from every `onChange` (re-rendering).
  func trackContinuously(_ read: @escaping @MainActor () -> Void) {
    withObservationTracking {
      read()
    } onChange: { [weak self] in
      MainActor.assumeIsolated {
        guard let self else { return }
        self.changes += 1
        self.trackContinuously(read)
      }
    }
  }
}

@Observable
@MainActor
private final class Model {
  var count = 0
}

@MainActor
@Suite struct ObservationInteropTests {
  // MARK: - Every kind of property is visible to withObservationTracking

  @Test func mutablePropertyRegistersAndFiresOnChange() {
    let property = MutableProperty(0)
    let probe = TrackingProbe()
    probe.track { _ = property.value }
    #expect(probe.changes == 0)
    property.value = 1
    #expect(probe.changes == 1)
    // One-shot, as Observation defines it: a second change needs a new registration.
    property.value = 2
    #expect(probe.changes == 1)
  }

  @Test func unobservedReadsRegisterNowhereAndMakeNoRegistrar() {
    let unwatched = MutableProperty(0)
    let watched = MutableProperty(0)
    let probe = TrackingProbe()
    probe.track {
      unobserved { _ = unwatched.value }
      _ = watched.value
    }
    unwatched.value = 1
    #expect(unwatched.observationLink == nil)
    #expect(probe.changes == 0)
    watched.value = 1
    #expect(probe.changes == 1)
  }

  @Test func readOnlyOutputsRegister() {
    let source = MutableProperty("a")
    let upcast: Property<String> = source
    let wrapped = Property(source)
    let probe = TrackingProbe()
    probe.track { _ = upcast.value }
    let wrappedProbe = TrackingProbe()
    wrappedProbe.track { _ = wrapped.value }
    source.value = "b"
    #expect(probe.changes == 1)
    #expect(wrappedProbe.changes == 1)
  }

  @Test func modifyFiresOnChange() {
    let property = MutableProperty([1, 2])
    let probe = TrackingProbe()
    probe.track { _ = property.value }
    property.modify { $0.append(3) }
    #expect(probe.changes == 1)
  }

  @Test func aThrowingModifyKeepsAndDeliversWhatItChanged() {
    struct Stop: Error {}
    let property = MutableProperty([1])
    var delivered: [[Int]] = []
    let token = property.observe { delivered.append($0) }
    let probe = TrackingProbe()
    probe.track { _ = property.value }
    #expect(throws: Stop.self) {
      try property.modify {
        $0.append(2)
        throw Stop()
      }
    }
    #expect(property.value == [1, 2])
    #expect(delivered == [[1], [1, 2]])
    #expect(probe.changes == 1)
    _ = token
  }

  @Test func derivedPropertiesRegister() {
    let a = MutableProperty(1)
    let b = MutableProperty(10)
    let outer = MutableProperty(0)
    let derived: [(String, Property<Int>)] = [
      ("map", a.map { $0 * 2 }),
      ("combineLatest", a.combineLatest(with: b).map { $0 + $1 }),
      ("skipRepeats", a.skipRepeats()),
      ("flatMapLatest", outer.flatMapLatest { _ in a.map { $0 } }),
    ]
    let probes = derived.map { name, property in
      let probe = TrackingProbe()
      probe.track { _ = property.value }
      return (name, probe)
    }
    a.value = 2
    for (name, probe) in probes {
      #expect(probe.changes == 1, "\(name) did not fire onChange")
    }
  }

  @Test func timedAndSignalDerivedPropertiesRegister() async {
    let clock = TestClock()
    let source = MutableProperty(0)
    let debounced = source.debounce(for: .milliseconds(100), clock: clock)
    let throttled = source.throttle(for: .milliseconds(100), clock: clock)
    let (signal, input) = Signal<Int>.pipe()
    let held = signal.hold(initial: 0)
    let probes = [debounced, throttled, held].map { property in
      let probe = TrackingProbe()
      probe.track { _ = property.value }
      return probe
    }
    source.value = 1
    input.send(1)
    await clock.advance(by: .milliseconds(100))
    await expectEventually { probes.allSatisfy { $0.changes == 1 } }
    #expect(probes.map(\.changes) == [1, 1, 1])
  }

  @Test func propertyFedByAnAsyncSequenceRegisters() async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let property = Property(initial: 0, then: stream)
    let probe = TrackingProbe()
    probe.track { _ = property.value }
    continuation.yield(1)
    await expectEventually { probe.changes == 1 }
    continuation.finish()
  }

  @Test func registeringAgainFromOnChangeSeesEveryChange() {
    let property = MutableProperty(0)
    let probe = TrackingProbe()
    probe.trackContinuously { _ = property.value }
    for value in 1...5 { property.value = value }
    #expect(probe.changes == 5)
  }

  // `Observations` is newer than the package's platforms: gated, so the suite builds on all.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @Test func observationsSequenceFollowsAProperty() async {
    let property = MutableProperty(0)
    let values = Observations { property.value }
    var seen: [Int] = []
    let writer = Task { @MainActor in
      for value in 1...3 {
        property.value = value
        await Task.yield()
      }
    }
    for await value in values {
      seen.append(value)
      if value == 3 { break }
    }
    await writer.value
    #expect(seen.first == 0)
    #expect(seen.last == 3)
    #expect(seen == seen.sorted())
  }

  // MARK: - The gate: Observation costs nothing until something may be watching

  @Test func settingAnUnreadPropertyNeverTouchesObservation() {
    let property = MutableProperty(0)
    let token = property.observe { _ in }
    let mapped = property.map { $0 + 1 }
    let runs = observe { _ = mapped.value }
    for value in 1...100 { property.value = value }
    // Observers, operators and `observe { }` read storage or register with Tether only.
    #expect(property.observationLink == nil)
    #expect(mapped.observationLink == nil)
    #expect(!property.mayBeObserved && !mapped.mayBeObserved)
    _ = (token, runs)
  }

  @Test func theGateOpensOnAReadAndClosesWithTheChangeItReports() {
    let property = MutableProperty(0)
    _ = property.value
    #expect(property.mayBeObserved)
    property.value = 1
    #expect(!property.mayBeObserved)
    property.value = 2
    #expect(!property.mayBeObserved)
    let probe = TrackingProbe()
    probe.track { _ = property.value }
    #expect(property.mayBeObserved)
    property.value = 3
    #expect(probe.changes == 1)
    #expect(!property.mayBeObserved)
  }

  @Test func aChangeSeenByBothMechanismsRunsEachOnce() async {
    let property = MutableProperty(0)
    let model = Model()
    let probe = TrackingProbe()
    probe.track { _ = property.value }
    var runs = 0
    let token = observe {
      _ = property.value
      _ = model.count
      runs += 1
    }
    property.value = 1
    await expectEventually { runs == 2 }
    await settleObservations()
    #expect(runs == 2)
    #expect(probe.changes == 1)
    model.count = 1
    await expectEventually { runs == 3 }
    await settleObservations()
    #expect(runs == 3)
    _ = token
  }
}

/// Lets the main actor run the jobs Observation's wake-ups scheduled, then runs every re-run
/// still owed to Tether properties (``flushObservations(isolation:)``), so no Tether re-run can
/// slip past an assertion.
@MainActor
func settleObservations() async {
  for _ in 0..<10 { await Task.yield() }
  flushObservations()
}
