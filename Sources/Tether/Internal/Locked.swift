import Dispatch

/// A value guarded by a lock, for the little state `observe { }` shares across threads.
///
/// Built on a serial `DispatchQueue` rather than `Synchronization.Mutex`: both are correct, but
/// ThreadSanitizer cannot see the happens-before edges of `Mutex`'s futex on Linux and reports
/// its critical sections as races, while it understands Dispatch. These locks are off the hot
/// path (taken once per new `observe { }` and once per Observation callback).
///
/// `@unchecked Sendable`, with proof: `value` is read and written only inside `queue.sync`,
/// and a serial queue runs one such block at a time.
internal final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let queue = DispatchQueue(label: "tether.locked")

  init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try queue.sync { try body(&value) }
  }
}
