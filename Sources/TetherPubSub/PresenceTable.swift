/// One tracked entry as every node keeps it: its metadata stays JSON until a typed subscriber
/// reads it.
struct PresenceItem: Equatable, Sendable {
  var topic: String
  var ref: String
  var key: String
  var meta: String
  var node: String
}

/// The presence entries that joined and left, by topic.
struct PresenceChanges {
  var joins: [String: [PresenceItem]] = [:]
  var leaves: [String: [PresenceItem]] = [:]

  var isEmpty: Bool { joins.isEmpty && leaves.isEmpty }
  var topics: Set<String> { Set(joins.keys).union(leaves.keys) }

  mutating func join(_ item: PresenceItem) { joins[item.topic, default: []].append(item) }
  mutating func leave(_ item: PresenceItem) { leaves[item.topic, default: []].append(item) }
}

/// Who is on each presence topic, as one node knows it: its own entries, and each other node's
/// as that node last said, with the version it said it at.
///
/// Each node is the only writer of its own entries and numbers its changes (its version). A
/// join or leave applies when it is the next number from that node; any gap, and any heartbeat
/// naming another version, makes this node ask that node for all its entries again (a state,
/// in parts that each fit a payload). A node not heard from within the timeout is dropped with
/// its entries, and so is a node that says goodbye.
struct PresenceTable {
  struct Remote {
    var version: UInt64 = 0
    var lastHeard: ContinuousClock.Instant
    var items: [String: PresenceItem] = [:]
    /// The parts of a state being received: its version and the parts so far.
    var incoming: (version: UInt64, parts: Int, received: [Int: [PresenceWire.Entry]])?
    var lastSyncRequest: ContinuousClock.Instant?
  }

  let node: String
  private(set) var own: [String: PresenceItem] = [:]
  private(set) var ownVersion: UInt64 = 0
  private(set) var remotes: [String: Remote] = [:]

  init(node: String) {
    self.node = node
  }

  func items(on topic: String) -> [PresenceItem] {
    var result = own.values.filter { $0.topic == topic }
    for remote in remotes.values { result += remote.items.values.filter { $0.topic == topic } }
    return result.sorted { ($0.key, $0.ref) < ($1.key, $1.ref) }
  }

  // MARK: This node's entries

  mutating func track(_ item: PresenceItem) -> (PresenceChanges, PresenceWire.Join) {
    ownVersion += 1
    own[item.ref] = item
    var changes = PresenceChanges()
    changes.join(item)
    return (
      changes,
      PresenceWire.Join(v: ownVersion, t: item.topic, r: item.ref, k: item.key, m: item.meta)
    )
  }

  mutating func untrack(_ ref: String) -> (PresenceChanges, PresenceWire.Leave)? {
    guard let item = own.removeValue(forKey: ref) else { return nil }
    ownVersion += 1
    var changes = PresenceChanges()
    changes.leave(item)
    return (changes, PresenceWire.Leave(v: ownVersion, t: item.topic, r: ref))
  }

  /// This node's entries as states, each part's body at most `maximumBytes` when encoded.
  func ownState(maximumBytes: Int) -> [String] {
    let entries = own.values.sorted { $0.ref < $1.ref }.map {
      PresenceWire.Entry(t: $0.topic, r: $0.ref, k: $0.key, m: $0.meta)
    }
    var groups: [[PresenceWire.Entry]] = [[]]
    var size = 0
    // The envelope's own fields and the state's numbers take well under 200 bytes.
    let budget = max(1, maximumBytes - 200)
    for entry in entries {
      let cost = (PresenceWire.encode(entry)?.utf8.count ?? budget) + 1
      if size + cost > budget, !(groups.last?.isEmpty ?? true) {
        groups.append([])
        size = 0
      }
      groups[groups.count - 1].append(entry)
      size += cost
    }
    return groups.enumerated().compactMap { index, group in
      PresenceWire.encode(
        PresenceWire.State(v: ownVersion, p: index, n: groups.count, e: group))
    }
  }

  // MARK: Other nodes

