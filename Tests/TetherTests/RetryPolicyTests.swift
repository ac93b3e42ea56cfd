import Clocks
import Testing
import TetherTesting

@testable import Tether

private enum FetchError: Error, Equatable {
  case offline
  case notFound

  var isTransient: Bool { self == .offline }
}

/// A service that answers from `answers` in turn, at once, and records when it was called.
@MainActor
private final class FlakyService {
  let clock: TestClock<Duration>
  let start: TestClock<Duration>.Instant
  var answers: [Result<Int, FetchError>]
  private(set) var calls: [Duration] = []

  init(clock: TestClock<Duration>, answers: [Result<Int, FetchError>]) {
    self.clock = clock
    start = clock.now
    self.answers = answers
  }

  func fetch() throws(FetchError) -> Int {
    calls.append(start.duration(to: clock.now))
    return try (answers.isEmpty ? .failure(.offline) : answers.removeFirst()).get()
  }
}

@MainActor
private func letTasksRun() async {
  for _ in 0..<20 { await Task.yield() }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct RetryPolicyTests {
  @Test func aFailedRunIsMadeAgainAfterEachBackoffAndIsOneRun() async {
    let clock = TestClock()
    let service = FlakyService(
      clock: clock, answers: [.failure(.offline), .failure(.offline), .success(7)])
    let command = Command(
      retry: .exponentialBackoff(
        maximumAttempts: 4, initialDelay: .milliseconds(500), clock: clock, when: \.isTransient)
    ) { () async throws(FetchError) in try service.fetch() }
    let executing = command.isExecuting.record()
    let errors = command.errors.record()
    let run = Task { await command.run() }
    await letTasksRun()
    #expect(service.calls == [.zero])
    await clock.advance(by: .milliseconds(499))
    #expect(service.calls.count == 1, "the first wait is not over")
    await clock.advance(by: .milliseconds(1))
    await letTasksRun()
    #expect(service.calls == [.zero, .milliseconds(500)])
    // The second wait is twice the first.
    await clock.advance(by: .seconds(1))
    #expect(await run.value == .success(7))
    #expect(service.calls == [.zero, .milliseconds(500), .milliseconds(1500)])
    #expect(executing.values == [false, true, false], "the attempts are one run")
    #expect(errors.values.isEmpty, "a failure that was retried is no error of the run's")
  }

  @Test func theLastAttemptsErrorEndsTheRunAndAnErrorNotWorthARetryEndsItAtOnce() async {
    let clock = TestClock()
    let service = FlakyService(clock: clock, answers: [])
    let command = Command(
      retry: .exponentialBackoff(
        maximumAttempts: 3, initialDelay: .seconds(1), clock: clock, when: \.isTransient)
    ) { () async throws(FetchError) in try service.fetch() }
    let errors = command.errors.record()
    let run = Task { await command.run() }
    await letTasksRun()
    await clock.advance(by: .seconds(3))
    #expect(await run.value == .failure(.offline))
    #expect(service.calls == [.zero, .seconds(1), .seconds(3)], "three attempts, no more")
    #expect(errors.values == [.offline])
    #expect(command.lastError.value == .offline)

    service.answers = [.failure(.notFound)]
    #expect(await command.run() == .failure(.notFound))
    #expect(service.calls.count == 4, "a 404 is not retried")
  }

  @Test func cancellingTheRunEndsItsWaitAndNoAttemptFollows() async {
    let clock = TestClock()
    let service = FlakyService(clock: clock, answers: [])
    let command = Command(
      retry: .exponentialBackoff(maximumAttempts: 5, initialDelay: .seconds(10), clock: clock)
    ) { () async throws(FetchError) in try service.fetch() }
    let run = Task { await command.run() }
    await letTasksRun()
    #expect(command.isExecuting.value)
    command.cancel()
    #expect(await run.value == .cancelled)
    #expect(!command.isExecuting.value)
    await clock.advance(by: .seconds(60))
    await letTasksRun()
    #expect(service.calls == [.zero], "no attempt after the cancel")
    #expect(command.lastError.value == nil)
  }

  @Test func backoffWaitsGrowToTheirCapWhateverTheNumbers() {
    let policy = RetryPolicy<FetchError>.exponentialBackoff(
      maximumAttempts: .max, initialDelay: .milliseconds(100), multiplier: 3,
      maximumDelay: .seconds(2))
    #expect(policy.wait(after: 1, for: .offline) == .milliseconds(100))
    #expect(policy.wait(after: 2, for: .offline) == .milliseconds(300))
    #expect(policy.wait(after: 3, for: .offline) == .milliseconds(900))
    #expect(policy.wait(after: 4, for: .offline) == .seconds(2))
    #expect(policy.wait(after: 1_000_000, for: .offline) == .seconds(2))
    // Numbers that make no sense wait no less than the first wait, and never trap.
    for (multiplier, jitter) in [(Double.nan, Double.nan), (-4, -1), (.infinity, .infinity)] {
      let odd = RetryPolicy<FetchError>.exponentialBackoff(
        maximumAttempts: 10, initialDelay: .seconds(1), multiplier: multiplier,
        maximumDelay: .seconds(Int64.max), jitter: jitter)
      let wait = odd.wait(after: 9, for: .offline)
      #expect(wait.map { $0 >= .zero && $0 <= .seconds(365 * 86_400) } == true, "\(multiplier)")
    }
    // Jitter shortens a wait by at most its fraction.
    let jittered = RetryPolicy<FetchError>.exponentialBackoff(
      maximumAttempts: 3, initialDelay: .seconds(1), jitter: 0.5)
    for _ in 0..<50 {
      let wait = jittered.wait(after: 1, for: .offline) ?? .zero
      #expect(wait >= .milliseconds(500) && wait <= .seconds(1))
    }
    #expect(RetryPolicy<FetchError>.never.wait(after: 1, for: .offline) == nil)
    #expect(RetryPolicy<FetchError>(maximumAttempts: -3) { _ in .zero }.maximumAttempts == 1)
  }
}
