import Courses
import Foundation
import Gallery
import ShowcaseBrowser
import ShowcaseWeb
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct ClusterAvailabilityTests {
  /// The cluster tests skip without HAProxy on a developer's machine; in CI that fails.
  @Test func ciHasHAProxy() {
    guard ProcessInfo.processInfo.environment["CI"] != nil else { return }
    #expect(haproxyIsInstalled, "CI must install haproxy")
  }

  /// A missing haproxy is one clear line and status 2, before any node starts.
  @Test func missingHAProxyIsOneLineAndStatus2() async throws {
    let binary = try #require(
      clusterBinary, "build it first: swift build --product showcase-cluster")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--nodes", "2", "--port", "0", "--haproxy", "/nonexistent/haproxy"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(text.contains("haproxy is not installed"))
    #expect(text.contains("apt-get install -y haproxy"))
  }
}

/// The web showcase on three nodes behind HAProxy, in headless Chromium: the node serving the
/// page's socket is killed, and the page goes on on another node.
extension EndToEnd {
  @Suite(
    .serialized,
    .enabled(if: browserIsInstalled && haproxyIsInstalled, "needs chromium, chromedriver, haproxy"))
  struct ClusterEndToEndTests {
    private static let rows = "#screen .row"

    private func withCluster(
      _ body: (ClusterShowcase, Browser) async throws -> Void
    ) async throws {
      let cluster = try await ClusterShowcase()
      let browser = try await Browser()
      do {
        try await body(cluster, browser)
      } catch {
        await browser.quit()
        _ = await cluster.stop()
        throw error
      }
      await browser.quit()
      let status = await cluster.stop()
      #expect(status == 0, "showcase-cluster exits 0 on SIGTERM")
      for (number, node) in cluster.nodes {
        #expect(kill(node.pid, 0) != 0, "node \(number) outlived the cluster")
      }
    }

    private func path(_ browser: Browser) async throws -> String {
      try await browser.run("return location.pathname;") as? String ?? ""
    }

    /// The node whose `/stats` counts a connected page, and that page's count on every node.
    private func servingNode(_ cluster: ClusterShowcase) async throws -> (Int, Int32)? {
      var serving: [(Int, Int32)] = []
      for (number, node) in cluster.nodes {
        if let stats = try? await WebServerStats.read(port: node.port), stats.connected > 0 {
          serving.append((number, node.pid))
        }
      }
      return serving.count == 1 ? serving[0] : nil
    }

    /// Kills the node serving the page's socket; returns the seconds until the page had the
    /// whole app again from another node.
    private func killServingNode(
      _ cluster: ClusterShowcase, _ browser: Browser
    ) async throws -> Double {
      var victim: (Int, Int32)?
      try await browser.waitUntil("one node serving the socket") {
        victim = try await servingNode(cluster)
        return victim != nil
      }
      let (number, pid) = try #require(victim)
      // The next full redraw is the resumed session's first message.
      try await browser.run(
        """
        window.tetherResumed = null;
        const started = performance.now();
        const listener = () => {
          window.tetherResumed = performance.now() - started;
          document.removeEventListener("tether:applied", listener);
        };
        document.addEventListener("tether:applied", listener);
        """)
      #expect(kill(pid, SIGKILL) == 0)
      try await browser.waitUntil("the page to resume", seconds: 3) {
        try await browser.run("return window.tetherResumed;") is NSNumber
      }
      let elapsed = try await browser.run("return window.tetherResumed;") as? Double ?? -1
      // Another node has the socket now.
      try await browser.waitUntil("another node serving the socket") {
        guard let now = try await servingNode(cluster) else { return false }
        return now.0 != number || now.1 != pid
      }
      return elapsed / 1000
    }

