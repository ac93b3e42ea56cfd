import Testing
import Tether
import TetherFlow
import TetherTesting
import TetherWebTesting

@_spi(HandBuilt) @testable import TetherWeb

struct LogLine: Identifiable, Equatable {
  var id: Int
  var text: String
}

@MainActor
final class LogModel {
  let lines: ListStream<LogLine>
  @Output var title = "Log"
  @Output private(set) var pinned: [Int] = []
  init(limit: Int?) { lines = ListStream(limit: limit) }
  func pin(_ id: Int) { pinned.append(id) }
}

@MainActor
final class LogScreen: WebScreen {
  enum Action { case pin(Int) }
  let model: LogModel
  init(_ model: LogModel) { self.model = model }

  var body: Markup<Action> {
    section {
      h2 { model.title }
      stream(model.lines, .class("log")) { line in
        span(.class("text")) { line.text }
        button("Pin", .class("pin")).onClick(.pin(line.id))
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .pin(let id): model.pin(id)
    }
  }
}

@MainActor
final class LogFlow: FlowController {
  let model: LogModel
  init(limit: Int?) { model = LogModel(limit: limit) }
  func start(on navigator: any Navigator<LogModel>) -> Screen<LogModel> {
    Screen(model, title: "Log", owner: self)
  }
}

/// A stream's rows are the page's: each change is one patch the page applies, and the session
/// keeps none of them.
@MainActor
@Suite struct StreamTests {
  private func page(limit: Int?) async throws -> (WebTestPage, LogModel) {
    let flow = LogFlow(limit: limit)
    let app = WebApp(title: "Log", rootFlow: { flow }) { LogScreen($0.destination) }
    let page = try await WebTestPage(app: app, path: "/")
    return (page, flow.model)
  }

  private func texts(_ page: WebTestPage) throws -> [String] {
    try page.texts("ul.log li .text")
  }

  @Test func insertsUpdatesDeletesAndAResetReachThePage() async throws {
    let (page, model) = try await page(limit: nil)
    defer { page.close() }
    model.lines.insert(LogLine(id: 1, text: "one"))
    model.lines.insert(LogLine(id: 2, text: "two"))
    model.lines.insert(LogLine(id: 0, text: "zero"), at: .start)
    try await page.waitUntil("three lines") { try texts(page).count == 3 }
    #expect(try texts(page) == ["zero", "one", "two"])
    model.lines.update(LogLine(id: 1, text: "ONE"))
    model.lines.delete(id: 0)
    try await page.waitUntil("the update and the delete") { try texts(page) == ["ONE", "two"] }
    model.lines.reset([LogLine(id: 9, text: "nine")])
    try await page.waitUntil("the reset") { try texts(page) == ["nine"] }
    #expect(page.divergence == nil)
    // The session's own tree holds the list empty.
    let kept = try #require(page.session.pageTree?.html)
    #expect(!kept.contains("nine") && kept.contains("data-stream"))
  }

  @Test func theSessionKeepsNoRowAndThePageKeepsTheLimit() async throws {
    let (page, model) = try await page(limit: 50)
    defer { page.close() }
    model.lines.insert(LogLine(id: 0, text: "line 0"))
    try await page.waitUntil("the first line") { try texts(page) == ["line 0"] }
    let keptBefore = try #require(page.session.pageTree?.html)
    for id in 1..<5_000 { model.lines.insert(LogLine(id: id, text: "line \(id)")) }
    try await page.waitUntil("the newest 50 lines") {
      try texts(page).last == "line 4999"
    }
    let shown = try texts(page)
    #expect(shown.count == 50 && shown.first == "line 4950")
    #expect(page.session.pageTree?.html == keptBefore, "the session's tree did not grow")
    #expect(try page.element("ul.log")[attribute: "data-stream-limit"] == "50")
    #expect(page.divergence == nil)
  }

  /// A burst longer than the stream's buffer goes out in parts as it fills: a connected page
  /// misses nothing.
  @Test func aBurstLongerThanTheBufferLosesNothing() async throws {
    let (page, model) = try await page(limit: nil)
    defer { page.close() }
    for id in 0..<2_500 { model.lines.insert(LogLine(id: id, text: "line \(id)")) }
    try await page.waitUntil("every line") { try texts(page).count == 2_500 }
    #expect(try texts(page).first == "line 0")
    #expect(page.divergence == nil)
  }

