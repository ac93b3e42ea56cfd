import Foundation
import ShowcaseBrowser
import ShowcaseWeb
import Testing
import TodosStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// TodoMVC's lists are durable and live, in Chromium: a change in one tab reaches the other tab
/// of the same browser (same cookie, same list) — on one node with SQLite, and through
/// `showcase-cluster` on PostgreSQL with the tabs' sockets on one node or on two — and never
/// another browser's list; lists outlive a SIGTERM of `showcase --web` and the death of every
/// node in turn.
extension EndToEnd {
  @Suite(.serialized, .enabled(if: browserIsInstalled, "needs chromium and chromedriver"))
  struct TodosLiveEndToEndTests {
    /// One window of a browser: its WebDriver handle.
    struct Tab {
      let browser: Browser
      let handle: String

      func focus() async throws { try await browser.switchToWindow(handle) }
    }

    /// A list as the test expects a page to show it: each item's title and whether it is done.
    struct Item: Equatable {
      var title: String
      var completed = false
    }

    /// Installs, in the current window's page, a log of what the list showed after each
    /// message the page applied (with the time), and the time of every click and Enter.
    private static let recorder = """
      const signature = () => [...document.querySelectorAll('.todo-list li')].map((li) =>
        (li.classList.contains('completed') ? 'x ' : 'o ') +
        (li.querySelector('label') ? li.querySelector('label').textContent : '')).join('|');
      window.liveSignature = signature;
      window.liveLog = [];
      window.liveSeen = new Set();
      window.gestureTimes = [];
      const now = () => performance.timeOrigin + performance.now();
      document.addEventListener('tether:applied', () => {
        window.liveLog.push([now(), signature()]);
        document.querySelectorAll('.todo-list label').forEach((l) => window.liveSeen.add(l.textContent));
      });
      document.addEventListener('keydown', (e) => { if (e.key === 'Enter') window.gestureTimes.push(now()); }, true);
      document.addEventListener('click', () => window.gestureTimes.push(now()), true);
      """

    private static func signature(_ items: [Item]) -> String {
      items.map { ($0.completed ? "x " : "o ") + $0.title }.joined(separator: "|")
    }

    /// Opens `url` in `tab`, waits for the list, and installs the recorder.
    private func load(_ url: String, in tab: Tab, showing items: [Item]) async throws {
      try await tab.focus()
      try await tab.browser.open(url)
      try await tab.browser.waitUntil("the list at \(url)") {
        guard try await tab.browser.count(".todoapp .new-todo") == 1 else { return false }
        return try await signature(in: tab) == Self.signature(items)
      }
      try await tab.browser.run(Self.recorder)
    }

    /// What the tab's presence line says: "Open in 2 tabs", or "" while it is hidden.
    private func openTabs(in tab: Tab) async throws -> String {
      try await tab.focus()
      return try await tab.browser.run(
        """
        const line = document.querySelector('.todoapp .open-tabs');
        return line && !line.hidden ? line.textContent : '';
        """) as? String ?? ""
    }

    /// Waits until every one of `tabs` says `expected`.
    private func waitForOpenTabs(
      _ expected: String, in tabs: [Tab], seconds: Double = 10
    ) async throws {
      for tab in tabs {
        try await tab.browser.waitUntil("\"\(expected)\" in a tab", seconds: seconds) {
          try await openTabs(in: tab) == expected
        }
      }
    }

    private func signature(in tab: Tab) async throws -> String {
      try await tab.browser.run(
        """
        return [...document.querySelectorAll('.todo-list li')].map((li) =>
          (li.classList.contains('completed') ? 'x ' : 'o ') +
          (li.querySelector('label') ? li.querySelector('label').textContent : '')).join('|');
        """) as? String ?? ""
    }

