import Foundation
import ShowcaseFlows
import Testing
import TetherTesting
import Todos

@testable import ShowcaseWebServer
@testable import TetherWeb

/// Finding 4 of the second attack run: a tab that reconnects must not undo another tab's
/// change. Tab A ticks an item, its socket drops, tab B unticks it, A comes back and sends what
/// its page sent before: the item stays unticked.
@MainActor
@Suite struct TodosStaleWriteTests {
  /// One tab: its session id and what its socket was sent.
  final class Tab {
    let id: String
    var sent: [String] = []
    init(id: String) { self.id = id }
  }

  private let client = WebClient(id: "0123456789abcdef0123456789abcdef")

  private func open(_ registry: WebSessionRegistry) async throws -> Tab {
    guard case .page(_, let id) = await registry.page(for: "/todos", client: client) else {
      throw TodosTestError.noPage
    }
    let tab = Tab(id: id)
    _ = registry.attach(id, resync: false) { [tab] in tab.sent.append($0) }
    return tab
  }

  /// The element of the only item's toggle and the version it shows, from the session's render.
  private func toggle(_ registry: WebSessionRegistry, _ tab: Tab) throws -> (String, Int?) {
    let html = try #require(registry.session(tab.id)).render().html
    let match = try #require(
      html.firstMatch(of: #/<input id="([^"]+)" type="checkbox"[^>]*class="toggle"[^>]*>/#),
      "no toggle in \(html)")
    let version = match.0.firstMatch(of: #/data-version="(\d+)"/#).flatMap { Int($0.1) }
    return (String(match.1), version)
  }

  /// A tick as the page sends it: its first edit of the box, with the version it showed.
  private func check(_ id: String, _ checked: Bool, version: Int?, gesture: Int) -> String {
    #"{"type":"check","id":"\#(id)","checked":\#(checked),"seq":1"#
      + (version.map { #","ver":\#($0)"# } ?? "") + #","g":\#(gesture)}"#
  }

  private func stored(_ services: ShowcaseServices) async throws -> [Todo] {
    try await services.todos.load(list: client.id ?? "").todos
  }

  /// A tab on `/todos` whose list holds one item, `title`, stored.
  private func tabWithOneItem(_ title: String) async throws -> (
    ShowcaseServices, WebSessionRegistry, Tab
  ) {
    let services = ShowcaseServices.bundled(thumbnailDelay: .zero)
    let registry = WebSessionRegistry(services: services, firstRender: .held)
    let tab = try await open(registry)
    let html = try #require(registry.session(tab.id)).render().html
    let field = try #require(
      html.firstMatch(of: #/<input id="([^"]+)"[^>]*class="new-todo"/#)?.1, "no new-todo field")
    _ = await registry.receive(
      tab.id, #"{"type":"submit","id":"\#(field)","value":"\#(title)","seq":1,"g":1}"#)
    await expectEventually("the item is stored") { (try? await stored(services).count) == 1 }
    return (services, registry, tab)
  }

  @Test func aReconnectingTabDoesNotTickAgainWhatAnotherTabUnticked() async throws {
    let (services, registry, a) = try await tabWithOneItem("Milk")
    let b = try await open(registry)

    // A ticks: what its page sends for the tick.
    let (toggleA, versionA) = try toggle(registry, a)
    let tick = check(toggleA, true, version: versionA, gesture: 2)
    _ = await registry.receive(a.id, tick)
    await expectEventually("A's tick is stored") {
      (try? await stored(services).first?.completed) == true
    }
    // A's socket drops.
    registry.detach(a.id, connection: 1)

    // B sees the tick, and unticks.
    await expectEventually("B shows the tick") {
      registry.session(b.id)?.render().html.contains(#"class="completed""#) == true
    }
    let (toggleB, versionB) = try toggle(registry, b)
    let untick = check(toggleB, false, version: versionB, gesture: 1)
    _ = await registry.receive(b.id, untick)
    await expectEventually("B's untick is stored") {
      (try? await stored(services).first?.completed) == false
    }
    await expectEventually("A's session has the untick") {
      registry.session(a.id)?.render().html.contains(#"class="completed""#) == false
    }

    // A comes back and sends again what its page sent before (its old script re-sent every
    // box it ever changed, without a version or a gesture number; its new one re-sends the
    // tick only while unacknowledged, with both).
    _ = registry.attach(a.id, resync: true) { [a] in a.sent.append($0) }
    _ = await registry.receive(a.id, #"{"type":"check","id":"\#(toggleA)","checked":true,"seq":1}"#)
    _ = await registry.receive(a.id, tick)
    await registry.session(a.id)?.waitForAppearance()
    let html = try #require(registry.session(a.id)).render().html
    #expect(!html.contains(#"class="completed""#), "A shows the item unticked")
    #expect(try await stored(services).first?.completed == false, "B's untick stands")

    // A's server died instead, and another node built A's session afresh: the re-sent tick
    // was made on a version this session never showed.
    let other = WebSessionRegistry(services: services, firstRender: .held)
    let rebuilt = try await open(other)
    await expectEventually("the rebuilt tab shows the item") {
      (try? toggle(other, rebuilt)) != nil
    }
    let (rebuiltToggle, _) = try toggle(other, rebuilt)
    #expect(rebuiltToggle == toggleA, "the same element id on every node")
    _ = await other.receive(rebuilt.id, tick)
    await other.session(rebuilt.id)?.waitForAppearance()
    #expect(try await stored(services).first?.completed == false, "B's untick still stands")
    registry.closeAll()
    other.closeAll()
  }

  @Test func aTickMadeOnTheShownVersionIsApplied() async throws {
    let (services, registry, a) = try await tabWithOneItem("Bread")
    let (toggleA, version) = try toggle(registry, a)
    let shown = try #require(version, "a row's toggle says which version it shows")
    for (sequence, checked) in [(1, true), (2, false), (3, true)] {
      _ = await registry.receive(
        a.id,
        #"{"type":"check","id":"\#(toggleA)","checked":\#(checked),"seq":\#(sequence),"ver":\#(shown),"g":\#(sequence + 1)}"#
      )
    }
    await expectEventually("the last tick is stored") {
      (try? await stored(services).first?.completed) == true
    }
    registry.closeAll()
  }
}

enum TodosTestError: Error {
  case noPage
}
