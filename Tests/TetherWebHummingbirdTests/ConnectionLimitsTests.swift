#if WebServer
  import NIOCore
  import NIOEmbedded
  import NIOHTTP1
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

    /// A connection as the server's pipeline starts it: the deadline first, the HTTP codec, and
    /// the check of the first head.
    private func headPipeline() throws -> EmbeddedChannel {
      let channel = try activeChannel(RequestHeadDeadline(timeout: .seconds(10)))
      try channel.pipeline.syncOperations.addHandlers(
        HTTPResponseEncoder(), ByteToMessageHandler(HTTPRequestDecoder()), RequestHeadCheck())
      return channel
    }

    @Test func aValidHeadInTimeLeavesTheConnectionAloneAndGoesOn() throws {
      let channel = try headPipeline()
      try channel.writeInbound(channel.allocator.buffer(string: "GET / HTTP/1.1\r\nHost: x\r"))
      channel.embeddedEventLoop.advanceTime(by: .seconds(5))
      try channel.writeInbound(channel.allocator.buffer(string: "\n\r\n"))
      guard case .head(let head)? = try channel.readInbound(as: HTTPServerRequestPart.self) else {
        Issue.record("the head did not go on")
        return
      }
      #expect(head.uri == "/" && head.headers["host"] == ["x"])
      channel.embeddedEventLoop.advanceTime(by: .seconds(60))
      #expect(channel.isActive)
      #expect(try written(channel).isEmpty)
      #expect(throws: (any Error).self, "the deadline left the pipeline") {
        try channel.pipeline.syncOperations.handler(type: RequestHeadDeadline.self)
      }
      #expect(throws: (any Error).self, "and so did the check") {
        try channel.pipeline.syncOperations.handler(type: RequestHeadCheck.self)
      }
    }

    /// Finding 1 of the third attack run: a blank line ended the deadline whether or not the
    /// head parsed, and a head that did not parse was never answered.
    @Test(arguments: [
      "GARBAGE\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: x\r\nX-Note: a\u{0}b\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
      "GET / HTTP/1.1\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
    ])
    func aHeadThatDoesNotParseOrNamesNoHostIsAnswered400AndClosed(head: String) throws {
      let channel = try headPipeline()
      _ = try? channel.writeInbound(channel.allocator.buffer(string: head))
      #expect(
        try written(channel).hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(head.debugDescription)")
      #expect(!channel.isActive)
    }

    @Test func anHTTP10HeadWithoutHostGoesOn() throws {
      let channel = try headPipeline()
      try channel.writeInbound(channel.allocator.buffer(string: "GET /health HTTP/1.0\r\n\r\n"))
      guard case .head? = try channel.readInbound(as: HTTPServerRequestPart.self) else {
        Issue.record("the head did not go on")
        return
      }
      #expect(channel.isActive)
    }

    @Test func aSocketUpgradeOfAnotherVersionIsAnswered426AndOneWithoutAKey400() throws {
      let upgrade = "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
      let version = try headPipeline()
      _ = try? version.writeInbound(
        version.allocator.buffer(
          string: upgrade
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n"))
      let answer = try written(version)
      #expect(answer.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"))
      #expect(answer.lowercased().contains("sec-websocket-version: 13\r\n"))
      let keyless = try headPipeline()
      _ = try? keyless.writeInbound(
        keyless.allocator.buffer(string: upgrade + "Sec-WebSocket-Version: 13\r\n\r\n"))
      #expect(try written(keyless).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
    }

    @Test func anUpgradeToAProtocolNotSpokenHereGoesOnAsPlainHTTP() throws {
      let channel = try headPipeline()
      try channel.writeInbound(
        channel.allocator.buffer(
          string: "GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"))
      guard case .head(let head)? = try channel.readInbound(as: HTTPServerRequestPart.self) else {
        Issue.record("the head did not go on")
        return
      }
      #expect(head.headers["upgrade"].isEmpty, "its upgrade is dropped")
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