    /// Makes one change in `tab` as a person would; returns the list it leads to.
    private func change(
      _ number: Int, in tab: Tab, list: [Item]
    ) async throws -> [Item] {
      let browser = tab.browser
      var list = list
      switch number % 4 {
      case 0:
        let title = "Item \(number / 4)"
        try await browser.run("document.querySelector('.new-todo').focus();")
        try await browser.press(title + "\u{E007}")
        list.append(Item(title: title))
      case 1:
        let index = list.count - 1
        try await browser.pointerClick(".todo-list li:last-child label", count: 2)
        try await browser.waitUntil("editing") { try await browser.count("li.editing .edit") == 1 }
        try await browser.run("document.querySelector('li.editing .edit').select();")
        list[index].title += " edited"
        try await browser.press(list[index].title + "\u{E007}")
      case 2:
        try await browser.click(".todo-list li:last-child .toggle")
        list[list.count - 1].completed.toggle()
      default:
        try await browser.pointerClick(".todo-list li:first-child .destroy")
        list.removeFirst()
      }
      return list
    }

    /// Makes `count` changes in `writer` (add, edit, toggle, delete, in turn) and measures,
    /// for each, the milliseconds from the gesture in `writer` to `reader` showing its result.
    private func measure(
      _ count: Int, writer: Tab, reader: Tab, list start: [Item]
    ) async throws -> (latencies: [Double], list: [Item]) {
      var list = start
      var latencies: [Double] = []
      for number in 0..<count {
        try await writer.focus()
        list = try await change(number, in: writer, list: list)
        let expected = Self.signature(list)
        try await writer.browser.waitUntil("change \(number) in the writing tab") {
          try await signature(in: writer) == expected
        }
        let gesture = try #require(
          try await writer.browser.run(
            "return window.gestureTimes[window.gestureTimes.length - 1];")
            as? Double)
        try await reader.focus()
        try await reader.browser.waitUntil("change \(number) in the other tab", seconds: 5) {
          try await signature(in: reader) == expected
        }
        let log =
          try await reader.browser.run("return window.liveLog;") as? [[Any]] ?? []
        let shown = log.first { entry in
          (entry.last as? String) == expected && ((entry.first as? Double) ?? 0) >= gesture
        }
        let at = try #require(shown?.first as? Double, "change \(number) was never applied")
        latencies.append(at - gesture)
      }
      return (latencies, list)
    }

