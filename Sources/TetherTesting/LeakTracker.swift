import Testing

/// Tracks objects created in a test and fails the test if any outlives its scope.
///
/// Use it through `withLeakTracking { leaks in … }` so the check runs when the
/// scope ends:
///
/// ```swift
/// @Test func viewModelIsReleased() async {
///   await withLeakTracking { leaks in
///     let viewModel = leaks.track(PhotoListViewModel(service: service))
///     let view = leaks.track(PhotoListView(viewModel: viewModel))
///     await viewModel.viewDidLoad()
///     _ = view
///   }   // fails, naming the type, if a closure cycle keeps either alive
/// }
/// ```
public final class LeakTracker {
  private struct Entry {
    weak var object: AnyObject?
    let typeName: String
    let sourceLocation: SourceLocation
  }

  private var entries: [Entry] = []

  /// Creates a tracker with nothing tracked.
  public init() {}

  /// Tracks `object`: it must be deallocated by the end of the scope.
  ///
  /// - Parameters:
  ///   - object: The object to watch. It is held weakly.
  ///   - sourceLocation: Where a leak of this object is reported.
  /// - Returns: `object`, so tracking can wrap its creation.
  @discardableResult
  public func track<Object: AnyObject>(
    _ object: Object,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Object {
    entries.append(
      Entry(
        object: object, typeName: String(describing: type(of: object)),
        sourceLocation: sourceLocation))
    return object
  }

  /// The type names of tracked objects that are still alive.
  public var liveTypeNames: [String] {
    entries.filter { $0.object != nil }.map(\.typeName)
  }

  /// Records a test issue for each tracked object that is still alive.
  func reportLeaks() {
    for entry in entries where entry.object != nil {
      Issue.record(
        "\(entry.typeName) was not deallocated at the end of the leak-tracking scope",
        sourceLocation: entry.sourceLocation)
    }
  }
}

/// Runs `body` and fails the test for every object tracked in it that is still alive after
/// it returns and pending work has had a chance to finish.
///
/// There is deliberately no synchronous form: a synchronous closure would be chosen even under
/// `await` and could not wait for a `Task` the view model started.
///
/// A view model's in-flight `Task` may hold it for a moment after the scope ends; the check
/// yields, then waits in short sleeps for at most `gracePeriod` before it reports a leak. Only a
/// test that really leaks waits that long.
///
/// - Parameters:
///   - isolation: The actor the test runs on; inferred.
///   - gracePeriod: How long released-but-still-running work may take to let go.
///   - body: The test code; it tracks objects with ``LeakTracker/track(_:sourceLocation:)``.
/// - Returns: What `body` returns.
public func withLeakTracking<Result>(
  isolation: isolated (any Actor)? = #isolation,
  gracePeriod: Duration = .milliseconds(500),
  _ body: (LeakTracker) async throws -> sending Result
) async rethrows -> sending Result {
  let tracker = LeakTracker()
  let result = try await body(tracker)
  for _ in 0..<10 where !tracker.liveTypeNames.isEmpty {
    await Task.yield()
  }
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: gracePeriod)
  while !tracker.liveTypeNames.isEmpty && clock.now < deadline {
    try? await clock.sleep(for: .milliseconds(2))
  }
  tracker.reportLeaks()
  return result
}
