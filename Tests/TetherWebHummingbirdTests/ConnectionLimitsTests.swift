#if WebServer
  import NIOCore
  import NIOEmbedded
  import Testing

  @testable import TetherWebHummingbird

  /// The connection limits' parts, each on an in-memory channel with a clock the test moves.
  @Suite struct ConnectionLimitsTests {
    @Test func theCapIsTheOneGivenOrHalfTheDescriptorLimit() throws {
      #expect(WebConnectionLimits(maximumConnections: 7).connectionCap == 7)
      #expect(WebConnectionLimits(maximumConnections: 0).connectionCap == 1)
      let descriptors = try #require(WebConnectionLimits.descriptorLimit())
      #expect(WebConnectionLimits().connectionCap == min(4_096, descriptors / 2))
    }

    @Test func theGateCountsInAllAndPerAddress() {
      let gate = ConnectionGate(
        limits: WebConnectionLimits(maximumConnections: 3, maximumConnectionsPerAddress: 2),
        logger: .init(label: "test"))
      #expect(gate.admit("10.0.0.1"))
      #expect(gate.admit("10.0.0.1"))
      #expect(!gate.admit("10.0.0.1"), "a third from one address")
      #expect(gate.admit("10.0.0.2"))
      #expect(!gate.admit("10.0.0.3"), "a fourth in all")
      #expect(gate.open == 3)
      gate.release("10.0.0.1")
      #expect(gate.admit("10.0.0.3"))
      #expect(!gate.admit("10.0.0.1"), "three in all again")
      gate.release("10.0.0.3")
      gate.release("10.0.0.2")
      #expect(gate.admit("10.0.0.1"), "one from it, one in all: room for another")
      #expect(gate.open == 2)
    }

    private func activeChannel(_ handler: some ChannelHandler) throws -> EmbeddedChannel {
      let channel = EmbeddedChannel()
      try channel.pipeline.syncOperations.addHandler(handler)
      try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
      return channel
    }

    private func written(_ channel: EmbeddedChannel) throws -> String {
      var text = ""
      while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
        text += String(buffer: buffer)
      }
      return text
    }

    @Test func aHeadThatDoesNotEndInTimeIsAnswered408AndClosed() throws {
      let channel = try activeChannel(RequestHeadDeadline(timeout: .seconds(10)))
      // A slowloris client: a header line every few seconds, never the blank line.
      for line in ["GET / HTTP/1.1\r\n", "Host: x\r\n", "X-Slow: 1\r\n"] {
        try channel.writeInbound(channel.allocator.buffer(string: line))
        channel.embeddedEventLoop.advanceTime(by: .seconds(3))
      }
      #expect(channel.isActive, "9 s in")
      channel.embeddedEventLoop.advanceTime(by: .seconds(1))
      #expect(try written(channel).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
      #expect(!channel.isActive)
    }

    @Test func aHeadThatEndsInTimeLeavesTheConnectionAlone() throws {
      let channel = try activeChannel(RequestHeadDeadline(timeout: .seconds(10)))
      try channel.writeInbound(channel.allocator.buffer(string: "GET / HTTP/1.1\r\nHost: x\r"))
      channel.embeddedEventLoop.advanceTime(by: .seconds(5))
      try channel.writeInbound(channel.allocator.buffer(string: "\n\r\n"))
      var passed = ""
      while let buffer = try channel.readInbound(as: ByteBuffer.self) {
        passed += String(buffer: buffer)
      }
      #expect(passed == "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "every byte goes on")
      channel.embeddedEventLoop.advanceTime(by: .seconds(60))
      #expect(channel.isActive)
      #expect(try written(channel).isEmpty)
      #expect(throws: (any Error).self, "the handler left the pipeline") {
        try channel.pipeline.syncOperations.handler(type: RequestHeadDeadline.self)
      }
    }

    @Test func aConnectionBeyondTheLimitsIsAnswered503AndClosed() throws {
      let channel = try activeChannel(RefusedConnection())
      let answer = try written(channel)
      #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
      #expect(answer.contains("Retry-After: 5\r\n"))
      let body = answer.components(separatedBy: "\r\n\r\n").last ?? ""
      #expect(answer.contains("Content-Length: \(body.utf8.count)\r\n"))
      #expect(!channel.isActive)
    }
  }
#endif
