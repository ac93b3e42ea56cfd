import Dispatch

/// A value guarded by a lock, for the little state `observe { }` shares across threads.
///
/// Built on a serial `DispatchQueue` rather than `Synchronization.Mutex`: both are correct, but
/// ThreadSanitizer cannot see the happens-before edges of `Mutex`'s futex on Linux and reports
/// its critical sections as races, while it understands Dispatch. In the core these locks are
/// off the hot path (taken once per new `observe { }` and once per Observation callback).
///
/// `@unchecked Sendable`, with proof: `value` is read and written only inside `queue.sync`,
/// and a serial queue runs one such block at a time.
///
/// Package access: TetherPubSub's nodes keep their state in one for the same reason, and take
/// it once or twice per message published or received (a `queue.sync` each; whether that
/// bounds a node's message rate is not measured).
package final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let queue = DispatchQueue(label: "tether.locked")

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let outcome = queue.sync { () -> Swift.Result<Result, Failure> in
      do throws(Failure) {
        return .success(try body(&value))
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }
}