  @Test func aShownRowsGesturesWorkAndAnOffPageRowsAreRefused() async throws {
    let (page, model) = try await page(limit: 2)
    defer { page.close() }
    model.lines.insert(LogLine(id: 1, text: "one"))
    try await page.waitUntil("one") { try texts(page) == ["one"] }
    let first = try page.element("ul.log li:nth-of-type(1) button.pin").id
    try await page.click("ul.log li:nth-of-type(1) button.pin")
    #expect(model.pinned == [1])
    model.lines.insert(LogLine(id: 2, text: "two"))
    model.lines.insert(LogLine(id: 3, text: "three"))
    try await page.waitUntil("two and three") { try texts(page) == ["two", "three"] }
    // Line 1 was pushed off the page: its handler went with it.
    let refusal = await page.session.receive(ClientMessage.click(id: first).json)
    #expect(refusal == .noHandler(id: first))
    try await page.click("ul.log li:nth-of-type(2) button.pin")
    #expect(model.pinned == [1, 3])
  }

  @Test func aRenderOfTheScreenKeepsTheRows() async throws {
    let (page, model) = try await page(limit: nil)
    defer { page.close() }
    model.lines.insert(LogLine(id: 1, text: "one"))
    try await page.waitUntil("one") { try texts(page) == ["one"] }
    model.title = "Server log"
    try await page.waitUntil("the new title") { try page.text("h2") == "Server log" }
    #expect(try texts(page) == ["one"])
    #expect(page.divergence == nil)
  }

  @Test func changesMadeBeforeThePageShowsTheListArriveWithIt() async throws {
    let flow = LogFlow(limit: nil)
    for id in 1...3 { flow.model.lines.insert(LogLine(id: id, text: "early \(id)")) }
    let app = WebApp(title: "Log", rootFlow: { flow }) { LogScreen($0.destination) }
    let page = try await WebTestPage(app: app, path: "/")
    defer { page.close() }
    try await page.waitUntil("the early lines") { try texts(page).count == 3 }
    #expect(try texts(page) == ["early 1", "early 2", "early 3"])
  }

  @Test func aStreamPatchIsOneRecord() {
    let patch = HTMLPatch.stream(
      parent: "s1.0", html: "<li id=\"s1.0.k1\">x</li>", atStart: true, limit: 5)
    #expect(
      ServerMessage(patches: [patch]).json.contains(
        #"["s","s1.0","\u003cli id=\"s1.0.k1\">x\u003c/li>",1,5]"#))
    #expect(patch.targetID == "s1.0")
  }

  /// Which row an insert pushes off: a row deleted from the middle is skipped, one deleted
  /// and added again counts at its new place.
  @Test func theRowOrderDropsFromTheOtherEnd() {
    var order = RowOrder()
    for id in ["a", "b", "c"] { order.add(id, atStart: false) }
    order.remove("a")
    order.add("a", atStart: false)
    #expect(order.count == 3)
    #expect(order.removeEnd(atStart: true) == "b", "a's first entry is stale")
    #expect(order.removeEnd(atStart: true) == "c")
    #expect(order.removeEnd(atStart: true) == "a")
    #expect(order.removeEnd(atStart: true) == nil)
    for index in 0..<200 { order.add("s\(index)", atStart: true) }
    #expect(order.removeEnd(atStart: false) == "s0", "the first added is last at the start")
    #expect(order.removeEnd(atStart: true) == "s199")
    #expect(order.count == 198)
  }
}

/// A stream drawn inside content that is cached and not rebuilt (its key unchanged) is still
/// on the page: its changes are sent.
@MainActor
struct CachedLogScreen: WebScreen {
  let model: LogModel
  init(_ model: LogModel) { self.model = model }

  var body: Markup<Never> {
    section {
      h2 { model.title }
      Cached("log") {
        stream(model.lines, .class("log")) { line in
          span(.class("text")) { line.text }
        }
      }
    }
  }
}

@MainActor
@Suite struct CachedStreamTests {
  @Test func aStreamInCachedContentThatIsNotRebuiltSendsItsChanges() async throws {
    let flow = LogFlow(limit: nil)
    let app = WebApp(title: "Log", rootFlow: { flow }) { CachedLogScreen($0.destination) }
    let page = try await WebTestPage(app: app, path: "/")
    defer { page.close() }
    flow.model.lines.insert(LogLine(id: 1, text: "one"))
    try await page.waitUntil("the first line") { try page.texts("ul.log li .text") == ["one"] }
    // The page renders again; the cached content is reused as it was, not built again.
    flow.model.title = "Server log"
    try await page.waitUntil("the new title") { try page.text("h2") == "Server log" }
    flow.model.lines.insert(LogLine(id: 2, text: "two"))
    try await page.waitUntil("the second line") {
      try page.texts("ul.log li .text") == ["one", "two"]
    }
  }
}
