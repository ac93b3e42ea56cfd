import Testing

@_spi(HandBuilt) @testable import TetherWeb

/// The socket core against the case groups of the Autobahn|Testsuite (its fuzzing client's
/// groups 1–7, 9 and 10; 12 and 13 are compression, which this server never negotiates, so a
/// compressed frame is refused by group 3's rule). Each test drives a core as a server's
/// socket would and checks what it does: the message delivered, the pong written, the close
/// code sent, the connection ended.
@Suite struct SocketCoreTests {
  typealias Frame = SocketCore.Frame
  typealias Op = SocketCore.Opcode

  static let start = ContinuousClock.now

  /// A core whose hello was accepted.
  static func openCore(_ limits: SocketCore.Limits = SocketCore.Limits()) -> SocketCore {
    var core = SocketCore(limits: limits, at: start)
    #expect(core.received(.text("hello"), at: start) == [.checkHello("hello")])
    #expect(core.helloChecked(at: start) == [])
    #expect(core.phase == .open)
    return core
  }

  /// The close code a list of actions writes, if any.
  static func closeCode(_ actions: [SocketCore.Action]) -> UInt16?? {
    for case .writeClose(let code, _) in actions { return .some(code) }
    return nil
  }

  // MARK: 1. Framing

  @Suite struct Framing {
    @Test func textMessagesOfEveryLengthClassAreDelivered() {
      var core = openCore()
      for length in [0, 1, 125, 126, 127, 128, 4_000, 4_096] {
        let text = String(repeating: "*", count: length)
        #expect(core.received(.text(text), at: start) == [.deliver(text)], "length \(length)")
      }
    }

    @Test func aBinaryMessageIsAnUploadChunkAndTheDriverChargesARefusedOne() {
      var core = openCore(
        SocketCore.Limits(budget: SocketCore.Budget(frames: 3, framesPerSecond: 0)))
      for _ in 0..<3 {
        #expect(
          core.received(Frame(opcode: Op.binary, payload: [1, 2, 3]), at: start)
            == [.deliverChunk([1, 2, 3])])
        // No file takes it: the driver charges it, as it charges text that is no message.
        #expect(core.refused(bytes: 3, at: start) == [])
      }
      _ = core.received(Frame(opcode: Op.binary, payload: [1]), at: start)
      let over = core.refused(bytes: 1, at: start)
      #expect(closeCode(over) == .some(SocketCore.CloseCode.policyViolation))
    }

