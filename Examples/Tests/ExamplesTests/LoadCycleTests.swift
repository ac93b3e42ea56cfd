import ExampleSupport
import Testing
import TetherTesting

@MainActor
@Suite struct LoadCycleTests {
  @Test func aRunShowsTheSpinnerAndSaysItRanToItsEnd() async {
    let load = LoadCycle()
    let loading = load.isLoading.record()
    let errors = load.errorMessage.record()
    var applied = 0
    let ran = await load.run { () async throws(ServiceError) in applied = 42 }
    #expect(ran && applied == 42)
    loading.assertValues([false, true, false])
    errors.assertValues([nil], "a run that starts with no error shown does not announce nil again")
    #expect(!load.hasFailed)
  }

  @Test func aFailureBecomesTheUsersMessageAndTheNextRunClearsIt() async {
    let load = LoadCycle()
    let errors = load.errorMessage.record()
    let ran = await load.run { () async throws(ServiceError) in throw .noConnection }
    #expect(!ran)
    #expect(load.hasFailed)
    await load.run(message: { "custom: \($0.userMessage)" }) { () async throws(ServiceError) in
      throw .timedOut
    }
    await load.run { () async throws(ServiceError) in }
    errors.assertValues([nil, "No Network", nil, "custom: No Network", nil])
  }

  @Test func aRunWhileAnotherIsInFlightDoesNotStart() async {
    let load = LoadCycle()
    let gate = Gate()
    async let first = load.run { () async throws(ServiceError) in
      await gate.wait()
    }
    await Task.yield()
    #expect(load.isLoading.value)
    var ranSecond = false
    let second = await load.run { () async throws(ServiceError) in
      ranSecond = true
    }
    #expect(!second && !ranSecond)
    await gate.open()
    #expect(await first)
    #expect(!load.isLoading.value)
  }

  @Test func settledWaitsForTheRunInFlightAndReturnsAtOnceWhenIdle() async {
    let load = LoadCycle()
    await load.settled()
    let gate = Gate()
    async let first = load.run { () async throws(ServiceError) in
      await gate.wait()
      throw .timedOut
    }
    await Task.yield()
    #expect(load.isLoading.value)
    let waiter = Task { @MainActor in
      await load.settled()
      return load.isLoading.value
    }
    for _ in 0..<10 { await Task.yield() }
    #expect(load.isLoading.value, "the run is still held")
    await gate.open()
    #expect(await first == false)
    #expect(await waiter.value == false, "settled() returned while the run was in flight")
    #expect(load.lastError == .timedOut)
  }
}

/// Holds a task until opened.
actor Gate {
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private var isOpen = false

  func wait() async {
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }
}