  /// What a payload from another node changes, whether to ask that node for its state, and
  /// whether the payload was unreadable (then it changed nothing).
  mutating func receive(
    _ envelope: Envelope, now: ContinuousClock.Instant, syncSpacing: Duration
  ) -> (changes: PresenceChanges, askState: Bool, malformed: Bool) {
    let sender = envelope.node
    guard sender != node else { return (PresenceChanges(), false, false) }
    if envelope.kind == .goodbye { return (drop(sender), false, false) }
    var remote = remotes[sender] ?? Remote(lastHeard: now)
    remote.lastHeard = now
    var changes = PresenceChanges()
    var outOfStep = false
    var malformed = false
    switch envelope.kind {
    case .join:
      guard let join = PresenceWire.decode(PresenceWire.Join.self, from: envelope.body),
        Names.isValid(join.t), Names.isValid(join.k)
      else {
        malformed = true
        break
      }
      if join.v == remote.version + 1 {
        remote.version = join.v
        let item = PresenceItem(topic: join.t, ref: join.r, key: join.k, meta: join.m, node: sender)
        if let old = remote.items.updateValue(item, forKey: join.r) { changes.leave(old) }
        changes.join(item)
      } else if join.v > remote.version {
        outOfStep = true
      }
    case .leave:
      guard let leave = PresenceWire.decode(PresenceWire.Leave.self, from: envelope.body) else {
        malformed = true
        break
      }
      if leave.v == remote.version + 1 {
        remote.version = leave.v
        if let old = remote.items.removeValue(forKey: leave.r) { changes.leave(old) }
      } else if leave.v > remote.version {
        outOfStep = true
      }
    case .heartbeat:
      guard let version = UInt64(envelope.body) else {
        malformed = true
        break
      }
      if version != remote.version { outOfStep = true }
    case .state:
      guard let state = PresenceWire.decode(PresenceWire.State.self, from: envelope.body),
        state.n > 0, state.n <= 10_000, state.p >= 0, state.p < state.n
      else {
        malformed = true
        break
      }
      if remote.incoming?.version != state.v || remote.incoming?.parts != state.n {
        remote.incoming = (state.v, state.n, [:])
      }
      remote.incoming?.received[state.p] = state.e
      if let incoming = remote.incoming, incoming.received.count == incoming.parts {
        remote.incoming = nil
        changes = replace(&remote, with: incoming.received.values.flatMap { $0 }, sender: sender)
        remote.version = incoming.version
      }
    case .message, .syncRequest, .goodbye:
      break
    }
    var askState = false
    if outOfStep, remote.incoming == nil {
      if let last = remote.lastSyncRequest, last.advanced(by: syncSpacing) > now {
        askState = false
      } else {
        remote.lastSyncRequest = now
        askState = true
      }
    }
    remotes[sender] = remote
    return (changes, askState, malformed)
  }

  private func replace(
    _ remote: inout Remote, with entries: [PresenceWire.Entry], sender: String
  ) -> PresenceChanges {
    var changes = PresenceChanges()
    var next: [String: PresenceItem] = [:]
    for entry in entries where Names.isValid(entry.t) && Names.isValid(entry.k) {
      next[entry.r] = PresenceItem(
        topic: entry.t, ref: entry.r, key: entry.k, meta: entry.m, node: sender)
    }
    for (ref, old) in remote.items where next[ref] != old { changes.leave(old) }
    for (ref, item) in next where remote.items[ref] != item { changes.join(item) }
    remote.items = next
    return changes
  }

  /// Forgets a node and its entries.
  mutating func drop(_ sender: String) -> PresenceChanges {
    var changes = PresenceChanges()
    guard let remote = remotes.removeValue(forKey: sender) else { return changes }
    for item in remote.items.values { changes.leave(item) }
    return changes
  }

  /// Drops every node not heard from since `now - timeout`.
  mutating func expire(now: ContinuousClock.Instant, timeout: Duration) -> PresenceChanges {
    var changes = PresenceChanges()
    for (sender, remote) in remotes where remote.lastHeard.advanced(by: timeout) < now {
      let dropped = drop(sender)
      for items in dropped.leaves.values { for item in items { changes.leave(item) } }
    }
    return changes
  }
}