    @Test func aKilledNodeCostsTheDetailAndSelectionNothing() async throws {
      try await withCluster { cluster, browser in
        try await browser.open(cluster.url + "/gallery")
        try await browser.waitUntil("20 rows") { try await browser.count(Self.rows) == 20 }
        let photos = BundledPhotoService.page(1).photos
        let forSale = try #require(photos.indices.dropFirst(2).first { photos[$0].forSale })
        // Select the row with the keyboard, as a person would, then open it.
        for _ in 0..<forSale { try await browser.press("\u{E015}") }
        try await browser.waitUntil("row \(forSale) selected") {
          try await browser.count("\(Self.rows):nth-child(\(forSale + 1))[aria-selected=true]")
            == 1
        }
        try await browser.press("\u{E007}")
        let detail = "/gallery/photo/\(photos[forSale].id)"
        try await browser.waitUntil("the detail") { try await path(browser) == detail }
        try await browser.waitUntil("the detail's title") {
          try await browser.text("#title") == photos[forSale].name
        }

        let seconds = try await killServingNode(cluster, browser)
        print(
          String(
            format: "figure: the page resumed on another node %.0f ms after the kill",
            seconds * 1000))
        #expect(seconds < 3)
        #expect(try await path(browser) == detail)
        #expect(try await browser.text("#title") == photos[forSale].name)

        // Back works on the new node, and the list shows the same selection.
        try await browser.click("#back")
        try await browser.waitUntil("the list") { try await path(browser) == "/gallery" }
        try await browser.waitUntil("20 rows") { try await browser.count(Self.rows) == 20 }
        try await browser.waitUntil("the same row selected") {
          try await browser.count("\(Self.rows):nth-child(\(forSale + 1))[aria-selected=true]")
            == 1
        }
        // And the session goes on: ↓ moves the selection on from there.
        try await browser.press("\u{E015}")
        try await browser.waitUntil("the next row selected") {
          try await browser.count("\(Self.rows):nth-child(\(forSale + 2))[aria-selected=true]")
            == 1
        }
        // A second death: whichever node the page lands on now (the one that served the
        // page first still holds the session as it was then), the page keeps what it showed,
        // scrolled where the reader left it.
        let scrolled =
          try await browser.run("window.scrollTo(0, 240); return window.scrollY;") as? Int
        #expect(scrolled == 240, "the list is long enough to scroll")
        let again = try await killServingNode(cluster, browser)
        #expect(again < 3)
        #expect(try await path(browser) == "/gallery")
        #expect(try await browser.run("return window.scrollY;") as? Int == scrolled)
        #expect(
          try await browser.count("\(Self.rows):nth-child(\(forSale + 2))[aria-selected=true]")
            == 1)
        try await browser.screenshot(to: NSTemporaryDirectory() + "cluster-resumed.png")
      }
    }

