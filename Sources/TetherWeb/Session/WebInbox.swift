import Synchronization

/// The messages one page's socket has sent and its session has not yet handled.
///
/// A server's socket loop puts each message in as it arrives, without waiting for the session:
/// the loop keeps reading, so the socket's control frames (a pong to the server's ping, a
/// close) are answered however busy the main actor is. A task on the main actor takes the
/// messages out and hands them to the session (``WebSession/receive(_:)-(ClientEnvelope)``).
///
/// On the way in, each message is decoded (a malformed one is refused there and never reaches
/// the main actor) and:
/// - **Coalesced**: text that replaces the text of an `input` still waiting for the same field
///   takes its place, so a burst of keystrokes behind a busy actor is handled, and rendered,
///   once, with the newest text. Only consecutive messages merge: an input after a submit or
///   any other message waits its turn, so nothing is reordered.
/// - **Paced**: with a ``WebMessageRate``, a message past the socket's budget is held until
///   the budget has room (``Entry/notBefore``), and a socket more than ``readAhead`` past it
///   is read no faster than its rate (``pauseBeforeReading()``): a flood waits in its own
///   socket, and costs the server no more to read than its rate allows. Only such a socket's
///   pongs wait, behind its own flood.
/// - **Bounded**: at most ``limit`` messages are read ahead of the session (waiting, or
///   merged since it last took its messages); the socket's loop then waits for room
///   (``waitForRoom()``) and stops reading, so a page that sends faster than its session
///   handles fills its own connection, not the server's memory or its threads.
///
/// ```swift
/// let inbox = WebInbox(rate: WebMessageRate())
/// if case .startHandler = inbox.admit(#"{"type":"input","id":"s1.name","value":"Ada","seq":1}"#) {
///   // start the task that calls inbox.next() until it returns nil
/// }
/// ```
public final class WebInbox: Sendable {
  /// The most messages read ahead of the session; the socket is read no further until the
  /// session takes them.
  public let limit: Int

  /// A message waiting for the session.
  public struct Entry: Sendable {
    /// The message.
    public var envelope: ClientEnvelope
    /// When it may be handled: its arrival, or later for a socket past its rate.
    public var notBefore: ContinuousClock.Instant
  }

  /// What ``admit(_:at:)`` did with a message.
  public enum Admission: Equatable, Sendable {
    /// Queued, and no task is taking messages out: the caller starts one.
    case startHandler
    /// Queued (or merged with the input it replaces) for the task at work.
    case queued
    /// Not queued: it is malformed (the reason), or the inbox is closed.
    case refused(WebSessionError?)
  }

  private struct State: ~Copyable {
    var pending: [Entry] = []
    var handling = false
    var closed = false
    /// The socket has ended (``socketEnded()``).
    var ended = false
    var rate: WebMessageRate?
    var roomWaiter: CheckedContinuation<Void, Never>?
    var drainWaiter: CheckedContinuation<Void, Never>?
    /// How long the newest message waits for the socket's rate.
    var behind: Duration = .zero
    /// Messages admitted, merged or not, since the handler last took a batch.
    var admittedSinceTaken = 0
  }

  /// How far past its rate a socket may send before its loop pauses reading.
  public static let readAhead: Duration = .seconds(1)

  private let state: Mutex<State>

  /// An empty inbox.
  ///
  /// - Parameters:
  ///   - rate: How fast the socket's messages may be handled; `nil` for as fast as they come.
  ///   - limit: The most messages read ahead of the session (at least 1).
  public init(rate: WebMessageRate?, limit: Int = 256) {
    self.limit = max(1, limit)
    state = Mutex(State(rate: rate))
  }

  /// Decodes `text` and queues it.
  ///
  /// - Parameters:
  ///   - text: One message from the page.
  ///   - now: When it arrived.
  /// - Returns: Whether the caller must start the task that takes messages out, or why the
  ///   message was refused.
  public func admit(_ text: String, at now: ContinuousClock.Instant = .now) -> Admission {
    let envelope: ClientEnvelope
    do {
      envelope = try ClientEnvelope(decoding: text)
    } catch {
      return .refused(error)
    }
    return state.withLock { state in
      guard !state.closed else { return .refused(nil) }
      let wait = state.rate?.delay(at: now) ?? .zero
      state.behind = wait
      state.admittedSinceTaken += 1
      let entry = Entry(envelope: envelope, notBefore: now + wait)
      if let field = Self.inputField(envelope), let last = state.pending.indices.last,
        Self.inputField(state.pending[last].envelope) == field
      {
        // Newer text of the same field: the older is never shown, so it is never handled.
        // It keeps its place (and its time), so a paced socket is not held back further.
        state.pending[last].envelope = envelope
        return .queued
      }
      state.pending.append(entry)
      guard !state.handling else { return .queued }
      state.handling = true
      return .startHandler
    }
  }

