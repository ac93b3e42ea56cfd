import Synchronization

/// The messages waiting for one socket: numbers each admitted message, keeps them in order
/// until one writer at a time takes them, and once the page has fallen behind — ``limit``
/// messages or ``byteLimit`` bytes wait — admits no more. No task waits on an idle socket: the
/// first message to arrive when no one is writing asks its sender to start a writer, which
/// ends when nothing waits.
///
/// Bounded in bytes as well as count: a page that stops reading while its session sends
/// large renders is closed (``SocketCore``'s driver sends 4408) once ``byteLimit`` bytes wait,
/// so a socket holds at most that and one message, whatever its page does. A message is
/// admitted while less than the limit waits, so one render larger than it still reaches a
/// page that reads.
package final class SendQueue: Sendable {
  /// The most messages that may wait for a socket.
  package static let defaultLimit = 256
  /// The most bytes that may wait for a socket.
  package static let defaultByteLimit = 512 * 1_024

  package let limit: Int
  package let byteLimit: Int

  package enum Admission: Equatable, Sendable {
    /// Queued; the sender starts a writer (no one is writing).
    case startWriter
    /// Queued; the writer at work takes it.
    case queued
    /// This one is one too many: close the socket.
    case overflowed
    /// The socket is being closed: drop it (the page redraws on its next socket).
    case closed
  }

  private struct State {
    var pending: [String] = []
    var waiting = 0
    var waitingBytes = 0
    var number = 0
    var writing = false
    var closed = false
  }

  private let state = Mutex(State())

  package init(limit: Int = SendQueue.defaultLimit, byteLimit: Int = SendQueue.defaultByteLimit) {
    self.limit = max(1, limit)
    self.byteLimit = max(1, byteLimit)
  }

  /// Numbers `message` (a JSON object) with `"n"`, from 1, and queues it.
  package func admit(_ message: String) -> Admission {
    state.withLock { state in
      guard !state.closed else { return .closed }
      guard state.waiting < limit, state.waitingBytes < byteLimit else {
        state.closed = true
        state.pending = []
        return .overflowed
      }
      state.number += 1
      let numbered = "{\"n\":\(state.number)," + message.dropFirst()
      state.waiting += 1
      state.waitingBytes += numbered.utf8.count
      state.pending.append(numbered)
      guard !state.writing else { return .queued }
      state.writing = true
      return .startWriter
    }
  }

  /// The messages to write next, in order, or `nil` when none is left: the writer's turn
  /// ends, and the next message admitted starts another.
  package func next() -> [String]? {
    state.withLock { state in
      guard !state.pending.isEmpty else {
        state.writing = false
        return nil
      }
      defer { state.pending = [] }
      return state.pending
    }
  }

  /// One taken message, of `bytes` bytes, is on the socket.
  ///
  /// - Returns: Whether the queue is still open (else the rest of the batch is dropped).
  package func written(bytes: Int) -> Bool {
    state.withLock { state in
      state.waiting -= 1
      state.waitingBytes -= bytes
      return !state.closed
    }
  }

  /// The bytes waiting: admitted and not yet written.
  package var waitingBytes: Int { state.withLock { $0.waitingBytes } }

  /// Admits nothing more: the socket is closing (its page redraws on its next socket).
  package func close() {
    state.withLock { state in
      state.closed = true
      state.pending = []
    }
  }
}