    @Test func anOpenAlertSurvivesTheNode() async throws {
      try await withCluster { cluster, browser in
        try await browser.open(cluster.url + "/gallery")
        try await browser.waitUntil("20 rows") { try await browser.count(Self.rows) == 20 }
        let photos = BundledPhotoService.page(1).photos
        let notForSale = try #require(photos.firstIndex { !$0.forSale })
        try await browser.click("\(Self.rows):nth-child(\(notForSale + 1))")
        try await browser.waitUntil("the dialog") { try await browser.count("dialog[open]") == 1 }
        let alert = try await browser.text("dialog[open]")
        _ = try await killServingNode(cluster, browser)
        #expect(try await browser.count("dialog[open]") == 1)
        #expect(try await browser.text("dialog[open]") == alert)
        // Dismissed on the new node, with the selection under it kept.
        try await browser.click("dialog[open] .alert-button")
        try await browser.waitUntil("the dialog to close") {
          try await browser.count("dialog[open]") == 0
        }
        #expect(
          try await browser.count("\(Self.rows):nth-child(\(notForSale + 1))[aria-selected=true]")
            == 1)
      }
    }

    /// Presses the button of the open dialog at `position` (Remove is 0, Cancel 1).
    private func pressAlertButton(_ position: Int, _ browser: Browser) async throws {
      _ = try await browser.run(
        "document.querySelectorAll('dialog[open] .alert-button')[\(position)].click(); return 0;")
      try await browser.waitUntil("the dialog to close") {
        try await browser.count("dialog[open]") == 0
      }
    }

    @Test func aConfirmationSurvivesTheNodeWithItsMeaning() async throws {
      try await withCluster { cluster, browser in
        let course = BundledCourseService.catalog[1]
        let detail = "/courses/course/\(course.id)"
        try await browser.open(cluster.url + detail)
        try await browser.waitUntil("the detail") {
          try await browser.text("#title") == course.name
        }
        let confirmation = "Remove “\(course.name)”?"

        // Cancel, pressed on the node that resumed the session, removes nothing.
        try await browser.click("#screen button")
        try await browser.waitUntil("the confirmation") {
          try await browser.count("dialog[open]") == 1
        }
        #expect(try await browser.text("dialog[open]").contains(confirmation))
        _ = try await killServingNode(cluster, browser)
        #expect(try await browser.text("dialog[open]").contains(confirmation))
        try await pressAlertButton(1, browser)
        #expect(try await path(browser) == detail)

        // Remove, pressed on the node that resumed the session after another death, removes
        // this course: the button's action came with the alert in the resume token.
        try await browser.click("#screen button")
        try await browser.waitUntil("the confirmation") {
          try await browser.count("dialog[open]") == 1
        }
        _ = try await killServingNode(cluster, browser)
        #expect(try await browser.text("dialog[open]").contains(confirmation))
        try await browser.screenshot(to: NSTemporaryDirectory() + "cluster-confirmation.png")
        try await pressAlertButton(0, browser)
        try await browser.waitUntil("the list") { try await path(browser) == "/courses" }
        try await browser.waitUntil("the other courses") {
          try await browser.count(Self.rows) == BundledCourseService.catalog.count - 1
        }
        #expect(!(try await browser.text("#screen").contains(course.name)))
      }
    }

    @Test func typedTextSurvivesTheNodeAndEnterThenAddsIt() async throws {
      try await withCluster { cluster, browser in
        try await browser.open(cluster.url + "/todos")
        try await browser.waitUntil("the new-todo field") {
          try await browser.count(".new-todo") == 1
        }
        try await browser.waitUntil("focus in the field") {
          try await browser.run(
            "return document.activeElement === document.querySelector('.new-todo');") as? Bool
            == true
        }
        try await browser.press("Buy bread")
        try await browser.waitUntil("the text typed") {
          try await browser.run("return document.querySelector('.new-todo').value;") as? String
            == "Buy bread"
        }
        _ = try await killServingNode(cluster, browser)
        // The node that resumed the session redrew the page; the text typed is still there.
        #expect(
          try await browser.run("return document.querySelector('.new-todo').value;") as? String
            == "Buy bread")
        try await browser.run("document.querySelector('.new-todo').focus();")
        try await browser.press("\u{E007}")
        try await browser.waitUntil("the todo added on the new node") {
          try await browser.count(".todo-list li") == 1
        }
        #expect(try await browser.text(".todo-list li label") == "Buy bread")
        #expect(
          try await browser.run("return document.querySelector('.new-todo').value;") as? String
            == "", "Enter cleared the field")
      }
    }

    @Test func aForgedResumeIsRefusedAndShowsNothing() async throws {
      try await withCluster { cluster, browser in
        try await browser.open(cluster.url + "/gallery")
        try await browser.waitUntil("20 rows") { try await browser.count(Self.rows) == 20 }
        let token = try #require(
          try await browser.run(
            "return document.querySelector('script[data-resume]').dataset.resume;") as? String)
        // t1.<key id>.<payload>.<signature>
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 4)
        // The real payload with its path changed, under the real signature.
        let payload = try #require(Data(base64Encoded: base64(parts[2])))
        let altered = String(decoding: payload, as: UTF8.self)
          .replacingOccurrences(of: "\"/gallery\"", with: "\"/courses\"")
        let forged =
          parts[0] + "." + parts[1] + "."
          + Data(altered.utf8).base64EncodedString()
          .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
          .replacingOccurrences(of: "=", with: "") + "." + parts[3]
        let stranger = String(repeating: "ab", count: 16)
        for (session, presented, what) in [
          (stranger, forged, "an altered token"),
          (stranger, token, "another session's token"),
          (stranger, "x" + token, "a token with a bad signature"),
        ] {
          let outcome = try await browser.runAsync(
            """
            const done = arguments[arguments.length - 1];
            const received = [];
            const socket = new WebSocket("ws://" + location.host + "/ws?session=\(session)&resync=1");
            const secret = document.querySelector('script[data-secret]').dataset.secret;
            socket.onopen = () => socket.send(JSON.stringify({ type: "hello", secret, token: \(jsonString(presented)) }));
            socket.onmessage = (event) => received.push(event.data);
            socket.onclose = (event) => done({ code: event.code, reason: event.reason, received });
            setTimeout(() => done({ code: -1, reason: "still open", received }), 5000);
            """)
          let result = try #require(outcome as? [String: Any], "\(what)")
          #expect(result["code"] as? Int == 4403, "\(what): \(result)")
          #expect((result["reason"] as? String ?? "").contains("resume"), "\(what): \(result)")
          #expect((result["received"] as? [Any])?.isEmpty == true, "\(what) was sent \(result)")
        }
        // The page's own session is untouched.
        try await browser.press("\u{E015}")
        try await browser.waitUntil("row 2 selected") {
          try await browser.count("\(Self.rows):nth-child(2)[aria-selected=true]") == 1
        }
      }
    }

    private func base64(_ url: String) -> String {
      var text = url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
        of: "_", with: "/")
      text += String(repeating: "=", count: (4 - text.count % 4) % 4)
      return text
    }

    private func jsonString(_ text: String) -> String {
      let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
      return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
  }
}
