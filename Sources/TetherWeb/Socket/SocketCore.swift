/// One page's socket as a state machine with no I/O of its own: RFC 6455's rules for what a
/// client may send, the socket's budget, its deadlines and its close handshake. A server's
/// socket (SwiftNIO's event-loop handler, or a mounted app's Hummingbird route) feeds it the
/// frames it reads and the events it sees, and carries out the ``Action``s it returns; the
/// rules are written here once and tested here once.
///
/// What it enforces on every frame a page sends:
/// - **Framing** (RFC 6455 §5): a client's frames are masked; no reserved bit is set (no
///   extension is negotiated); no reserved opcode; control frames are whole and at most 125
///   bytes; a continuation follows a started message and a new message does not interrupt one.
///   A breach is closed with 1002.
/// - **Text**: a message is valid UTF-8, checked across its fragments (1007), and no larger
///   than ``Limits/maximumMessageSize`` (1009).
/// - **Binary**: a binary message is an upload's chunk (``WebUploadReceiver``), no larger than
///   ``Limits/maximumChunkSize`` (1009), taken only once the hello is checked; the receiver
///   refuses one of no file, and the driver charges it.
/// - **Closing**: a close's code is one a peer may send and its reason is UTF-8 (else 1002 or
///   1007); a close is answered once, and the connection ends when the handshake is done or
///   its deadline passes, whichever side began it.
/// - **Cost**: every frame that is not a message the session takes (pings, pongs, binary,
///   text that is not a message, anything after a close) is charged to a ``Budget`` in frames
///   and bytes; a socket past it is closed with 1008. Messages are paced by the session's
///   inbox (`WebMessageRate`). A ping is answered with at most one pong waiting, and only
///   while the connection takes writes.
package struct SocketCore: Sendable {
  /// A frame as the wire carried it: the decoder's work, before any rule.
  package struct Frame: Sendable, Equatable {
    package var fin: Bool
    /// The three reserved bits (RSV1–3), as the low bits.
    package var reservedBits: UInt8
    package var opcode: UInt8
    package var masked: Bool
    /// The payload, unmasked.
    package var payload: [UInt8]

    package init(
      fin: Bool = true, reservedBits: UInt8 = 0, opcode: UInt8, masked: Bool = true,
      payload: [UInt8] = []
    ) {
      self.fin = fin
      self.reservedBits = reservedBits
      self.opcode = opcode
      self.masked = masked
      self.payload = payload
    }

    /// A masked, final text frame of `text`.
    package static func text(_ text: String) -> Frame {
      Frame(opcode: Opcode.text, payload: Array(text.utf8))
    }
  }

  /// The opcodes of RFC 6455 §5.2.
  package enum Opcode {
    package static let continuation: UInt8 = 0x0
    package static let text: UInt8 = 0x1
    package static let binary: UInt8 = 0x2
    package static let close: UInt8 = 0x8
    package static let ping: UInt8 = 0x9
    package static let pong: UInt8 = 0xA
  }

  /// The close codes this core sends.
  package enum CloseCode {
    package static let normal: UInt16 = 1000
    package static let goingAway: UInt16 = 1001
    package static let protocolError: UInt16 = 1002
    package static let invalidData: UInt16 = 1007
    package static let policyViolation: UInt16 = 1008
    package static let tooLarge: UInt16 = 1009
    /// The page sent no hello in time, or something else first.
    package static let noProof: UInt16 = 4403
  }

  /// What a socket may cost, and how long each of its waits may last.
  package struct Limits: Sendable {
    /// The largest text message (all its fragments) a page may send.
    package var maximumMessageSize: Int
    /// The largest binary message (an upload's chunk, all its fragments) a page may send.
    package var maximumChunkSize: Int
    /// The most fragments one message may come in.
    package var maximumFragments: Int
    /// How long a socket has to send its hello.
    package var helloTimeout: Duration
    /// How long a socket may be silent before it is pinged; a page silent for another
    /// interval after the ping is gone.
    package var pingInterval: Duration
    /// How long a close may wait behind what the page has not read.
    package var closeFlushTimeout: Duration
    /// How long a page has to answer a close that reached it, or a close it began has to be
    /// answered on the wire.
    package var closeAnswerTimeout: Duration
    /// What frames that are not messages may cost.
    package var budget: Budget

    package init(
      maximumMessageSize: Int = 4_096,
      maximumChunkSize: Int = 4 + WebUploadReceiver.maximumChunkSize, maximumFragments: Int = 64,
      helloTimeout: Duration = .seconds(5), pingInterval: Duration = .seconds(30),
      closeFlushTimeout: Duration = .seconds(15), closeAnswerTimeout: Duration = .seconds(3),
      budget: Budget = Budget()
    ) {
      self.maximumMessageSize = maximumMessageSize
      self.maximumChunkSize = maximumChunkSize
      self.maximumFragments = maximumFragments
      self.helloTimeout = helloTimeout
      self.pingInterval = pingInterval
      self.closeFlushTimeout = closeFlushTimeout
      self.closeAnswerTimeout = closeAnswerTimeout
      self.budget = budget
    }
  }

  /// A token bucket in frames and in bytes for what a page sends that its session does not
  /// take as a message. A browser sends such frames only to answer the server's pings (one
  /// every ``Limits/pingInterval``) and to close, so the defaults (40 frames and 64 KiB at
  /// once, then 2 frames and 8 KiB a second) are far beyond any page and far below a flood.
  package struct Budget: Sendable, Equatable {
    package var frames: Double
    package var framesPerSecond: Double
    package var bytes: Double
    package var bytesPerSecond: Double

    package init(
      frames: Int = 40, framesPerSecond: Int = 2, bytes: Int = 65_536, bytesPerSecond: Int = 8_192
    ) {
      self.frames = Double(max(1, frames))
      self.framesPerSecond = Double(max(0, framesPerSecond))
      self.bytes = Double(max(1, bytes))
      self.bytesPerSecond = Double(max(0, bytesPerSecond))
    }
  }

  /// Where the socket is.
  package enum Phase: Sendable, Equatable {
    /// Upgraded; the page's first message (its hello) has not come.
    case waitingForHello
    /// The hello is being checked (by the session, off this core).
    case checking
    /// Attached to its session.
    case open
    /// A close was sent or received; the connection ends when the handshake is done or its
    /// deadline passes.
    case closing
    /// The connection is gone.
    case closed
  }

  /// What the socket's driver does next, in order.
  package enum Action: Sendable, Equatable {
    /// Check the page's hello, then call ``helloChecked(attached:at:)`` or ``close(code:reason:at:flushTimeout:answerTimeout:)``.
    case checkHello(String)
    /// Hand a message to the session (its inbox).
    case deliver(String)
    /// Hand an upload's chunk (a binary message) to the session's receiver.
    case deliverChunk([UInt8])
    /// Write a pong with this payload (the connection takes writes).
    case writePong([UInt8])
    /// Write an empty ping.
    case writePing
    /// Write a close frame; call ``closeWritten(at:)`` once it is on the wire.
    case writeClose(code: UInt16?, reason: String)
    /// Stop admitting the session's messages: the socket is closing. Reading goes on (the
    /// page's answer to a close, or its end, is awaited) unless ``stopReading`` follows.
    case stopSending
    /// Read nothing more: the page broke the rules, and what it sends is not worth reading;
    /// the connection ends at the close's deadline.
    case stopReading
    /// End the connection.
    case closeConnection
  }

  package let limits: Limits
  package private(set) var phase = Phase.waitingForHello

  /// A message begun and not yet ended: its fragments so far.
  private var fragments: [UInt8] = []
  private var fragmentCount = 0
  private var fragmentedText = false
  /// The budget left, and when it was last charged.
  private var framesLeft: Double
  private var bytesLeft: Double
  private var charged: ContinuousClock.Instant?
  /// A ping's payload still to be answered, waiting for the connection to take writes.
  private var pendingPong: [UInt8]?
  private var writable = true
  /// Whether anything came since the last ping interval, and whether the page was pinged.
  private var heardSincePing = true
  private var pinged = false
  private var closeSent = false
  private var closeReceived = false
  private var helloDeadline: ContinuousClock.Instant?
  private var pingDeadline: ContinuousClock.Instant?
  private var closeDeadline: ContinuousClock.Instant?

  /// A new socket, just upgraded at `now`: it has ``Limits/helloTimeout`` to say hello.
  package init(limits: Limits = Limits(), at now: ContinuousClock.Instant) {
    self.limits = limits
    framesLeft = limits.budget.frames
    bytesLeft = limits.budget.bytes
    helloDeadline = now + limits.helloTimeout
  }

  /// The earliest instant the driver must call ``deadlineReached(at:)`` by, if any: one timer
  /// per socket, re-armed only when this changes.
  package var nextDeadline: ContinuousClock.Instant? {
    [helloDeadline, pingDeadline, closeDeadline].compactMap { $0 }.min()
  }

  // MARK: - Frames

  /// A frame the page sent, at `now`.
  package mutating func received(_ frame: Frame, at now: ContinuousClock.Instant) -> [Action] {
    guard phase != .closed else { return [] }
    heardSincePing = true
    guard frame.masked else {
      return failed(CloseCode.protocolError, "an unmasked frame", at: now)
    }
    guard frame.reservedBits == 0 else {
      return failed(CloseCode.protocolError, "a reserved bit is set", at: now)
    }
    if closeReceived {
      // Nothing may follow a close (RFC 6455 §5.5.1); it costs, and is dropped.
      return charge(frame, at: now)
    }
    switch frame.opcode {
    case Opcode.close:
      return receivedClose(frame, at: now)
    case Opcode.ping, Opcode.pong:
      guard frame.fin else {
        return failed(CloseCode.protocolError, "a fragmented control frame", at: now)
      }
      guard frame.payload.count <= 125 else {
        return failed(CloseCode.protocolError, "a control frame over 125 bytes", at: now)
      }
      var actions = charge(frame, at: now)
      guard actions.isEmpty, frame.opcode == Opcode.ping, !closeSent else { return actions }
      // At most one pong waits: a newer ping's payload replaces it (§5.5.3).
      pendingPong = frame.payload
      if writable { actions += takePong() }
      return actions
    case Opcode.text, Opcode.binary:
      guard fragmentCount == 0 else {
        return failed(CloseCode.protocolError, "a new message inside a fragmented one", at: now)
      }
      return receivedData(frame, text: frame.opcode == Opcode.text, at: now)
    case Opcode.continuation:
      guard fragmentCount > 0 else {
        return failed(
          CloseCode.protocolError, "a continuation with no message to continue", at: now)
      }
      return receivedData(frame, text: fragmentedText, at: now)
    default:
      return failed(CloseCode.protocolError, "a reserved opcode", at: now)
    }
  }

  private mutating func receivedData(
    _ frame: Frame, text: Bool, at now: ContinuousClock.Instant
  ) -> [Action] {
    let limit = text ? limits.maximumMessageSize : limits.maximumChunkSize
    guard fragments.count + frame.payload.count <= limit else {
      return failed(CloseCode.tooLarge, "message too large", at: now)
    }
    if !frame.fin {
      guard fragmentCount < limits.maximumFragments else {
        return failed(CloseCode.tooLarge, "a message in too many fragments", at: now)
      }
      if fragmentCount == 0 { fragmentedText = text }
      fragmentCount += 1
      fragments += frame.payload
      // A text message's fragments must stay valid UTF-8 as far as they go (§8.1: fail fast).
      if text, !UTF8Check.isValidPrefix(fragments) {
        return failed(CloseCode.invalidData, "text that is not UTF-8", at: now)
      }
      return []
    }
    let payload: [UInt8]
    if fragmentCount > 0 {
      payload = fragments + frame.payload
      fragments = []
      fragmentCount = 0
    } else {
      payload = frame.payload
    }
    guard text else {
      // A binary message is an upload's chunk: no hello, and nothing before the hello is
      // checked.
      switch phase {
      case .waitingForHello:
        return close(code: CloseCode.noProof, reason: "no proof of the session", at: now)
      case .checking:
        return charge(bytes: payload.count, at: now)
      case .open:
        return [.deliverChunk(payload)]
      case .closing, .closed:
        return []
      }
    }
    guard let message = String(validating: payload, as: UTF8.self) else {
      return failed(CloseCode.invalidData, "text that is not UTF-8", at: now)
    }
    switch phase {
    case .waitingForHello:
      phase = .checking
      helloDeadline = nil
      return [.checkHello(message)]
    case .checking, .open:
      return [.deliver(message)]
    case .closing, .closed:
      // Sent before the page saw this side's close: dropped, and no waste.
      return []
    }
  }

  private mutating func receivedClose(
    _ frame: Frame, at now: ContinuousClock.Instant
  ) -> [Action] {
    guard frame.fin, frame.payload.count <= 125 else {
      return failed(CloseCode.protocolError, "a malformed close", at: now)
    }
    closeReceived = true
    let payload = frame.payload
    var code: UInt16?
    if payload.count == 1 {
      return failed(CloseCode.protocolError, "a close with half a code", at: now)
    }
    if payload.count >= 2 {
      let sent = UInt16(payload[0]) << 8 | UInt16(payload[1])
      guard Self.mayBeSent(sent) else {
        return failed(CloseCode.protocolError, "a close code no peer may send", at: now)
      }
      guard String(validating: payload[2...], as: UTF8.self) != nil else {
        return failed(CloseCode.invalidData, "a close reason that is not UTF-8", at: now)
      }
      code = sent
    }
    fragments = []
    fragmentCount = 0
    if closeSent {
      // The page answered this side's close: the handshake is done.
      phase = .closed
      clearDeadlines()
      return [.closeConnection]
    }
    // The page began: answer with its code, and end the connection once the answer is on
    // the wire, or when the answer cannot get there in time (the page stopped reading).
    closeSent = true
    phase = .closing
    clearDeadlines()
    closeDeadline = now + limits.closeAnswerTimeout
    pendingPong = nil
    return [.stopSending, .writeClose(code: code, reason: "")]
  }

  /// Whether a peer may send `code` in a close (RFC 6455 §7.4).
  package static func mayBeSent(_ code: UInt16) -> Bool {
    switch code {
    case 1000...1003, 1007...1011: true
    case 3000...4999: true
    default: false
    }
  }

  // MARK: - The budget

  /// Charges a frame of `bytes` that the session will not take to the budget: `[]`, or the
  /// close of a socket past it.
  private mutating func charge(bytes: Int, at now: ContinuousClock.Instant) -> [Action] {
    let budget = limits.budget
    if let charged {
      let elapsed = now - charged
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
      let grown = max(0, seconds)
      framesLeft = min(budget.frames, framesLeft + grown * budget.framesPerSecond)
      bytesLeft = min(budget.bytes, bytesLeft + grown * budget.bytesPerSecond)
    }
    charged = now
    framesLeft -= 1
    bytesLeft -= Double(max(0, bytes))
    guard framesLeft < 0 || bytesLeft < 0 else { return [] }
    return failed(CloseCode.policyViolation, "too many frames that are not messages", at: now)
  }

  private mutating func charge(_ frame: Frame, at now: ContinuousClock.Instant) -> [Action] {
    charge(bytes: frame.payload.count, at: now)
  }

  /// Charges a text message of `bytes` that the session refused (malformed, or of no type it
  /// knows) to the budget: `[]`, or the close of a socket past it.
  package mutating func refused(bytes: Int, at now: ContinuousClock.Instant) -> [Action] {
    guard phase != .closed, phase != .closing else { return [] }
    return charge(bytes: bytes, at: now)
  }

  // MARK: - Writing

  /// Whether the connection takes writes now: a waiting pong goes out once it does.
  package mutating func writabilityChanged(_ writable: Bool) -> [Action] {
    self.writable = writable
    return writable ? takePong() : []
  }

  private mutating func takePong() -> [Action] {
    guard let pong = pendingPong, !closeSent else { return [] }
    pendingPong = nil
    return [.writePong(pong)]
  }

  // MARK: - The hello

  /// The page's hello was good: the socket is attached to its session, and pinged after
  /// ``Limits/pingInterval`` of silence from `now`.
  package mutating func helloChecked(at now: ContinuousClock.Instant) -> [Action] {
    guard phase == .checking else { return [] }
    phase = .open
    heardSincePing = true
    pinged = false
    pingDeadline = now + limits.pingInterval
    return []
  }

  // MARK: - Deadlines

  /// The driver's timer fired at `now`: what is due.
  package mutating func deadlineReached(at now: ContinuousClock.Instant) -> [Action] {
    if let closeDeadline, closeDeadline <= now {
      phase = .closed
      clearDeadlines()
      return [.closeConnection]
    }
    if let helloDeadline, helloDeadline <= now {
      return close(code: CloseCode.noProof, reason: "no proof of the session", at: now)
    }
    guard let pingDeadline, pingDeadline <= now, phase == .open, !closeSent else { return [] }
    self.pingDeadline = now + limits.pingInterval
    if heardSincePing {
      heardSincePing = false
      pinged = false
      return []
    }
    if pinged {
      // Silent through a whole interval after its ping: the page is gone.
      phase = .closed
      clearDeadlines()
      return [.closeConnection]
    }
    pinged = true
    return [.writePing]
  }

  // MARK: - Closing

  /// Closes the socket from this side with `code`: the close is written behind what the page
  /// has not read; the connection ends when the page answers, `answerTimeout` after the close
  /// is on the wire (``closeWritten(at:)``), or `flushTimeout` from now if it never gets there.
  package mutating func close(
    code: UInt16, reason: String, at now: ContinuousClock.Instant,
    flushTimeout: Duration? = nil, answerTimeout: Duration? = nil
  ) -> [Action] {
    guard !closeSent, phase != .closed else { return [] }
    closeSent = true
    closedHere = true
    phase = .closing
    clearDeadlines()
    pendingPong = nil
    fragments = []
    fragmentCount = 0
    closeDeadline = now + (flushTimeout ?? limits.closeFlushTimeout)
    answerWait = answerTimeout ?? limits.closeAnswerTimeout
    // A reason is cut to fit a control frame (2 bytes of code, 123 of reason) on a boundary.
    var cut = Substring(reason)
    while cut.utf8.count > 123 { cut = cut.dropLast() }
    return [.stopSending, .writeClose(code: code, reason: String(cut))]
  }

  private var answerWait: Duration?

  /// Whether this side began the close (``close(code:reason:at:flushTimeout:answerTimeout:)``):
  /// the page broke a rule or fell behind, and what it sent that waits is not handled — a
  /// page that reconnects sends its unacknowledged gestures again.
  package private(set) var closedHere = false

  /// The close this side wrote is on the wire at `now`: the page has its answer wait from
  /// here. For a close the page began, the handshake is done.
  package mutating func closeWritten(at now: ContinuousClock.Instant) -> [Action] {
    guard phase == .closing else { return [] }
    if closeReceived {
      phase = .closed
      clearDeadlines()
      return [.closeConnection]
    }
    let answer = now + (answerWait ?? limits.closeAnswerTimeout)
    closeDeadline = min(closeDeadline ?? answer, answer)
    return []
  }

  /// The page's side ended (its end of the stream, or the connection failed): nothing more
  /// can come.
  package mutating func peerEnded() -> [Action] {
    guard phase != .closed else { return [] }
    phase = .closed
    clearDeadlines()
    return [.stopSending, .closeConnection]
  }

  private mutating func failed(
    _ code: UInt16, _ reason: String, at now: ContinuousClock.Instant
  ) -> [Action] {
    if closeSent {
      // Already closing: what the page sends is read no more, and the close's own deadline
      // ends the connection (never before the close had its time to reach the page).
      return [.stopReading]
    }
    return close(code: code, reason: reason, at: now, answerTimeout: .seconds(1)) + [.stopReading]
  }

  private mutating func clearDeadlines() {
    helloDeadline = nil
    pingDeadline = nil
    closeDeadline = nil
  }
}

/// UTF-8 validation of a prefix: bytes that are valid UTF-8 so far, allowing a sequence cut
/// at the end (the rest may come in the next fragment).
enum UTF8Check {
  static func isValidPrefix(_ bytes: [UInt8]) -> Bool {
    var index = 0
    let count = bytes.count
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return false
      }
      for offset in 1..<length {
        let position = index + offset
        guard position < count else { return true }  // cut at the end: may go on
        let byte = bytes[position]
        let (lower, upper) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
        guard byte >= lower, byte <= upper else { return false }
      }
      index += length
    }
    return true
  }
}
