import Foundation
import Gallery
import ShowcaseBrowser
import ShowcaseWeb
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct BrowserAvailabilityTests {
  /// The browser tests skip without Chromium on a developer's machine; in CI that fails.
  @Test func ciHasChromiumAndChromedriver() {
    guard ProcessInfo.processInfo.environment["CI"] != nil else { return }
    #expect(browserIsInstalled, "CI must install chromium and chromium-driver")
  }
}

/// The web showcase in headless Chromium, driven over WebDriver: the real binary, a real
/// browser, real clicks and keys.
extension EndToEnd {
  @Suite(.serialized, .enabled(if: browserIsInstalled, "needs chromium and chromedriver"))
  struct ShowcaseWebEndToEndTests {
    private static let rows = "#screen .row"

    private func withShowcase(
      _ body: (WebShowcase, Browser) async throws -> Void
    ) async throws {
      try await withShowcaseInBrowser(body)
    }

    private func title(_ browser: Browser) async throws -> String {
      try await browser.text("#title")
    }

    private func waitForTitle(_ browser: Browser, _ expected: String) async throws {
      try await browser.waitUntil("title \(expected)") { try await title(browser) == expected }
    }

    private func path(_ browser: Browser) async throws -> String {
      try await browser.run("return location.pathname;") as? String ?? ""
    }

    @Test func galleryAlertDetailWithImageAndBack() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/")
        try await waitForTitle(browser, "Tether showcase")
        try await browser.click("\(Self.rows):nth-child(1)")
        try await waitForTitle(browser, "Popular")
        try await browser.waitUntil("20 rows") { try await browser.count(Self.rows) == 20 }
        #expect(try await path(browser) == "/gallery")

        let photos = BundledPhotoService.page(1).photos
        let notForSale = try #require(photos.firstIndex { !$0.forSale })
        try await browser.click("\(Self.rows):nth-child(\(notForSale + 1))")
        try await browser.waitUntil("the dialog") { try await browser.count("dialog[open]") == 1 }
        #expect(try await browser.text("dialog[open]").contains("This item is not for sale"))
        try await browser.click("dialog[open] .alert-button")
        try await browser.waitUntil("the dialog to close") {
          try await browser.count("dialog[open]") == 0
        }

        let forSale = try #require(photos.firstIndex { $0.forSale })
        try await browser.click("\(Self.rows):nth-child(\(forSale + 1))")
        try await waitForTitle(browser, photos[forSale].name)
        #expect(try await path(browser) == "/gallery/photo/\(photos[forSale].id)")
        try await browser.waitUntil("the picture") {
          try await browser.run(
            "const i = document.querySelector('#screen img'); return !!i && i.complete && i.naturalWidth > 0;"
          ) as? Bool == true
        }
        try await browser.screenshot(to: screenshotPath("web-gallery-detail.png"))

