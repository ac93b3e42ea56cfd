import TetherPubSub

// The compiled companion of Sources/TetherPubSub/Documentation.docc/TetherPubSub.md.
enum TetherPubSubArticle {
  static func overview() async throws {
    struct ChatLine: Codable, Sendable { var author: String; var text: String }
    struct Viewer: Codable, Sendable, Equatable { var name: String }

    let room = Topic<ChatLine>("chat.lobby")
    let viewers = PresenceTopic<Viewer>("chat.lobby.viewers")

    let pubsub = PubSub(transport: InProcessPubSub().transport())
    try await pubsub.start()
    try await pubsub.track("ada", meta: Viewer(name: "Ada"), on: viewers)
    try await pubsub.publish(ChatLine(author: "Ada", text: "Hello"), to: room, from: "ada")
  }
}
