import Foundation
import LoopbackClient
import Synchronization
import TetherWeb

/// TodoMVC under load: each simulated browser (its own `tether-client` cookie, so its own
/// list) has two tabs on `/todos`. One tab adds, edits and deletes items as the page's script
/// would — numbered gestures, kept until the server acknowledges them (`k`) and sent again on
/// a new socket when a node dies — and the other only watches, so the time from a change in
/// one tab to the patch in the other is measured. At the end every list is read from the
/// database and compared with what its writer did.
struct TodoLoadBrowser: Sendable {
  /// The browser's number: its items are titled `L<number>-<n>`.
  let number: Int
  /// Its cookie's id, which is its list's id in the store.
  let clientID: String
  /// Its `Cookie` header: the cookie the server issued it.
  let cookie: String

  /// The title of its `n`th item: unique over every list, so a title in another list is a leak.
  func title(_ n: Int) -> String { "L\(number)-\(n)" }
}

/// One change a writer tab made, as its reader tab must see it.
struct LiveExpectation: Sendable {
  /// The item changed.
  var item: String
  /// Text a message that shows the change contains (any one of them); none for a delete.
  var needles: [String]
  /// For a delete: the item's element id and closing quote (`.todo-<id>"`), which a patch
  /// removes and a full redraw no longer contains.
  var removed: String?
  /// When the writer sent the gesture.
  var sent: ContinuousClock.Instant
  /// When the server acknowledged it (the write was committed), once it has.
  var acknowledged: ContinuousClock.Instant?
}

/// The changes a browser's writer made that its reader has not seen yet.
final class LiveExpectations: Sendable {
  private let pending = Mutex<[Int: LiveExpectation]>([:])
  private let next = Atomic<Int>(0)

  /// Changes a later change to the same item replaced before the reader saw them: a reader
  /// may never see them (its store coalesces changes that come faster than it reads, and a
  /// redraw shows only the newest), and need not.
  private let replaced = Atomic<Int>(0)

  /// Registers a change; an unseen earlier change to the same item is replaced by it.
  func add(_ expectation: LiveExpectation) -> Int {
    let key = next.add(1, ordering: .relaxed).newValue
    let dropped = pending.withLock { pending in
      let earlier = pending.filter { $0.value.item == expectation.item }.map(\.key)
      for old in earlier { pending[old] = nil }
      pending[key] = expectation
      return earlier.count
    }
    replaced.add(dropped, ordering: .relaxed)
    return key
  }

  var replacedCount: Int { replaced.load(ordering: .relaxed) }

  func acknowledge(_ key: Int, at instant: ContinuousClock.Instant) {
    pending.withLock { $0[key]?.acknowledged = instant }
  }