        try await browser.back()
        try await waitForTitle(browser, "Popular")
        #expect(try await path(browser) == "/gallery")
        #expect(try await browser.count(Self.rows) == 20, "the page Back returns to works")
        try await browser.screenshot(to: screenshotPath("web-gallery.png"))
        try await browser.back()
        try await waitForTitle(browser, "Tether showcase")
      }
    }

    @Test func gallerySearchFiltersAsYouTypeAndClearingShowsAll() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/gallery")
        try await browser.waitUntil("20 rows") { try await browser.count(Self.rows) == 20 }
        let photos = BundledPhotoService.page(1).photos
        let word = try #require(photos.first?.name.split(separator: " ").first).lowercased()
        let expected = photos.filter {
          $0.name.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }.count
        try await browser.click("#screen input.search")
        try await browser.press(word)
        try await browser.waitUntil("\(expected) rows for \(word)") {
          try await browser.count(Self.rows) == expected
        }
        #expect(
          try await browser.run("return document.querySelector('input.search').value;")
            as? String == word, "the typed text is never overwritten")
        // Select all and delete: every photo again.
        try await browser.run("document.querySelector('input.search').select();")
        try await browser.press("\u{E003}")
        try await browser.waitUntil("20 rows again") { try await browser.count(Self.rows) == 20 }
      }
    }

    @Test func theSalutationSheetIsAModalDialogThatEscapeCloses() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/entry/greeting/Ada")
        try await browser.waitUntil("the greeting") {
          try await browser.text("#screen h2") == "Hello, Ada!"
        }
        try await browser.run(
          "[...document.querySelectorAll('#screen button')].find(b => b.innerText.startsWith('Change salutation')).click();"
        )
        try await browser.waitUntil("the sheet") {
          try await browser.count("dialog#sheet[open]") == 1
        }
        try await browser.waitUntil("focus in the sheet") {
          try await browser.run("return !!document.activeElement.closest('#sheet');") as? Bool
            == true
        }
        #expect(try await path(browser) == "/entry/greeting/Ada/salutation")
        #expect(
          try await browser.run("return document.querySelector('main').inert;") as? Bool == true,
          "the screen under the sheet is inert")
        try await browser.screenshot(to: screenshotPath("web-sheet.png"))
        // Escape, with focus in the sheet, closes it and chooses nothing.
        try await browser.press("\u{E00C}")
        try await browser.waitUntil("the sheet to close") {
          try await browser.count("dialog#sheet[open]") == 0
        }
        #expect(try await path(browser) == "/entry/greeting/Ada")
        // Open again and choose: the greeting takes the choice.
        try await browser.run(
          "[...document.querySelectorAll('#screen button')].find(b => b.innerText.startsWith('Change salutation')).click();"
        )
        try await browser.waitUntil("the sheet again") {
          try await browser.count("dialog#sheet[open]") == 1
        }
        try await browser.run(
          "[...document.querySelectorAll('#sheet .choice')].find(b => b.innerText === 'Howdy').click();"
        )
        try await browser.waitUntil("the chosen greeting") {
          try await browser.text("#screen h2") == "Howdy, Ada!"
        }
        #expect(try await browser.count("dialog#sheet[open]") == 0)
      }
    }

    @Test func aConfirmationDialogsActionsStackAndTheArrowsMoveBetweenThem() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/courses/course/2")
        try await waitForTitle(browser, "Podcasts Course")
        try await browser.run(
          "[...document.querySelectorAll('#screen button')].find(b => b.innerText === 'More…').click();"
        )
        try await browser.waitUntil("the dialog") {
          try await browser.count("dialog.confirmation[open]") == 1
        }
        let focused = "return document.activeElement.innerText;"
        try await browser.waitUntil("focus on its default action") {
          try await browser.run(focused) as? String == "Move to the top"
        }
        // One under another: each action below the one before.
        let stacked = try await browser.run(
          "const b = [...document.querySelectorAll('#alert .alert-button')].map(e => e.getBoundingClientRect().top); return b.every((t, i) => i === 0 || t > b[i - 1]);"
        )
        #expect(stacked as? Bool == true)
        try await browser.screenshot(to: screenshotPath("web-confirmation-dialog.png"))
        try await browser.press("\u{E015}")  // ↓
        try await browser.waitUntil("focus on Remove") {
          try await browser.run(focused) as? String == "Remove from list"
        }
        try await browser.press("\u{E007}")  // Enter
        try await waitForTitle(browser, "Courses")
        try await browser.waitUntil("the list without the course") {
          let text = try await browser.text("#screen")
          return text.contains("Instagram Firebase") && !text.contains("Podcasts Course")
        }
      }
    }

    @Test func theProfilesTabsAreInTheAddressAndBackReturnsToTheTabBefore() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/profile")
        try await browser.waitUntil("octocat") {
          try await browser.text("#screen h2") == "@octocat"
        }
        let selected = "[role=tab][aria-selected=true]"
        #expect(try await browser.text(selected) == "View model")
        try await browser.run(
          "[...document.querySelectorAll('[role=tab]')].find(b => b.innerText.startsWith('Streams')).click();"
        )
        try await browser.waitUntil("the Streams tab") {
          try await browser.text(selected) == "Streams (Driver)"
        }
        #expect(try await path(browser) == "/profile/streams")
        try await browser.screenshot(to: screenshotPath("web-tabs.png"))
        try await browser.back()
        try await browser.waitUntil("the tab before") {
          try await browser.text(selected) == "View model"
        }
        #expect(try await path(browser) == "/profile")
      }
    }

    @Test func coursesProfileArticlesAndEntryMainPaths() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/courses")
        try await browser.waitUntil("courses") { try await browser.count(Self.rows) > 2 }
        try await browser.click("\(Self.rows):nth-child(2)")
        try await waitForTitle(browser, "Podcasts Course")
        #expect(try await browser.text("#screen").contains("39 lessons"))

        try await browser.open(showcase.url + "/profile")
        try await browser.waitUntil("octocat") {
          try await browser.text("#screen h2") == "@octocat"
        }
        try await browser.run(
          "[...document.querySelectorAll('#screen button')].find(b => b.innerText === 'Next profile').click();"
        )
        try await browser.waitUntil("the next profile") {
          try await browser.text("#screen h2") == "@tether-dev"
        }

        // A value that arrives later: the article's thumbnail is pushed over the socket.
        try await browser.open(showcase.url + "/articles")
        try await browser.waitUntil("articles") { try await browser.count(Self.rows) == 5 }
        try await browser.click("\(Self.rows):nth-child(1)")
        try await waitForTitle(browser, "MVVM without the desperation")
        try await browser.waitUntil("the thumbnail") {
          try await browser.run(
            "const i = document.querySelector('#screen img'); return !!i && i.naturalWidth === 24;")
            as? Bool == true
        }

        try await browser.open(showcase.url + "/entry")
        try await waitForTitle(browser, "Entry")
        #expect(try await browser.text("#screen h2") == "User: —")
        try await browser.run(
          "[...document.querySelectorAll('#screen button')].find(b => b.innerText === 'Fetch user').click();"
        )
        try await browser.waitUntil("the fetched user") {
          try await browser.text("#screen h2") == "User: Ada Lovelace"
        }
        try await browser.run(
          "[...document.querySelectorAll('#screen button')].find(b => b.innerText === 'Select user').click();"
        )
        try await waitForTitle(browser, "Greeting")
        #expect(try await browser.text("#screen h2") == "Hello, Ada Lovelace!")
        #expect(try await path(browser) == "/entry/greeting/Ada%20Lovelace")
      }
    }

    @Test func keyboardMovesTheSelectionAndEnterOpens() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/")
        try await waitForTitle(browser, "Tether showcase")
        try await browser.press("\u{E015}")  // ↓
        try await browser.waitUntil("Courses selected") {
          try await browser.text("\(Self.rows)[aria-selected=true] .title") == "Courses"
        }
        #expect(
          try await browser.run("return document.activeElement.innerText.split('\\n')[0];")
            as? String == "Courses")
        try await browser.press("\u{E007}")  // Enter
        try await waitForTitle(browser, "Courses")
        // Escape closes an alert.
        try await browser.open(showcase.url + "/gallery")
        try await browser.waitUntil("rows") { try await browser.count(Self.rows) == 20 }
        let notForSale = try #require(BundledPhotoService.page(1).photos.firstIndex { !$0.forSale })
        try await browser.click("\(Self.rows):nth-child(\(notForSale + 1))")
        try await browser.waitUntil("the dialog") { try await browser.count("dialog[open]") == 1 }
        try await browser.press("\u{E00C}")  // Esc
        try await browser.waitUntil("the dialog to close") {
          try await browser.count("dialog[open]") == 0
        }
      }
    }

    @Test func aDeepLinkInAFreshBrowserShowsItsScreenAndSurvivesAReload() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/courses/course/2")
        try await waitForTitle(browser, "Podcasts Course")
        try await browser.run("location.reload();")
        try await browser.waitUntil("the reloaded page") {
          let state = try? await browser.run("return document.readyState;") as? String
          let shown = try? await title(browser)
          return state == "complete" && shown == "Podcasts Course"
        }
        try await browser.open(showcase.url + "/nowhere")
        #expect(try await browser.text("h1") == "Page not found")
        #expect(try await browser.count("a[href='/']") == 1)
      }
    }

    @Test func leavingTheShowcaseAndComingBackLeavesAWorkingPage() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/gallery")
        try await browser.waitUntil("rows") { try await browser.count(Self.rows) == 20 }
        try await browser.open("about:blank")
        try await browser.back()  // from the back-forward cache, or loaded again
        try await waitForTitle(browser, "Popular")
        let forSale = try #require(BundledPhotoService.page(1).photos.firstIndex { $0.forSale })
        try await browser.waitUntil("a working page") {
          try? await browser.click("\(Self.rows):nth-child(\(forSale + 1))")
          return (try? await title(browser)) == BundledPhotoService.page(1).photos[forSale].name
        }
      }
    }

    @Test func twoBrowsersHaveIndependentSessions() async throws {
      try await withShowcase { showcase, first in
        let second = try await Browser()
        do {
          try await twoSessions(showcase, first, second)
        } catch {
          await second.quit()
          throw error
        }
        await second.quit()
      }
    }

    private func twoSessions(_ showcase: WebShowcase, _ first: Browser, _ second: Browser)
      async throws
    {
      try await first.open(showcase.url + "/")
      try await second.open(showcase.url + "/")
      try await waitForTitle(first, "Tether showcase")
      try await waitForTitle(second, "Tether showcase")
      try await first.click("\(Self.rows):nth-child(5)")
      try await waitForTitle(first, "Entry")
      try await second.click("\(Self.rows):nth-child(2)")
      try await waitForTitle(second, "Courses")
      #expect(try await title(first) == "Entry")
      // The second's stack never held the first's screen: Back from Courses leads it home.
      try await second.back()
      try await waitForTitle(second, "Tether showcase")
    }

    @Test func aSocketFromAnotherOriginIsRefused() async throws {
      try await withShowcase { showcase, browser in
        try await browser.open(showcase.url + "/")
        try await waitForTitle(browser, "Tether showcase")
        let session =
          try await browser.run(
            "return document.querySelector('script[data-session]').dataset.session;") as? String
          ?? ""
        let socketURL =
          showcase.url.replacingOccurrences(of: "http://", with: "ws://")
          + "/ws?session=\(session)"
        // The same page's own socket works; one opened from an about:blank page (origin null)
        // is refused.
        try await browser.open("about:blank")
        let outcome = try await browser.runAsync(
          """
          const done = arguments[arguments.length - 1];
          const socket = new WebSocket("\(socketURL)");
          socket.onopen = () => done("open");
          socket.onclose = (event) => done("closed " + event.code);
          """)
        #expect(outcome as? String == "closed 1006")
      }
    }

    /// The issue's figures, measured in one run: input → DOM updated in the browser, and memory
    /// per idle session with 200 open, then after they close.
    @Test func figuresLatencyAndMemoryPerSession() async throws {
      let showcase = try await WebShowcase(arguments: ["--session-grace", "8"])
      let browser = try await Browser()
      do {
        try await browser.open(showcase.url + "/gallery")
        try await browser.waitUntil("rows") { try await browser.count(Self.rows) == 20 }
        let times = try await browser.keyLatencies(count: 200).sorted()
        let median = times.isEmpty ? 0 : times[times.count / 2]
        let p99 = times.isEmpty ? 0 : times[min(times.count - 1, times.count * 99 / 100)]
        print(
          String(format: "figure: input to DOM updated, median %.2f ms, p99 %.2f ms", median, p99))
        #expect(median < 50, "median \(median) ms")

        let pid = showcase.process.processIdentifier
        // A warm-up: the first page loads fill caches the server keeps (the first 200 took
        // about 640 KB of heap, the next 800 none), which are no page's cost.
        for index in 0..<200 {
          _ = try RawHTTPResponse.get("/gallery", port: showcase.port, from: "127.0.2.\(2 + index)")
        }
        let baseline = residentKilobytes(pid)
        let heapBaseline = try await stats(showcase).heap
        // What a page costs before its socket connects: 200 visitors, each from an address of
        // its own (one address may have only 20 pages being drawn at once), no socket yet.
        var pages: [RawHTTPResponse] = []
        for index in 0..<200 {
          let page = try RawHTTPResponse.get(
            "/gallery", port: showcase.port, from: "127.0.1.\(2 + index)")
          #expect(page.status == 200, "visitor \(index): \(page.status)")
          pages.append(page)
        }
        let heapPages = try await stats(showcase).heap
        #expect(try await sessionCount(showcase) == 1, "a page holds no session until its socket")
        print(
          "figure: 200 pages served, no socket yet: heap \((heapPages - heapBaseline) / 200) B per page, \(try await sessionCount(showcase) - 1) sessions held"
        )
        // Each page's socket says hello with the page's secret and token: 200 idle sessions.
        var sockets: [StalledSocket] = []
        for (index, page) in pages.enumerated() {
          let body = page.body
          let id = try #require(Self.dataAttribute("session", in: body))
          let secret = try #require(Self.dataAttribute("secret", in: body))
          let token = try #require(Self.dataAttribute("resume", in: body))
          let socket = try StalledSocket(
            port: showcase.port, path: "/ws?session=\(id)", cookie: page.cookie,
            from: "127.0.1.\(2 + index)")
          try socket.sendText(#"{"type":"hello","secret":"\#(secret)","token":"\#(token)"}"#)
          #expect(try socket.next() != nil, "the socket is sent the app")
          sockets.append(socket)
        }
        let peak = residentKilobytes(pid)
        let heapPeak = try await stats(showcase).heap
        #expect(try await sessionCount(showcase) >= 201)
        sockets.removeAll()  // each socket closes: its session waits out the grace period
        // The 8 s grace, then every idle session closes: polled, not slept through, so the test
        // waits exactly as long as the server takes, and fails if it never gets there.
        let deadline = ContinuousClock.now + .seconds(30)
        while try await sessionCount(showcase) > 1, ContinuousClock.now < deadline {
          try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try await sessionCount(showcase) == 1, "only the connected tab's session is left")
        let after = residentKilobytes(pid)
        let heapAfter = try await stats(showcase).heap
        print(
          "figure: heap in use \(heapBaseline / 1024) KB, 200 idle sessions \(heapPeak / 1024) KB (\((heapPeak - heapBaseline) / 200 / 1024) KB each), after close \(heapAfter / 1024) KB"
        )
        // Freed: the heap is back within 10 % of what the sessions took.
        #expect(heapAfter - heapBaseline < (heapPeak - heapBaseline) / 10)
        print(
          "figure: RSS baseline \(baseline) KB, 200 idle sessions \(peak) KB (\((peak - baseline) / 200) KB each), after close \(after) KB"
        )
        // The heap keeps freed pages, so RSS is reported, not asserted; the sessions are gone.
        _ = after
      } catch {
        await browser.quit()
        _ = await showcase.stop()
        throw error
      }
      await browser.quit()
      _ = await showcase.stop()
    }

    private func stats(_ showcase: WebShowcase) async throws -> (sessions: Int, heap: Int) {
      // A plain socket, not URLSession (see `WebServerStats.read(port:)`).
      let stats = try WebServerStats(json: RawHTTPResponse.get("/stats", port: showcase.port).body)
      return (stats.sessions, stats.heapBytes ?? 0)
    }

    private static func dataAttribute(_ name: String, in html: String) -> String? {
      guard let start = html.range(of: "data-\(name)=\"") else { return nil }
      let rest = html[start.upperBound...]
      return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    private func sessionCount(_ showcase: WebShowcase) async throws -> Int {
      try await stats(showcase).sessions
    }

    @Test func sigtermExitsZeroWithABrowserConnected() async throws {
      let showcase = try await WebShowcase()
      let browser = try await Browser()
      try await browser.open(showcase.url + "/gallery")
      try await waitForTitle(browser, "Popular")
      let status = await showcase.stop()
      await browser.quit()
      #expect(status == 0)
    }
  }
}

/// Where screenshots go: `.build/screenshots` beside the package, kept for the README.
func screenshotPath(_ name: String) -> String {
  let folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".build/screenshots")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder.appendingPathComponent(name).path
}

/// The resident set of process `pid` in kilobytes (Linux `/proc`); 0 where there is none.
func residentKilobytes(_ pid: Int32) -> Int {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
  else { return 0 }
  return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    ?? 0
}