    @Test func aChunkIsBoundedByTheChunkLimitAndTextByTheMessageLimit() {
      var core = openCore(SocketCore.Limits(maximumMessageSize: 100, maximumChunkSize: 200))
      let chunk = [UInt8](repeating: 7, count: 200)
      #expect(
        core.received(Frame(opcode: Op.binary, payload: chunk), at: start) == [
          .deliverChunk(chunk)
        ])
      // In fragments too: the limit is the whole message's.
      #expect(core.received(Frame(fin: false, opcode: Op.binary, payload: chunk), at: start) == [])
      let over = core.received(Frame(opcode: Op.continuation, payload: [1]), at: start)
      #expect(closeCode(over) == .some(SocketCore.CloseCode.tooLarge))
      var text = openCore(SocketCore.Limits(maximumMessageSize: 100, maximumChunkSize: 200))
      let long = text.received(.text(String(repeating: "*", count: 101)), at: start)
      #expect(closeCode(long) == .some(SocketCore.CloseCode.tooLarge))
    }

    @Test func aChunkWhileTheHelloIsCheckedIsCharged() {
      var core = SocketCore(
        limits: SocketCore.Limits(budget: SocketCore.Budget(frames: 1, framesPerSecond: 0)),
        at: start)
      #expect(core.received(.text("hello"), at: start) == [.checkHello("hello")])
      #expect(core.received(Frame(opcode: Op.binary, payload: [1]), at: start) == [])
      let over = core.received(Frame(opcode: Op.binary, payload: [1]), at: start)
      #expect(closeCode(over) == .some(SocketCore.CloseCode.policyViolation))
    }

    @Test func anUnmaskedFrameIsAProtocolError() {
      var core = openCore()
      let actions = core.received(Frame(opcode: Op.text, masked: false, payload: [65]), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.protocolError))
      #expect(!actions.contains(.deliver("A")))
    }

    @Test func aMessageLargerThanTheLimitIsClosedWith1009() {
      var core = openCore(SocketCore.Limits(maximumMessageSize: 100))
      let actions = core.received(.text(String(repeating: "x", count: 101)), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.tooLarge))
    }
  }

  // MARK: 2. Pings and pongs

  @Suite struct PingsAndPongs {
    @Test func aPingIsAnsweredWithItsPayload() {
      var core = openCore()
      let payload = Array("Hello, world!".utf8)
      #expect(
        core.received(Frame(opcode: Op.ping, payload: payload), at: start) == [.writePong(payload)])
      let binary: [UInt8] = [0x00, 0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0x00, 0xFF]
      #expect(
        core.received(Frame(opcode: Op.ping, payload: binary), at: start) == [.writePong(binary)])
      let largest = [UInt8](repeating: 0xFE, count: 125)
      #expect(
        core.received(Frame(opcode: Op.ping, payload: largest), at: start) == [.writePong(largest)])
    }

    @Test func aPingOver125BytesIsAProtocolError() {
      var core = openCore()
      let actions = core.received(
        Frame(opcode: Op.ping, payload: [UInt8](repeating: 0xFE, count: 126)), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.protocolError))
    }

    @Test func anUnsolicitedPongIsDroppedAndCosts() {
      var core = openCore(
        SocketCore.Limits(budget: SocketCore.Budget(frames: 2, framesPerSecond: 0)))
      #expect(core.received(Frame(opcode: Op.pong, payload: [1]), at: start) == [])
      #expect(core.received(Frame(opcode: Op.pong), at: start) == [])
      #expect(
        closeCode(core.received(Frame(opcode: Op.pong), at: start))
          == .some(SocketCore.CloseCode.policyViolation))
    }

    @Test func whileTheConnectionTakesNoWritesOnePongWaitsWithTheNewestPayload() {
      var core = openCore()
      #expect(core.writabilityChanged(false) == [])
      for number in 0..<10 {
        #expect(core.received(Frame(opcode: Op.ping, payload: [UInt8(number)]), at: start) == [])
      }
      #expect(core.writabilityChanged(true) == [.writePong([9])])
      #expect(core.writabilityChanged(true) == [])
    }

    @Test func aFloodOfPingsIsClosedWithinTheBudgetWhateverItsPace() {
      var core = openCore()
      var pongs = 0
      var closed: UInt16??
      for index in 0..<10_000 {
        let actions = core.received(
          Frame(opcode: Op.ping), at: start + .microseconds(index))
        pongs += actions.filter { if case .writePong = $0 { true } else { false } }.count
        if let code = closeCode(actions) {
          closed = code
          break
        }
      }
      #expect(closed == .some(SocketCore.CloseCode.policyViolation))
      #expect(pongs <= Int(SocketCore.Budget().frames))
    }

    @Test func aPingBeforeTheHelloCostsToo() {
      var core = SocketCore(
        limits: SocketCore.Limits(budget: SocketCore.Budget(frames: 1, framesPerSecond: 0)),
        at: start)
      #expect(core.received(Frame(opcode: Op.ping), at: start) == [.writePong([])])
      #expect(
        closeCode(core.received(Frame(opcode: Op.ping), at: start))
          == .some(SocketCore.CloseCode.policyViolation))
    }
  }

  // MARK: 3. Reserved bits

  @Suite struct ReservedBits {
    @Test(arguments: [UInt8(1), 2, 3, 4, 5, 6, 7])
    func anyReservedBitOnAnyFrameIsAProtocolError(bits: UInt8) {
      for opcode in [Op.text, Op.binary, Op.ping, Op.pong, Op.close] {
        var core = openCore()
        let actions = core.received(
          Frame(reservedBits: bits, opcode: opcode, payload: Array("Hi".utf8)), at: start)
        #expect(closeCode(actions) == .some(SocketCore.CloseCode.protocolError))
        #expect(!actions.contains(.deliver("Hi")))
      }
    }
  }

  // MARK: 4. Opcodes

  @Suite struct Opcodes {
    @Test(arguments: [UInt8(3), 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF])
    func aReservedOpcodeIsAProtocolError(opcode: UInt8) {
      var core = openCore()
      #expect(core.received(.text("before"), at: start) == [.deliver("before")])
      let actions = core.received(Frame(opcode: opcode, payload: [1, 2]), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.protocolError))
      // Nothing after the failure is delivered.
      #expect(!core.received(.text("after"), at: start).contains(.deliver("after")))
    }
  }

  // MARK: 5. Fragmentation

  @Suite struct Fragmentation {
    @Test func aFragmentedControlFrameIsAProtocolError() {
      for opcode in [Op.ping, Op.pong] {
        var core = openCore()
        let actions = core.received(Frame(fin: false, opcode: opcode, payload: [1]), at: start)
        #expect(closeCode(actions) == .some(SocketCore.CloseCode.protocolError))
      }
    }

    @Test func fragmentsAreJoinedAndAPingBetweenThemIsAnswered() {
      var core = openCore()
      #expect(
        core.received(Frame(fin: false, opcode: Op.text, payload: Array("frag".utf8)), at: start)
          == [])
      #expect(core.received(Frame(opcode: Op.ping, payload: [7]), at: start) == [.writePong([7])])
      #expect(
        core.received(
          Frame(fin: false, opcode: Op.continuation, payload: Array("ment".utf8)), at: start)
          == [])
      #expect(
        core.received(Frame(opcode: Op.continuation, payload: Array("ed".utf8)), at: start)
          == [.deliver("fragmented")])
    }

    @Test func aContinuationWithNoMessageToContinueIsAProtocolError() {
      for fin in [true, false] {
        var core = openCore()
        let actions = core.received(
          Frame(fin: fin, opcode: Op.continuation, payload: Array("x".utf8)), at: start)
        #expect(closeCode(actions) == .some(SocketCore.CloseCode.protocolError))
      }
    }

    @Test func aNewMessageInsideAFragmentedOneIsAProtocolError() {
      var core = openCore()
      #expect(core.received(Frame(fin: false, opcode: Op.text, payload: [65]), at: start) == [])
      let actions = core.received(.text("B"), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.protocolError))
    }

    @Test func fragmentsTogetherLargerThanTheLimitAreClosedWith1009() {
      var core = openCore(SocketCore.Limits(maximumMessageSize: 10))
      #expect(
        core.received(Frame(fin: false, opcode: Op.text, payload: Array("123456".utf8)), at: start)
          == [])
      let actions = core.received(
        Frame(opcode: Op.continuation, payload: Array("78901".utf8)), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.tooLarge))
    }

    @Test func tooManyFragmentsAreClosed() {
      var core = openCore(SocketCore.Limits(maximumFragments: 4))
      _ = core.received(Frame(fin: false, opcode: Op.text, payload: []), at: start)
      var closed: UInt16??
      for _ in 0..<10 {
        let actions = core.received(Frame(fin: false, opcode: Op.continuation), at: start)
        if let code = closeCode(actions) {
          closed = code
          break
        }
      }
      #expect(closed == .some(SocketCore.CloseCode.tooLarge))
    }
  }

  // MARK: 6. UTF-8 handling

  @Suite struct UTF8Handling {
    static let invalid: [[UInt8]] = [
      [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80],
      [0x80], [0xBF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],
      [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xFE], [0xFF],
      [0xC2], [0xE1, 0x80], [0xF0, 0x9F, 0x98],
    ]

    @Test func validTextInEveryWidthIsDelivered() {
      var core = openCore()
      for text in [
        "", "κόσμε", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFD}", "\u{10000}",
        "\u{10FFFF}", "😀 日本",
      ] {
        #expect(core.received(.text(text), at: start) == [.deliver(text)])
      }
    }

    @Test(arguments: invalid)
    func invalidTextIsClosedWith1007(bytes: [UInt8]) {
      var core = openCore()
      let actions = core.received(Frame(opcode: Op.text, payload: bytes), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.invalidData))
    }

    @Test func validTextSplitInsideACharacterAcrossFragmentsIsDelivered() {
      var core = openCore()
      let bytes = Array("κόσμε😀".utf8)
      for (index, byte) in bytes.enumerated() {
        let last = index == bytes.count - 1
        let frame = Frame(
          fin: last, opcode: index == 0 ? Op.text : Op.continuation, payload: [byte])
        let actions = core.received(frame, at: start)
        #expect(actions == (last ? [.deliver("κόσμε😀")] : []))
      }
    }

    @Test func invalidTextFailsAtTheFragmentThatBreaksIt() {
      var core = openCore()
      #expect(
        core.received(Frame(fin: false, opcode: Op.text, payload: [0xCE, 0xBA]), at: start) == [])
      let actions = core.received(
        Frame(fin: false, opcode: Op.continuation, payload: [0xED, 0xA0, 0x80]), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.invalidData))
    }

    @Test func aMessageThatEndsInsideACharacterIsInvalid() {
      var core = openCore()
      #expect(core.received(Frame(fin: false, opcode: Op.text, payload: [0x41]), at: start) == [])
      let actions = core.received(Frame(opcode: Op.continuation, payload: [0xE2, 0x82]), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.invalidData))
    }
  }

  // MARK: 7. Close handling

  @Suite struct CloseHandling {
    static func closeFrame(_ code: UInt16?, _ reason: [UInt8] = []) -> Frame {
      guard let code else { return Frame(opcode: Op.close) }
      return Frame(opcode: Op.close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + reason)
    }

    @Test func aPagesCloseIsEchoedThenTheConnectionEndsOnceItIsWritten() {
      var core = openCore()
      #expect(
        core.received(Self.closeFrame(1000), at: start) == [
          .stopSending, .writeClose(code: 1000, reason: ""),
        ])
      #expect(core.phase == .closing)
      #expect(!core.closedHere, "the page began: its numbered gestures that wait are its own")
      // Nothing the page sends after its close is delivered.
      #expect(core.received(.text("late"), at: start) == [])
      #expect(core.received(Frame(opcode: Op.ping), at: start) == [])
      #expect(core.closeWritten(at: start) == [.closeConnection])
      #expect(core.phase == .closed)
    }

    @Test func aCloseWithNoCodeIsAnsweredWithNone() {
      var core = openCore()
      #expect(
        core.received(Self.closeFrame(nil), at: start) == [
          .stopSending, .writeClose(code: nil, reason: ""),
        ])
    }

    @Test func aPagesCloseThatCannotBeAnsweredStillEndsTheConnectionInTime() {
      // The page stopped reading: the answer never reaches the wire.
      var core = openCore()
      _ = core.received(Self.closeFrame(1000), at: start)
      #expect(core.nextDeadline.map { $0 - start <= .seconds(3) } == true)
      #expect(core.deadlineReached(at: start + .seconds(3)) == [.closeConnection])
    }

    @Test func aCloseThisSideBeganEndsWhenThePageAnswersOrAfterItsWait() {
      var answered = openCore()
      #expect(
        answered.close(code: 4408, reason: "fell behind", at: start)
          == [.stopSending, .writeClose(code: 4408, reason: "fell behind")])
      #expect(answered.closedHere, "what the page sent that waits is dropped")
      #expect(answered.received(Self.closeFrame(4408), at: start) == [.closeConnection])

      var silent = openCore()
      _ = silent.close(code: 4408, reason: "fell behind", at: start)
      #expect(silent.nextDeadline == start + .seconds(15))
      #expect(silent.closeWritten(at: start + .seconds(1)) == [])
      #expect(silent.nextDeadline == start + .seconds(4))
      #expect(silent.deadlineReached(at: start + .seconds(4)) == [.closeConnection])
    }

    /// A page that had not read this side's close yet (it fell behind) goes on sending: what it
    /// sent is dropped at no cost, and nothing cuts the connection before the close's deadline.
    @Test func messagesInFlightBehindThisSidesCloseAreDroppedFreely() {
      var core = openCore(
        SocketCore.Limits(budget: SocketCore.Budget(frames: 2, framesPerSecond: 0)))
      _ = core.close(code: 4408, reason: "fell behind", at: start)
      for _ in 0..<1_000 { #expect(core.received(.text("{}"), at: start) == []) }
      // Control frames still cost; past the budget they are read no more, and the connection
      // still waits for the close's own deadline.
      var stopped = false
      for _ in 0..<10 where !stopped {
        let actions = core.received(Frame(opcode: Op.ping), at: start)
        #expect(!actions.contains(.closeConnection))
        stopped = actions.contains(.stopReading)
      }
      #expect(stopped)
      #expect(core.nextDeadline == start + .seconds(15))
    }

    @Test func aCloseWithHalfACodeOrOver125BytesIsAProtocolError() {
      var half = openCore()
      #expect(
        closeCode(half.received(Frame(opcode: Op.close, payload: [3]), at: start))
          == .some(SocketCore.CloseCode.protocolError))
      var long = openCore()
      #expect(
        closeCode(
          long.received(Self.closeFrame(1000, [UInt8](repeating: 0x2A, count: 124)), at: start))
          == .some(SocketCore.CloseCode.protocolError))
      var longest = openCore()
      #expect(
        longest.received(Self.closeFrame(1000, [UInt8](repeating: 0x2A, count: 123)), at: start)
          == [.stopSending, .writeClose(code: 1000, reason: "")])
    }

    @Test func aCloseReasonThatIsNotUTF8IsClosedWith1007() {
      var core = openCore()
      let actions = core.received(Self.closeFrame(1000, [0xCE, 0xBA, 0xED, 0xA0, 0x80]), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.invalidData))
    }

    @Test(arguments: [
      UInt16(1000), 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999,
    ])
    func aValidCloseCodeIsEchoed(code: UInt16) {
      var core = openCore()
      #expect(
        core.received(Self.closeFrame(code), at: start) == [
          .stopSending, .writeClose(code: code, reason: ""),
        ])
    }

    @Test(arguments: [
      UInt16(0), 999, 1004, 1005, 1006, 1012, 1013, 1014, 1015, 1016, 1100, 2000, 2999, 5000,
      65_535,
    ])
    func anInvalidCloseCodeIsAProtocolError(code: UInt16) {
      var core = openCore()
      let actions = core.received(Self.closeFrame(code), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.protocolError))
    }

    @Test func aReasonLongerThanAControlFrameIsCutOnACharacterBoundary() {
      var core = openCore()
      let actions = core.close(code: 4403, reason: String(repeating: "é", count: 100), at: start)
      guard case .writeClose(_, let reason)? = actions.last else {
        Issue.record("no close written")
        return
      }
      #expect(reason.utf8.count <= 123)
      #expect(reason.allSatisfy { $0 == "é" })
    }
  }

  // MARK: 9. Limits, and the socket's deadlines

  @Suite struct LimitsAndDeadlines {
    @Test func aSocketThatSaysNoHelloIsClosedWith4403() {
      var core = SocketCore(at: start)
      #expect(core.nextDeadline == start + .seconds(5))
      let actions = core.deadlineReached(at: start + .seconds(5))
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.noProof))
    }

    @Test func aBinaryFirstMessageIsNoHello() {
      var core = SocketCore(at: start)
      let actions = core.received(Frame(opcode: Op.binary, payload: [1]), at: start)
      #expect(closeCode(actions) == .some(SocketCore.CloseCode.noProof))
    }

    @Test func aSilentPageIsPingedThenClosed() {
      var core = openCore()
      let interval = SocketCore.Limits().pingInterval
      // The first interval had the hello in it: nothing is due.
      #expect(core.deadlineReached(at: start + interval) == [])
      #expect(core.deadlineReached(at: start + interval * 2) == [.writePing])
      #expect(core.deadlineReached(at: start + interval * 3) == [.closeConnection])
    }

    @Test func aPageThatAnswersItsPingStaysOpen() {
      var core = openCore()
      let interval = SocketCore.Limits().pingInterval
      _ = core.deadlineReached(at: start + interval)
      #expect(core.deadlineReached(at: start + interval * 2) == [.writePing])
      #expect(core.received(Frame(opcode: Op.pong), at: start + interval * 2) == [])
      #expect(core.deadlineReached(at: start + interval * 3) == [])
      #expect(core.phase == .open)
    }

    @Test func textThatIsNotAMessageCostsInFramesAndBytes() {
      var byCount = openCore(
        SocketCore.Limits(budget: SocketCore.Budget(frames: 5, framesPerSecond: 0)))
      for _ in 0..<5 { #expect(byCount.refused(bytes: 1, at: start) == []) }
      #expect(
        closeCode(byCount.refused(bytes: 1, at: start))
          == .some(SocketCore.CloseCode.policyViolation))

      var byBytes = openCore(
        SocketCore.Limits(
          budget: SocketCore.Budget(frames: 1_000, bytes: 10_000, bytesPerSecond: 0)))
      #expect(byBytes.refused(bytes: 4_000, at: start) == [])
      #expect(byBytes.refused(bytes: 4_000, at: start) == [])
      #expect(
        closeCode(byBytes.refused(bytes: 4_000, at: start))
          == .some(SocketCore.CloseCode.policyViolation))
    }

    @Test func theBudgetGrowsBackAtItsRate() {
      var core = openCore(
        SocketCore.Limits(budget: SocketCore.Budget(frames: 2, framesPerSecond: 2)))
      for second in 0..<20 {
        let now = start + .seconds(second)
        #expect(core.received(Frame(opcode: Op.pong), at: now) == [])
        #expect(core.received(Frame(opcode: Op.pong), at: now + .milliseconds(500)) == [])
      }
    }
  }

  // MARK: 10. Miscellaneous

  @Suite struct Miscellaneous {
    @Test func aMessageInManySmallFragmentsIsOneMessage() {
      var core = openCore()
      let text = String(repeating: "a", count: 60)
      let bytes = Array(text.utf8)
      for index in stride(from: 0, to: bytes.count, by: 1) {
        let last = index == bytes.count - 1
        let actions = core.received(
          Frame(fin: last, opcode: index == 0 ? Op.text : Op.continuation, payload: [bytes[index]]),
          at: start)
        #expect(actions == (last ? [.deliver(text)] : []))
      }
    }

    @Test func afterTheConnectionEndedNothingHappens() {
      var core = openCore()
      #expect(core.peerEnded() == [.stopSending, .closeConnection])
      #expect(core.received(.text("x"), at: start) == [])
      #expect(core.nextDeadline == nil)
      #expect(core.close(code: 1000, reason: "", at: start) == [])
    }
  }
}
