extension Property {
  /// Creates a property that starts at `initial` and takes each element of a sequence that
  /// cannot fail, such as an `AsyncStream`.
  ///
  /// This is how results computed elsewhere (a service's `AsyncStream`, a timer) become view
  /// state:
  ///
  /// ```swift
  /// let status = Property(initial: "Connecting…", then: connection.statusUpdates)
  /// ```
  ///
  /// The sequence is iterated on `isolation` until it ends or the property is deallocated.
  /// A sequence that can throw needs ``init(initial:then:onFailure:isolation:)``, so its
  /// failure cannot go unnoticed.
  ///
  /// - Parameters:
  ///   - initial: The value until the first element arrives.
  ///   - sequence: The elements to take, in order.
  ///   - isolation: The actor the property belongs to; inferred from the caller.
  public convenience init<S: AsyncSequence<Value, Never>>(
    initial: Value,
    then sequence: sending S,
    isolation: isolated (any Actor) = #isolation
  ) {
    self.init(initial: initial, then: sequence, onFailure: { (_: Never) in }, isolation: isolation)
  }

  /// Creates a property that starts at `initial` and takes each element of `sequence`, and
  /// reports the sequence's failure.
  ///
  /// ```swift
  /// let price = Property(initial: "—", then: feed.prices.map(\.formatted)) { error in
  ///   errorMessage.value = "The price feed stopped: \(error)"
  /// }
  /// ```
  ///
  /// If the sequence throws, `onFailure` runs once, on `isolation`, with the error, and the
  /// property keeps the last value it took: a failure is reported, never swallowed, and never
  /// turns into a made-up value.
  ///
  /// - Parameters:
  ///   - initial: The value until the first element arrives.
  ///   - sequence: The elements to take, in order.
  ///   - onFailure: Called with the error if the sequence throws.
  ///   - isolation: The actor the property belongs to; inferred from the caller.
  public convenience init<S: AsyncSequence>(
    initial: Value,
    then sequence: sending S,
    onFailure: @escaping (S.Failure) -> Void,
    isolation: isolated (any Actor) = #isolation
  ) where S.Element == Value {
    self.init(derivedFrom: nil, initial: initial)
    let task = Task { [weak self] in
      _ = isolation
      do throws(S.Failure) {
        for try await element in sequence {
          guard let self else { return }
          self.update(element)
        }
      } catch {
        // Reported only while someone still holds the property.
        guard self != nil else { return }
        onFailure(error)
      }
    }
    retain(TaskCanceller(task))
  }
}

extension Property where Value: Sendable {
  /// The current value followed by every change, as an `AsyncSequence`.
  ///
  /// Use it to hand state to code in another isolation domain, or to `await` a condition in
  /// a test:
  ///
  /// ```swift
  /// for await isLoading in viewModel.isLoading.values where !isLoading { break }
  /// ```
  ///
  /// The stream buffers every value (none is dropped) and finishes when the property is
  /// deallocated. When the consumer stops iterating, the subscription ends at the next change.
  public final var values: AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream()
    forward(into: continuation) { observe($0) }
    return stream
  }
}

extension Signal where Value: Sendable {
  /// The events of this signal from now on, as an `AsyncSequence`.
  ///
  /// The stream buffers every event and finishes when the signal is deallocated.
  public var values: AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream()
    forward(into: continuation) { observe($0) }
    return stream
  }
}

/// Subscribes with `subscribe` and yields into `continuation` until the consumer goes away
/// (the subscription ends) or the source does (the stream finishes).
private func forward<Value: Sendable>(
  into continuation: AsyncStream<Value>.Continuation,
  subscribe: (@escaping (Value) -> Void) -> ObservationToken
) {
  let link = StreamLink(continuation)
  let token = subscribe { [link] value in
    if case .terminated = link.continuation.yield(value) {
      link.handle?.remove()
    }
  }
  // The entry owns the link; the link must not own the token, or the source would keep itself
  // alive through its own entry. A weak handle lets the entry remove itself instead.
  link.handle = token.handle
  token.detach()
}

/// Owned by the source's observer closure: finishes the stream when the source deallocates.
private final class StreamLink<Value: Sendable> {
  let continuation: AsyncStream<Value>.Continuation
  var handle: ObserverHandle?

  init(_ continuation: AsyncStream<Value>.Continuation) {
    self.continuation = continuation
  }

  deinit {
    continuation.finish()
  }
}

/// Cancels a task when the object that owns it is deallocated.
internal final class TaskCanceller {
  private let task: Task<Void, Never>

  init(_ task: Task<Void, Never>) {
    self.task = task
  }

  deinit {
    task.cancel()
  }
}
