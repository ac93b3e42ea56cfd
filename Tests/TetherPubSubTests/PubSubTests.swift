import Testing

@testable import TetherPubSub

struct ChatLine: Codable, Sendable, Equatable {
  var author: String
  var text: String
}

struct Viewer: Codable, Sendable, Equatable {
  var name: String
}

/// Messages between nodes on one bus: typed, in order, checked before they leave.
@Suite(.timeLimit(.minutes(1))) struct PubSubTests {
  let room = Topic<ChatLine>("chat.lobby")

  @Test func aMessageReachesEverySubscriberOnEveryNodeInOrder() async throws {
    let bus = InProcessPubSub()
    let first = PubSub(transport: bus.transport(), node: "a")
    let second = PubSub(transport: bus.transport(), node: "b")
    try await first.start()
    try await second.start()
    var here = first.messages(on: room).makeAsyncIterator()
    var there = second.messages(on: room).makeAsyncIterator()
    for index in 1...3 {
      try await first.publish(ChatLine(author: "ada", text: "line \(index)"), to: room)
    }
    for index in 1...3 {
      #expect(await here.next()?.text == "line \(index)")
      #expect(await there.next()?.text == "line \(index)")
    }
    await first.shutdown()
    await second.shutdown()
  }

  @Test func anotherTopicsMessagesAndAnotherTypesAreNotDelivered() async throws {
    let bus = InProcessPubSub()
    let first = PubSub(transport: bus.transport(), node: "a")
    let second = PubSub(transport: bus.transport(), node: "b")
    try await first.start()
    try await second.start()
    // The same name with another type: every node must agree on a topic's type.
    let numbers = Topic<Int>("chat.lobby")
    var lines = second.messages(on: room).makeAsyncIterator()
    var wrongType = second.messages(on: numbers).makeAsyncIterator()
    try await first.publish(ChatLine(author: "ada", text: "only here"), to: Topic("chat.other"))
    try await first.publish(ChatLine(author: "ada", text: "hello"), to: room)
    #expect(await lines.next()?.text == "hello")
    try await first.publish(7, to: numbers)
    #expect(await wrongType.next() == 7)
    // The line did not decode as an Int, nor the 7 as a line.
    #expect(second.droppedMessages == 2)
    await first.shutdown()
    await second.shutdown()
  }

  @Test func aMessageOverTheSizeLimitIsRefusedBeforeItLeaves() async throws {
    let bus = InProcessPubSub()
    let node = PubSub(
      transport: bus.transport(), node: "a", limits: PubSubLimits(maximumMessageBytes: 100))
    try await node.start()
    let big = ChatLine(author: "ada", text: String(repeating: "é", count: 100))
    await #expect(throws: PubSubError.tooLarge(bytes: 226, limit: 100)) {
      try await node.publish(big, to: room)
    }
    // The transport's own limit counts too: a bus of 256-byte payloads.
    let small = PubSub(transport: bus.transport(maximumPayloadBytes: 256), node: "b")
    try await small.start()
    await #expect(throws: PubSubError.self) {
      try await small.publish(
        ChatLine(author: "ada", text: String(repeating: "x", count: 300)), to: room)
    }
    await node.shutdown()
    await small.shutdown()
  }

  @Test func aPublisherOverItsRateIsRefusedAndAnotherIsNot() async throws {
    let node = PubSub(
      transport: InProcessPubSub().transport(), node: "a",
      limits: PubSubLimits(messagesPerSecond: 0.001, burst: 3))
    try await node.start()
    for _ in 0..<3 {
      try await node.publish(ChatLine(author: "m", text: "hi"), to: room, from: "mallory")
    }
    await #expect(throws: PubSubError.rateLimited(publisher: "mallory")) {
      try await node.publish(ChatLine(author: "m", text: "hi"), to: room, from: "mallory")
    }
    try await node.publish(ChatLine(author: "a", text: "hi"), to: room, from: "ada")
    await node.shutdown()
  }

  @Test(arguments: ["", String(repeating: "t", count: 201), "line\nbreak", "nul\u{0}"])
  func aBadTopicNameIsRefused(_ name: String) async throws {
    let node = PubSub(transport: InProcessPubSub().transport())
    try await node.start()
    await #expect(throws: PubSubError.invalidTopic(name)) {
      try await node.publish(ChatLine(author: "a", text: "b"), to: Topic(name))
    }
    await node.shutdown()
  }

  @Test func aNodeNotStartedOrShutDownRefusesToPublishAndEndsItsStreams() async throws {
    let node = PubSub(transport: InProcessPubSub().transport())
    await #expect(throws: PubSubError.notRunning) {
      try await node.publish(ChatLine(author: "a", text: "b"), to: room)
    }
    try await node.start()
    let stream = node.messages(on: room)
    await node.shutdown()
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next() == nil)
    #expect(node.subscriberCount == 0)
    await #expect(throws: PubSubError.notRunning) { try await node.start() }
  }

  /// Hostile payloads on a shared channel: any Unicode, extreme numbers, torn envelopes.
  @Test func payloadsNotWrittenByANodeAreDroppedAndCounted() async throws {
    let bus = InProcessPubSub()
    let node = PubSub(transport: bus.transport(), node: "a")
    try await node.start()
    let intruder = bus.transport()
    try await intruder.connect { _ in }
    var lines = node.messages(on: room).makeAsyncIterator()
    let hostile = [
      "", "T1", "T1\u{1F}m", "T2\u{1F}m\u{1F}x\u{1F}chat.lobby\u{1F}{}",
      "T1\u{1F}m\u{1F}x\u{1F}chat.lobby\u{1F}{\"author\":1e400}",
      "T1\u{1F}m\u{1F}x\u{1F}chat.lobby\u{1F}\u{FFFF}\u{10FFFF}👩‍👩‍👧",
      "T1\u{1F}j\u{1F}x\u{1F}v\u{1F}{\"v\":18446744073709551616}",
      "T1\u{1F}s\u{1F}x\u{1F}\u{1F}{\"v\":1,\"p\":-1,\"n\":9223372036854775807,\"e\":[]}",
      "T1\u{1F}h\u{1F}x\u{1F}\u{1F}-1",
    ]
    for payload in hostile { try await intruder.send(payload) }
    try await intruder.send(
      Envelope(kind: .message, node: "x", topic: "chat.lobby", body: #"{"author":"x","text":"ok"}"#)
        .encoded)
    #expect(await lines.next() == ChatLine(author: "x", text: "ok"))
    #expect(node.droppedMessages == 9)
    #expect(node.present(on: PresenceTopic<Viewer>("v")).isEmpty)
    await node.shutdown()
  }
}

