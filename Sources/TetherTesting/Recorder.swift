import Testing

/// Records every value a `Property` or `Signal` delivers, for assertions.
///
/// ```swift
/// let loading = viewModel.isLoading.record()
/// await viewModel.viewDidLoad()
/// loading.assertValues([false, true, false])
/// ```
///
/// A recorder observes until it is deallocated or ``stop()`` is called.
public final class Recorder<Value> {
  /// Every value delivered so far, oldest first. For a property the first one is the value it
  /// had when recording started.
  public private(set) var values: [Value] = []
  private var token: ObservationToken?

  init(subscribe: (@escaping (Value) -> Void) -> ObservationToken) {
    token = subscribe { [weak self] value in self?.values.append(value) }
  }

  deinit {
    token?.cancel()
  }

  /// The most recent value, or `nil` if there is none.
  public var lastValue: Value? { values.last }

  /// Forgets the values recorded so far (recording goes on).
  public func clear() {
    values.removeAll()
  }

  /// Stops recording; ``values`` keeps what was recorded.
  public func stop() {
    token?.cancel()
    token = nil
  }
}

extension Recorder where Value: Equatable {
  /// Records a test issue unless the recorded values are exactly `expected`.
  ///
  /// - Parameters:
  ///   - expected: The values that should have been delivered, oldest first.
  ///   - comment: Shown with the failure.
  ///   - sourceLocation: Where the failure is reported; the caller's line by default.
  public func assertValues(
    _ expected: [Value],
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(values == expected, comment, sourceLocation: sourceLocation)
  }

  /// Records a test issue unless the most recent value is `expected`.
  ///
  /// - Parameters:
  ///   - expected: The value that should have been delivered last.
  ///   - comment: Shown with the failure.
  ///   - sourceLocation: Where the failure is reported; the caller's line by default.
  public func assertLastValue(
    _ expected: Value,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(values.last == expected, comment, sourceLocation: sourceLocation)
  }
}

extension Property {
  /// Starts recording this property: its current value first, then every change.
  ///
  /// - Returns: A recorder; keep it alive for as long as you want to record.
  public func record() -> Recorder<Value> {
    Recorder { observe($0) }
  }
}

extension Signal {
  /// Starts recording the events of this signal.
  ///
  /// - Returns: A recorder; keep it alive for as long as you want to record.
  public func record() -> Recorder<Value> {
    Recorder { observe($0) }
  }
}