  /// Removes and returns every expectation `message` fulfils; `redraw` says it is the whole
  /// page (a resumed socket's first message), where a deleted item is simply absent.
  func fulfilled(by message: String, redraw: Bool) -> [LiveExpectation] {
    // The list's children replaced (`c` on the list), or an element holding the list (`r`).
    let replacesList =
      (message.contains(#"["c",""#) && message.contains(#".list",""#))
      || (message.contains(#"["r",""#) && message.contains("todo-list"))
    return pending.withLock { pending in
      let keys = pending.filter { _, expectation in
        if let removed = expectation.removed {
          // A delete travels as its own patch, or inside a new list (its children replaced,
          // when other rows moved too), or in a whole redraw: gone from either.
          return redraw || replacesList
            ? !message.contains(removed) : message.contains("\(removed)]")
        }
        return expectation.needles.contains { message.contains($0) }
      }.map(\.key)
      return keys.compactMap { pending.removeValue(forKey: $0) }
    }
  }

  var count: Int { pending.withLock { $0.count } }

  /// What each change not seen yet would have shown, for the report.
  var unseen: [String] {
    pending.withLock { $0.values.map { $0.removed.map { "\($0) removed" } ?? $0.needles[0] } }
  }
}

/// One tab's page and socket on `/todos`, reconnecting through the balancer with its newest
/// resume token when its node dies.
final class TodoTab {
  let browser: TodoLoadBrowser
  let port: Int
  let recorder: LoadRecorder
  let sessionID: String
  let secret: String
  /// The TodoMVC screen's new-item field and list, as the page names them.
  let newField: String
  let list: String
  private(set) var socket: Connection
  private var token: String?
  /// The address this tab connects from.
  private let source: String?

  init(browser: TodoLoadBrowser, port: Int, recorder: LoadRecorder) throws {
    self.browser = browser
    self.port = port
    self.recorder = recorder
    let page = try OpenedPage(port: port, path: "/todos", cookie: browser.cookie)
    guard let newField = elementID(withClass: "new-todo", inPage: page.html),
      let list = elementID(withClass: "todo-list", inPage: page.html)
    else {
      throw ConnectionError.unexpectedStatus(request: "GET /todos", status: 200, body: "")
    }
    sessionID = page.sessionID
    secret = page.secret
    self.newField = newField
    self.list = list
    token = page.token
    socket = page.socket
    source = page.source
  }

  /// The row of item `id`: the list's rows are its first statement's keyed content.
  func item(_ id: String) -> String { "\(list).0.\(HTMLNode.keySegment(id))" }

  /// The next message; keeps the newest resume token.
  func receive() throws -> String {
    guard let message = try socket.receiveText() else { throw ConnectionError.closedByServer }
    if let newer = resumeToken(inMessage: message) { token = newer }
    return message
  }

  /// Opens the socket again through the balancer with the newest token; returns the resumed
  /// session's first message.
  func reconnect() throws -> String {
    let (fresh, first) = try reopenSocket(
      port: port, sessionID: sessionID, secret: secret, token: token, cookie: browser.cookie,
      from: source, recorder: recorder)
    socket = fresh
    if let newer = resumeToken(inMessage: first) { token = newer }
    return first
  }

  func close() {
    try? socket.send(Connection.frame(opcode: 0x8, [0x03, 0xE8]))
  }
}

/// The writing tab: adds, edits (each item at most once) and deletes, and keeps what it did.
final class TodoWriter {
  let tab: TodoTab
  let expectations: LiveExpectations
  private let recorder: LoadRecorder
  private var gesture = 0
  private var newFieldEdit = 0
  private var unacknowledged: [(number: Int, json: String, expectation: Int?)] = []
  private var nextTitle = 0
  /// The list as the writer left it: item id → title, in order of adding.
  private(set) var items: [TodoItemWritten] = []
  private var edited: Set<String> = []
  private var random: SplitMix

  init(tab: TodoTab, expectations: LiveExpectations, recorder: LoadRecorder, seed: UInt64) {
    self.tab = tab
    self.expectations = expectations
    self.recorder = recorder
    random = SplitMix(seed: seed)
  }

  /// One change, chosen at random (adds while the list is short, never past 12 items), sent
  /// and acknowledged; returns once the server has kept it.
  func changeSomething() throws {
    let roll = random.next() % 10
    if items.count < 3 || (roll < 4 && items.count < 12) {
      try add()
    } else if roll < 7, let item = items.first(where: { !edited.contains($0.id) }) {
      try edit(item.id)
    } else {
      try delete(items[Int(random.next() % UInt64(items.count))].id)
    }
  }

  private func add() throws {
    let title = tab.browser.title(nextTitle)
    nextTitle += 1
    newFieldEdit += 1
    let number = gesture + 1
    let id = "\(tab.sessionID)-\(number)"
    items.append(TodoItemWritten(id: id, title: title))
    try perform(
      ["type": "submit", "id": tab.newField, "value": title, "seq": newFieldEdit],
      showing: LiveExpectation(
        item: id, needles: [Self.label(title)], removed: nil, sent: .now, acknowledged: nil))
  }

  private func edit(_ id: String) throws {
    guard let index = items.firstIndex(where: { $0.id == id }) else { return }
    let title = items[index].title + " e"
    items[index].title = title
    edited.insert(id)
    // The row's view holds the toggle, the label and the delete button; the edit field is
    // the row's second statement (an `if`), first branch.
    let item = tab.item(id)
    try perform(["type": "dblclick", "id": "\(item).0.1"], showing: nil)
    try perform(
      ["type": "submit", "id": "\(item).1a.0", "value": title, "seq": 1],
      showing: LiveExpectation(
        item: id, needles: [Self.label(title), "\"\(title)\""], removed: nil, sent: .now,
        acknowledged: nil))
  }

  private func delete(_ id: String) throws {
    items.removeAll { $0.id == id }
    try perform(
      ["type": "click", "id": "\(tab.item(id)).0.2"],
      showing: LiveExpectation(
        item: id, needles: [], removed: "\(HTMLNode.keySegment(id))\"", sent: .now,
        acknowledged: nil))
  }

  /// A label's text as a message carries it in HTML (`<` is written `\u003c` in JSON).
  private static func label(_ title: String) -> String { ">\(title)\\u003c" }

  /// Numbers and sends one gesture, as the page does, and waits for its acknowledgement.
  private func perform(_ message: [String: Any], showing expectation: LiveExpectation?) throws {
    gesture += 1
    var numbered = message
    numbered["g"] = gesture
    let data = try JSONSerialization.data(withJSONObject: numbered, options: [.sortedKeys])
    let json = String(decoding: data, as: UTF8.self)
    let key = expectation.map { expectations.add($0) }
    unacknowledged.append((gesture, json, key))
    let start = ContinuousClock.now
    do {
      try tab.socket.sendText(json)
    } catch {
      try resume()
    }
    try waitForAcknowledgements()
    recorder.update { $0.latencies.append((ContinuousClock.now - start).milliseconds) }
  }

  /// Reads until every gesture sent is acknowledged; a broken socket is resumed on another
  /// node and the unacknowledged gestures sent again, as the page's script does.
  func waitForAcknowledgements() throws {
    var resumes = 0
    while !unacknowledged.isEmpty {
      do {
        acknowledge(upTo: try tab.receive())
      } catch {
        resumes += 1
        guard resumes <= 3 else { throw error }
        try resume()
      }
    }
  }

  private func resume() throws {
    acknowledge(upTo: try tab.reconnect())
    recorder.update { $0.retriedGestures += unacknowledged.count }
    for gesture in unacknowledged { try tab.socket.sendText(gesture.json) }
  }

  private func acknowledge(upTo message: String) {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any],
      let acknowledged = object["k"] as? Int
    else { return }
    let now = ContinuousClock.now
    for gesture in unacknowledged where gesture.number <= acknowledged {
      if let key = gesture.expectation { expectations.acknowledge(key, at: now) }
    }
    unacknowledged.removeAll { $0.number <= acknowledged }
  }
}

/// The watching tab: reads every message as it comes, times the writer's changes in it, and
/// checks that nothing of another list reaches it. It runs on a thread of its own, which opens
/// its page and socket; `init` returns once it has (or has failed, which it records).
final class TodoReader: Sendable {
  private let done = LockedFlag()
  private let finished = DispatchSemaphore(value: 0)
  /// Whether the tab opened.
  let opened: Bool

  init(
    browser: TodoLoadBrowser, port: Int, expectations: LiveExpectations, recorder: LoadRecorder
  ) {
    let done = self.done
    let finished = self.finished
    let ready = DispatchSemaphore(value: 0)
    let opened = LockedFlag()
    let own = browser.number
    Thread.detachNewThread {
      defer { finished.signal() }
      let tab: TodoTab
      do {
        tab = try TodoTab(browser: browser, port: port, recorder: recorder)
        opened.set()
        ready.signal()
      } catch {
        recorder.update { $0.errors.append("list \(own), opening the watching tab: \(error)") }
        ready.signal()
        return
      }
      var idle = 0
      while !done.value || (expectations.count > 0 && idle < 3) {
        let message: String
        var resumed = false
        do {
          message = try tab.receive()
        } catch ConnectionError.timedOut {
          idle += 1
          continue
        } catch {
          guard !done.value else { return }
          do {
            message = try tab.reconnect()
          } catch {
            recorder.update { $0.errors.append("list \(own), the watching tab: \(error)") }
            return
          }
          resumed = true
        }
        idle = 0
        let now = ContinuousClock.now
        let leaks = Self.otherLists(in: message, own: own)
        let seen = expectations.fulfilled(by: message, redraw: resumed)
        recorder.update {
          if !leaks.isEmpty {
            $0.isolationViolations.append(
              "list \(own)'s other tab was sent items of lists \(leaks.sorted().prefix(3))")
          }
          for expectation in seen {
            // A change first seen in the full redraw of a resumed socket was delayed by the
            // node's death, not by the live path: counted apart.
            if resumed {
              $0.liveAfterReconnect += 1
              continue
            }
            $0.livePatches.append((now - expectation.sent).milliseconds)
            if let acknowledged = expectation.acknowledged {
              $0.commitToPatch.append(max(0, (now - acknowledged).milliseconds))
            }
          }
        }
      }
      tab.close()
    }
    ready.wait()
    self.opened = opened.value
  }

  /// Stops once the writer's last changes arrived (or three read timeouts passed).
  func stop() {
    done.set()
    finished.wait()
  }

  /// The numbers of the lists other than `own` whose items `message` names.
  static func otherLists(in message: String, own: Int) -> Set<Int> {
    var found: Set<Int> = []
    var rest = message[...]
    while let mark = rest.range(of: "L") {
      rest = rest[mark.upperBound...]
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, rest.dropFirst(digits.count).first == "-",
        let number = Int(digits), number != own
      else { continue }
      // Only a title: preceded by `>` or `"` (not part of another word or id).
      let before = message[..<mark.lowerBound].last
      if before == ">" || before == "\"" { found.insert(number) }
    }
    return found
  }
}

/// A small seeded generator, so a run's choices can be repeated.
struct SplitMix {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension Duration {
  var milliseconds: Double {
    Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
  }
}

/// Runs one simulated browser until `deadline`: its watching tab, then its writing tab, with
/// `think` between changes; then waits for every change to be kept. Returns what the writer
/// left in its list, or `nil` if the browser failed (recorded as an error).
func runTodoBrowser(
  _ browser: TodoLoadBrowser, port: Int, deadline: Date, think: Duration,
  recorder: LoadRecorder
) -> [TodoItemWritten]? {
  recorder.update { $0.sessionsStarted += 2 }
  var step = "opening the tabs"
  let expectations = LiveExpectations()
  let reader = TodoReader(
    browser: browser, port: port, expectations: expectations, recorder: recorder)
  guard reader.opened else {
    reader.stop()
    return nil
  }
  do {
    let writer = TodoWriter(
      tab: try TodoTab(browser: browser, port: port, recorder: recorder),
      expectations: expectations, recorder: recorder, seed: UInt64(browser.number) &+ 1)
    step = "changing the list"
    while Date() < deadline {
      try writer.changeSomething()
      recorder.update { $0.requests += 1 }
      Thread.sleep(forTimeInterval: Double(think.components.attoseconds) / 1e18)
    }
    step = "waiting for the last changes to be kept"
    try writer.waitForAcknowledgements()
    reader.stop()
    writer.tab.close()
    recorder.update {
      $0.sessionsCompleted += 2
      $0.liveNeverSeen += expectations.count
      $0.liveReplaced += expectations.replacedCount
      $0.liveUnseen += expectations.unseen.map {
        "list \(browser.number)'s other tab never saw \($0)"
      }
    }
    return writer.items
  } catch {
    reader.stop()
    recorder.update {
      $0.errors.append("list \(browser.number), \(step): \(error)")
      $0.lostGestures += 1
    }
    return nil
  }
}