  /// How long the socket's loop pauses before it reads on: `.zero` while the socket keeps
  /// within its rate, or more than ``readAhead`` past it. A socket that sends faster than its
  /// rate is then read no faster than it (what it sends meanwhile waits in its own
  /// connection): its messages, merged or not, cost no more to read than to handle.
  public func pauseBeforeReading() -> Duration {
    state.withLock { max(.zero, $0.behind - Self.readAhead) }
  }

  /// Whether ``limit`` messages wait, or were admitted (merged or not) since the session
  /// last took its messages: a socket is read at most that far ahead of its session.
  public var isFull: Bool {
    state.withLock { $0.pending.count >= limit || $0.admittedSinceTaken >= limit }
  }

  /// Returns once the inbox is no longer full (``isFull``) or is closed. One caller at a
  /// time: the socket's loop.
  public func waitForRoom() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state in
        guard state.pending.count >= limit || state.admittedSinceTaken >= limit, !state.closed
        else { return true }
        state.roomWaiter = continuation
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Returns once every message admitted so far has been handled (the task taking them
  /// has found none left), or the inbox is closed: the socket has ended, and its session is
  /// detached only after what its page sent. One caller at a time: the socket's loop.
  public func drained() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = state.withLock { state in
        guard state.handling, !state.closed else { return true }
        state.drainWaiter = continuation
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// The messages to handle next, in order, or `nil` when none is left: the task taking
  /// them ends, and the next message admitted asks for another.
  public func next() -> [Entry]? {
    let (batch, waiters) = state.withLock {
      state -> ([Entry]?, [CheckedContinuation<Void, Never>]) in
      var waiters = state.roomWaiter.map { [$0] } ?? []
      state.roomWaiter = nil
      state.admittedSinceTaken = 0
      guard !state.pending.isEmpty, !state.closed else {
        state.handling = false
        if let drain = state.drainWaiter { waiters.append(drain) }
        state.drainWaiter = nil
        return (nil, waiters)
      }
      defer { state.pending = [] }
      return (state.pending, waiters)
    }
    for waiter in waiters { waiter.resume() }
    return batch
  }

  /// The socket has ended: of what waits, only numbered gestures are still handled
  /// (``keeps(_:)``). A person's last click or Enter before the tab closed is theirs and is
  /// not lost; the rest (a draft's text, an unnumbered message) is sent again by the page on
  /// its next connection if it makes one, and is no one's to handle if it does not. (The
  /// server's handler also drops an ended socket's gestures once its address has spent its
  /// share: a tab that queues work and leaves does not leave the server working for it.)
  public func socketEnded() {
    state.withLock { state in
      state.ended = true
      state.pending.removeAll { $0.envelope.gesture == nil }
    }
  }

  /// Whether the socket has ended (``socketEnded()``).
  public var socketHasEnded: Bool { state.withLock { $0.ended } }

  /// Whether the handler still handles `entry`: anything while the socket is open, only a
  /// numbered gesture once it has ended (``socketEnded()``), nothing once the inbox is closed
  /// (``close()``: the server closed the socket, or a newer one replaced it).
  public func keeps(_ entry: Entry) -> Bool {
    state.withLock { state in
      !state.closed && (!state.ended || entry.envelope.gesture != nil)
    }
  }

  /// Drops what waits and refuses what comes: the socket was replaced or the session ended.
  public func close() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.closed = true
      state.pending = []
      defer {
        state.roomWaiter = nil
        state.drainWaiter = nil
      }
      return [state.roomWaiter, state.drainWaiter].compactMap { $0 }
    }
    for waiter in waiters { waiter.resume() }
  }

  /// The field a message only replaces the text of: a lone `input`, not part of a gesture.
  private static func inputField(_ envelope: ClientEnvelope) -> String? {
    guard envelope.gesture == nil, envelope.messages.count == 1,
      case .input(let id, _, _) = envelope.messages[0]
    else { return nil }
    return id
  }
}
