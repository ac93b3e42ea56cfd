import Clocks
import Testing
import TetherTesting

@testable import Tether

private enum LoadError: Error, Equatable {
  case offline
  case interrupted
}

/// A service whose every call sleeps on a test clock, then answers from `answers` in turn.
@MainActor
private final class SlowService {
  let clock: TestClock<Duration>
  var answers: [Result<Int, LoadError>]
  private(set) var calls: [Int] = []

  init(clock: TestClock<Duration>, answers: [Result<Int, LoadError>]) {
    self.clock = clock
    self.answers = answers
  }

  func load(_ input: Int) async throws(LoadError) -> Int {
    calls.append(input)
    do {
      try await clock.sleep(for: .seconds(1))
    } catch {
      throw .interrupted
    }
    let answer = answers.isEmpty ? .success(input) : answers.removeFirst()
    return try answer.get()
  }
}

@MainActor
private func makeCommand(
  _ service: SlowService, reentry: Command<Int, Int, LoadError>.Reentry = .refuse,
  enabledIf: Property<Bool> = Property(value: true), lifetime: Lifetime? = nil
) -> Command<Int, Int, LoadError> {
  Command(reentry: reentry, enabledIf: enabledIf, cancelledWith: lifetime) {
    (input: Int) async throws(LoadError) in
    try await service.load(input)
  }
}

/// Lets the main actor run the tasks the test started, so they reach their sleeps.
@MainActor
private func letTasksRun() async {
  for _ in 0..<20 { await Task.yield() }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct CommandTests {
  @Test func aRunIsAwaitedInVirtualTimeAndItsOutputsChangeInOrder() async {
    let clock = TestClock()
    let service = SlowService(clock: clock, answers: [.success(42)])
    let command = makeCommand(service)
    var events: [String] = []
    let executing = command.isExecuting.observe { events.append("executing \($0)") }
    let values = command.values.observe { events.append("value \($0)") }

    let run = Task { await command.run(7).value }
    await letTasksRun()
    #expect(command.isExecuting.value)
    #expect(service.calls == [7])
    await clock.advance(by: .milliseconds(999))
    #expect(command.isExecuting.value, "the work still sleeps")
    await clock.advance(by: .milliseconds(1))
    #expect(await run.value == 42)
    #expect(events == ["executing false", "executing true", "value 42", "executing false"])
    #expect(command.lastError.value == nil)
    _ = (executing, values)
  }

  @Test func aRunAskedForWhileOneIsInFlightIsRefusedAndIsEnabledSaysSo() async {
    let clock = TestClock()
    let service = SlowService(clock: clock, answers: [])
    let command = makeCommand(service)
    let enabled = command.isEnabled.record()
    command.start(1)
    let second = await command.run(2)
    guard case .refused = second else {
      Issue.record("a second run while one is in flight was \(second), not refused")
      return
    }
    command.start(3)
    await letTasksRun()
    #expect(service.calls == [1], "only the first run's work started")
    await clock.advance(by: .seconds(1))
    await command.settled()
    #expect(enabled.values == [true, false, true])
    #expect(command.isEnabled.value)
  }

  @Test func replaceCancelsTheRunInFlightAndOnlyTheLatestResultArrives() async {
    let clock = TestClock()
    let service = SlowService(clock: clock, answers: [])
    let command = makeCommand(service, reentry: .replace)
    let values = command.values.record()
    let errors = command.errors.record()
    let first = Task { await command.run(1) }
    await letTasksRun()
    let second = Task { await command.run(2).value }
    await letTasksRun()
    guard case .cancelled = await first.value else {
      Issue.record("the replaced run was not cancelled")
      return
    }
    #expect(command.isEnabled.value, "replace never disables the command")
    await clock.advance(by: .seconds(1))
    #expect(await second.value == 2)
    #expect(values.values == [2])
    #expect(errors.values.isEmpty, "the replaced run's interruption is not an error")
    #expect(service.calls == [1, 2])
  }

  @Test func anErrorIsKeptUntilTheRetryStartsAndTheRetrySucceeds() async {
    let clock = TestClock()
    let service = SlowService(clock: clock, answers: [.failure(.offline), .success(5)])
    let command = makeCommand(service)
    let lastError = command.lastError.record()
    let errors = command.errors.record()
    let values = command.values.record()

    let failing = Task { await command.run(1).error }
    await letTasksRun()
    await clock.advance(by: .seconds(1))
    #expect(await failing.value == .offline)
    #expect(command.lastError.value == .offline)
    #expect(!command.isExecuting.value)

    let retry = Task { await command.run(1).value }
    await letTasksRun()
    #expect(command.lastError.value == nil, "a retry clears the error when it starts")
    await clock.advance(by: .seconds(1))
    #expect(await retry.value == 5)
    #expect(lastError.values == [nil, .offline, nil])
    #expect(errors.values == [.offline])
    #expect(values.values == [5])
  }

  @Test func enabledIfGatesRuns() async {
    let clock = TestClock()
    let service = SlowService(clock: clock, answers: [])
    let isValid = MutableProperty(false)
    let command = makeCommand(service, enabledIf: isValid)
    let enabled = command.isEnabled.record()
    guard case .disabled = await command.run(1) else {
      Issue.record("a run while disabled started")
      return
    }
    #expect(service.calls.isEmpty)
    isValid.value = true
    command.start(2)
    await letTasksRun()
    await clock.advance(by: .seconds(1))
    await command.settled()
    #expect(service.calls == [2])
    #expect(enabled.values == [false, true, false, true])
  }

  @Test func theEndOfTheOwnersLifetimeCancelsTheRunAndRefusesLaterOnes() async {
    let clock = TestClock()
    let service = SlowService(clock: clock, answers: [])
    let lifetime = Lifetime()
    let command = makeCommand(service, lifetime: lifetime)
    let values = command.values.record()
    let run = Task { await command.run(1) }
    await letTasksRun()
    lifetime.end()
    #expect(!command.isExecuting.value, "cancelling ends the run at once")
    guard case .cancelled = await run.value else {
      Issue.record("the run outlived its owner's lifetime")
      return
    }
    await clock.advance(by: .seconds(1))
    await letTasksRun()
    #expect(values.values.isEmpty, "a cancelled run's result is dropped")
    guard case .cancelled = await command.run(2) else {
      Issue.record("a run started after the owner's lifetime ended")
      return
    }
    #expect(service.calls == [1])
  }

  @Test func releasingTheCommandCancelsItsRun() async {
    let clock = TestClock()
    let service = SlowService(clock: clock, answers: [])
    var interrupted = false
    do {
      let command = Command<Void, Int, LoadError> { () async throws(LoadError) in
        do throws(LoadError) {
          return try await service.load(1)
        } catch {
          interrupted = true
          throw error
        }
      }
      command.start()
      await letTasksRun()
      #expect(service.calls == [1])
    }
    await letTasksRun()
    #expect(interrupted, "the released command's work was cancelled, so its sleep threw")
  }

  @Test func cancellingTheAwaitingTaskCancelsTheRun() async {
    let clock = TestClock()
    let service = SlowService(clock: clock, answers: [])
    let command = makeCommand(service)
    let run = Task { await command.run(1) }
    await letTasksRun()
    run.cancel()
    guard case .cancelled = await run.value else {
      Issue.record("the run went on after its caller was cancelled")
      return
    }
    await letTasksRun()
    #expect(!command.isExecuting.value)
    #expect(command.lastError.value == nil)
  }
}
