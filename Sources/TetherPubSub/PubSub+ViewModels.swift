import Tether

extension PubSub {
  /// The messages on `topic` as a signal that lives as long as `owner`: a view model's feed.
  ///
  /// ```swift
  /// @MainActor final class ChatViewModel: @MainActor LifetimeProvider {
  ///   let lifetime = Lifetime()
  ///   private(set) var lines: Signal<ChatLine> = .never
  ///
  ///   init(pubsub: PubSub, room: Topic<ChatLine>) {
  ///     lines = pubsub.signal(for: room, owner: self)
  ///   }
  /// }
  /// ```
  ///
  /// The subscription ends when `owner`'s lifetime ends (the owner is deallocated or its
  /// `Lifetime.end()` is called); events are sent on `isolation`, in arrival order.
  ///
  /// - Parameters:
  ///   - topic: The topic.
  ///   - owner: Whose lifetime bounds the subscription.
  ///   - isolation: Where the signal sends; inferred from the caller.
  /// - Returns: The signal.
  public func signal<Message, Owner: LifetimeProvider>(
    for topic: Topic<Message>, owner: Owner, isolation: isolated (any Actor) = #isolation
  ) -> Signal<Message> {
    Self.signal(of: messages(on: topic), owner: owner, isolation: isolation)
  }

  /// Who is on `topic`, as a property that follows every join and leave while it is kept.
  ///
  /// ```swift
  /// let viewers: Property<[PresenceEntry<Viewer>]> = pubsub.presence(on: topic)
  /// ```
  ///
  /// - Parameters:
  ///   - topic: The presence topic.
  ///   - isolation: Where the property changes; inferred from the caller.
  /// - Returns: A property holding everyone on the topic now, then after each change; it
  ///   stops following when it is deallocated.
  public func presence<Meta>(
    on topic: PresenceTopic<Meta>, isolation: isolated (any Actor) = #isolation
  ) -> Property<[PresenceEntry<Meta>]> {
    Property(
      initial: present(on: topic), then: presenceUpdates(on: topic).map(\.present),
      isolation: isolation)
  }

  /// The joins and leaves on `topic` as a signal that lives as long as `owner`: for "Ada
  /// joined" notes. Its first event is everyone there now, as joins.
  ///
  /// - Parameters:
  ///   - topic: The presence topic.
  ///   - owner: Whose lifetime bounds the subscription.
  ///   - isolation: Where the signal sends; inferred from the caller.
  /// - Returns: The signal of updates.
  public func presenceChanges<Meta, Owner: LifetimeProvider>(
    on topic: PresenceTopic<Meta>, owner: Owner, isolation: isolated (any Actor) = #isolation
  ) -> Signal<PresenceUpdate<Meta>> {
    Self.signal(of: presenceUpdates(on: topic), owner: owner, isolation: isolation)
  }

  /// Tracks `key` on `topic` for as long as `owner` lives: a screen that says who is viewing
  /// it. The entry leaves when `owner`'s lifetime ends.
  ///
  /// - Parameters:
  ///   - key: Who is here.
  ///   - meta: What the others see of them.
  ///   - topic: Where.
  ///   - owner: Whose lifetime bounds the entry.
  ///   - isolation: Where the entry is ended; inferred from the caller.
  /// - Throws: What ``track(_:meta:on:)`` throws; then nothing is tracked.
  public func track<Meta, Owner: LifetimeProvider>(
    _ key: String, meta: Meta, on topic: PresenceTopic<Meta>, owner: Owner,
    isolation: isolated (any Actor) = #isolation
  ) async throws(PubSubError) {
    let reference = try await track(key, meta: meta, on: topic)
    owner.lifetime.add(
      ObservationToken.onCancel { [weak self] in
        guard let self else { return }
        Task { await self.untrack(reference) }
      })
  }

  /// A signal sending each element of `stream` on `isolation` until `owner`'s lifetime ends.
  private static func signal<Element, Owner: LifetimeProvider>(
    of stream: AsyncStream<Element>, owner: Owner, isolation: isolated (any Actor)
  ) -> Signal<Element> {
    let (signal, input) = Signal<Element>.pipe()
    let task = Task {
      _ = isolation
      for await element in stream { input.send(element) }
    }
    owner.lifetime.add(ObservationToken.onCancel { task.cancel() })
    return signal
  }
}