    private static func percentile(_ values: [Double], _ p: Double) -> Double {
      let sorted = values.sorted()
      guard !sorted.isEmpty else { return 0 }
      let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
      return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    private static func summary(_ values: [Double]) -> String {
      String(
        format: "%d changes, p50 %.1f ms, p99 %.1f ms, max %.1f ms", values.count,
        percentile(values, 50), percentile(values, 99), values.max() ?? 0)
    }

    /// Reloads `tab` until the cluster's two sockets are on one node (`together`) or on two.
    private func place(
      _ tab: Tab, together: Bool, url: String, list: [Item], cluster: ClusterShowcase
    ) async throws -> [Int: Int] {
      for _ in 0..<12 {
        let connected = try await cluster.connectedByNode()
        if connected.values.reduce(0, +) == 2,
          together ? connected.values.contains(2) : connected.values.filter({ $0 == 1 }).count == 2
        {
          return connected
        }
        // The balancer takes turns by request, and a page load is three (the page, the copy
        // hook's script, the socket): with three nodes each reload would land the socket on
        // the same node. One request more moves the next socket on.
        _ = try await tab.browser.runAsync(
          "const done = arguments[0]; fetch('/health').then(() => done(true), () => done(false));")
        try await load(url, in: tab, showing: list)
      }
      throw ClusterTestError(
        description: "the sockets were never \(together ? "on one node" : "on two nodes")")
    }

    @Test(.enabled(if: haproxyIsInstalled, "needs haproxy"))
    func aChangeInOneTabReachesTheOtherOnAnyNodeAndNoOtherBrowserAndOutlivesEveryNode()
      async throws
    {
      let cluster = try await ClusterShowcase()
      let first = try await Browser(width: 800, height: 900)
      let second = try await Browser(width: 800, height: 900)
      do {
        let url = cluster.url + "/todos"
        let tabA = Tab(browser: first, handle: try await first.currentWindow())
        try await load(url, in: tabA, showing: [])
        let tabB = Tab(browser: first, handle: try await first.newWindow())
        try await load(url, in: tabB, showing: [])

        let together = try await place(
          tabB, together: true, url: url, list: [], cluster: cluster)
        let (sameNode, afterSame) = try await measure(52, writer: tabA, reader: tabB, list: [])
        let apart = try await place(
          tabB, together: false, url: url, list: afterSame, cluster: cluster)
        // Presence across nodes, through PostgreSQL: each tab counts the other, on the other
        // node. A page placing the tabs left (each reload) counts until its session is let
        // go, after the cluster's 30-second grace.
        try await waitForOpenTabs("Open in 2 tabs", in: [tabA, tabB], seconds: 45)
        let (twoNodes, afterTwo) = try await measure(
          52, writer: tabA, reader: tabB, list: afterSame)
        print("live update, both tabs' sockets on one node \(together): \(Self.summary(sameNode))")
        print("live update, the tabs' sockets on two nodes \(apart): \(Self.summary(twoNodes))")
        // Live, not eventually: nearly every change is seen within half a second, and none
        // waits for a reload or a retry. (Its speed is the benchmarks'; on a loaded two-core
        // machine one change in 52 was once seen after 505 ms, so the bound is on p95.)
        #expect(Self.percentile(sameNode, 95) <= 500, "p95 on one node")
        #expect(Self.percentile(twoNodes, 95) <= 500, "p95 across nodes")
        #expect((sameNode + twoNodes).allSatisfy { $0 <= 2_000 }, "every change within 2 s")

        // Another browser (another cookie) has its own list, and sees nothing of the first.
        let other = Tab(browser: second, handle: try await second.currentWindow())
        try await load(url, in: other, showing: [])
        try await second.press("Another browser's item\u{E007}")
        let otherList = [Item(title: "Another browser's item")]
        try await second.waitUntil("the other browser's item") {
          try await signature(in: other) == Self.signature(otherList)
        }
        #expect(try await openTabs(in: other) == "", "the first browser's tabs are not counted")
        var list = afterTwo
        // Each Enter is typed once the tab shows the one before, as a person sees it: an
        // entry typed whole before the server answers the Enter before it would be submitted
        // with that Enter's text (see ClientScriptTests for typing that starts sooner).
        for number in 0..<3 {
          try await tabA.focus()
          list = try await change(number * 4, in: tabA, list: list)
          let expected = Self.signature(list)
          try await first.waitUntil("add \(number) in the writing tab") {
            try await signature(in: tabA) == expected
          }
        }
        try await tabB.focus()
        try await first.waitUntil("the first browser's three items in its other tab") {
          try await signature(in: tabB) == Self.signature(list)
        }
        try await other.focus()
        let seen = try await second.run("return [...window.liveSeen];") as? [String] ?? []
        #expect(seen == ["Another browser's item"], "the other browser saw only its own list")
        #expect(try await signature(in: other) == Self.signature(otherList))
        try await tabA.focus()
        #expect(try await signature(in: tabA) == Self.signature(list))

        // Every node killed in turn: PostgreSQL keeps both lists.
        let nodes = cluster.nodes
        for number in nodes.keys.sorted() {
          let pid = try #require(cluster.nodes[number]?.pid)
          #expect(kill(pid, SIGKILL) == 0)
          try await first.waitUntil("node \(number) started again", seconds: 30) {
            guard let node = cluster.nodes[number], node.pid != pid else { return false }
            return (try? await WebServerStats.read(port: node.port)) != nil
          }
        }
        try await load(url, in: tabA, showing: list)
        try await load(url, in: other, showing: otherList)
        print("after every node was killed in turn: both browsers' lists as they were")
      } catch {
        await first.quit()
        await second.quit()
        _ = await cluster.stop()
        throw error
      }
      await first.quit()
      await second.quit()
      #expect(await cluster.stop() == 0, "showcase-cluster exits 0 on SIGTERM")
    }

    @Test func aDatabaseOutageShowsAnErrorKeepsTheChangeAndRecovers() async throws {
      let database = try ThrowawayPostgres.start()
      defer { database.stop() }
      let showcase = try await WebShowcase(arguments: ["--database", database.url])
      let browser = try await Browser(width: 800, height: 900)
      do {
        let tab = Tab(browser: browser, handle: try await browser.currentWindow())
        try await load(showcase.url + "/todos", in: tab, showing: [])
        try await browser.press("Milk\u{E007}")
        try await browser.waitUntil("Milk") {
          try await signature(in: tab) == Self.signature([Item(title: "Milk")])
        }
        try database.pause()
        try await browser.press("Bread\u{E007}")
        let both = Self.signature([Item(title: "Milk"), Item(title: "Bread")])
        try await browser.waitUntil("the error, with Bread still on the page", seconds: 15) {
          guard try await browser.count(".todoapp .error:not([hidden])") == 1 else { return false }
          return try await signature(in: tab) == both
        }
        let message = try await browser.text(".todoapp .error")
        #expect(message.contains("could not be saved"), "\(message)")
        try await browser.screenshot(to: NSTemporaryDirectory() + "todos-outage.png")
        try database.resume()
        try await browser.waitUntil("the error gone once the database is back", seconds: 30) {
          try await browser.count(".todoapp .error:not([hidden])") == 0
        }
        #expect(try await signature(in: tab) == both)
        #expect(showcase.process.isRunning, "no crash")
        // Saved: a new page shows both.
        try await load(
          showcase.url + "/todos", in: tab,
          showing: [
            Item(title: "Milk"), Item(title: "Bread"),
          ])
      } catch {
        await browser.quit()
        _ = await showcase.stop()
        throw error
      }
      await browser.quit()
      #expect(await showcase.stop() == 0)
    }

    @Test func listsOutliveASigtermAndAChangeReachesTheBrowsersOtherTab() async throws {
      let data = freshDataFolder()
      // A closed tab's session is let go a second after its socket closes, and its presence
      // with it.
      var showcase = try await WebShowcase(arguments: ["--data", data, "--session-grace", "1"])
      let first = try await Browser(width: 800, height: 900)
      let second = try await Browser(width: 800, height: 900)
      do {
        let tabA = Tab(browser: first, handle: try await first.currentWindow())
        try await load(showcase.url + "/todos", in: tabA, showing: [])
        let tabB = Tab(browser: first, handle: try await first.newWindow())
        try await load(showcase.url + "/todos", in: tabB, showing: [])
        try await waitForOpenTabs("Open in 2 tabs", in: [tabA, tabB])
        let (latencies, list) = try await measure(11, writer: tabA, reader: tabB, list: [])
        print("live update on one node (SQLite): \(Self.summary(latencies))")
        #expect(list == [Item(title: "Item 2 edited", completed: true)])
        try await tabB.focus()
        try await first.closeWindow()
        try await waitForOpenTabs("", in: [tabA])
        let other = Tab(browser: second, handle: try await second.currentWindow())
        try await load(showcase.url + "/todos", in: other, showing: [])
        try await second.press("Tea\u{E007}")
        let otherList = [Item(title: "Tea")]
        try await second.waitUntil("Tea") {
          try await signature(in: other) == Self.signature(otherList)
        }

        #expect(await showcase.stop() == 0, "SIGTERM: exit 0")
        showcase = try await WebShowcase(arguments: ["--data", data])
        // The cookie is the browser's, whatever the port: each sees its own list again.
        try await load(showcase.url + "/todos", in: tabA, showing: list)
        try await load(showcase.url + "/todos", in: other, showing: otherList)
      } catch {
        await first.quit()
        await second.quit()
        _ = await showcase.stop()
        throw error
      }
      await first.quit()
      await second.quit()
      _ = await showcase.stop()
    }
  }
}