/// A node's shutdown racing its publishers and trackers: every call returns — sent, or
/// refused as not running — and none waits forever on a payload the shutdown dropped.
@Suite(.timeLimit(.minutes(1))) struct PubSubShutdownTests {
  @Test func everyPublishRacingAShutdownReturns() async throws {
    let room = Topic<ChatLine>("chat.race")
    let here = PresenceTopic<Viewer>("race.viewers")
    for round in 1...200 {
      let bus = InProcessPubSub()
      let node = PubSub(
        transport: bus.transport(), node: "n\(round)",
        limits: PubSubLimits(messagesPerSecond: 1000, burst: 1000))
      try await node.start()
      let outcomes = await withTaskGroup(of: Bool.self) { group in
        for index in 0..<8 {
          group.addTask {
            do throws(PubSubError) {
              if index.isMultiple(of: 2) {
                try await node.publish(ChatLine(author: "a", text: "\(index)"), to: room)
              } else {
                try await node.track("v\(index)", meta: Viewer(name: "v"), on: here)
              }
              return true
            } catch {
              return error == .notRunning
            }
          }
        }
        group.addTask {
          await node.shutdown()
          return true
        }
        var all: [Bool] = []
        for await outcome in group { all.append(outcome) }
        return all
      }
      #expect(outcomes.count == 9 && outcomes.allSatisfy { $0 }, "round \(round)")
    }
  }
}
