import Tether
import TetherPubSub

// The compiled companion of the Swift blocks in the doc comments of `Sources/TetherPubSub`
// (DocSnippetTests checks that each appears here). Nothing here runs; it must compile.
enum TetherPubSubDocComments {
  // Sources/TetherPubSub/Topic.swift
  struct ChatLine: Codable, Sendable { var author: String; var text: String }
  struct Viewer: Codable, Sendable, Equatable { var name: String }
  static func topics() {
    struct ChatLine: Codable, Sendable { var author: String; var text: String }
    let room = Topic<ChatLine>("chat.lobby")
    struct Viewer: Codable, Sendable, Equatable { var name: String }
    let viewers = PresenceTopic<Viewer>("todos.list-42.viewers")
    _ = (room, viewers)
  }

  // Sources/TetherPubSub/PubSubTransport.swift, PubSub.swift
  static func node(room: Topic<ChatLine>) async throws {
    let bus = InProcessPubSub()
    let pubsub = PubSub(transport: bus.transport())
    try await pubsub.start()
    _ = pubsub
  }

  static func publish(room: Topic<ChatLine>) async throws {
    let pubsub = PubSub(transport: InProcessPubSub().transport())
    try await pubsub.start()
    try await pubsub.publish(ChatLine(author: "Ada", text: "Hello"), to: room, from: "session-1")
  }

  // Sources/TetherPubSub/PubSub+ViewModels.swift
  @MainActor final class ChatViewModel: @MainActor LifetimeProvider {
    let lifetime = Lifetime()
    private(set) var lines: Signal<ChatLine> = .never

    init(pubsub: PubSub, room: Topic<ChatLine>) {
      lines = pubsub.signal(for: room, owner: self)
    }
  }

  @MainActor static func presence(pubsub: PubSub, topic: PresenceTopic<Viewer>) {
    let viewers: Property<[PresenceEntry<Viewer>]> = pubsub.presence(on: topic)
    _ = viewers
  }
}
