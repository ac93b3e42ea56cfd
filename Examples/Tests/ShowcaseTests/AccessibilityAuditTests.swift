import Foundation
import Gallery
import ShowcaseBrowser
import Testing

/// axe-core, the WCAG audit engine, from the `axe-playwright-python` wheel `.ci/run` installs
/// (only its script is used), or the file `TETHER_AXE_JS` names.
private let axeScript: String? = {
  let environment = ProcessInfo.processInfo.environment
  if let path = environment["TETHER_AXE_JS"] {
    return try? String(contentsOfFile: path, encoding: .utf8)
  }
  let python = Process()
  python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  python.arguments = [
    "python3", "-c",
    "import importlib.util, os; s = importlib.util.find_spec('axe_playwright_python'); "
      + "print(os.path.join(os.path.dirname(s.origin), 'axe.min.js') if s else '')",
  ]
  let output = Pipe()
  python.standardOutput = output
  python.standardError = FileHandle.nullDevice
  guard (try? python.run()) != nil else { return nil }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  python.waitUntilExit()
  let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  return path.isEmpty ? nil : try? String(contentsOfFile: path, encoding: .utf8)
}()

/// Every showcase screen — and the states a person meets on it: an open alert, an item being
/// edited, a validation message — audited with axe-core against WCAG 2.1 A and AA, in the light
/// and the dark colour scheme. A serious or critical finding fails the test, named with its
/// element. Off CI the suite runs only where Chromium and axe are installed; in CI a missing
/// axe fails it.
extension EndToEnd {
  @Suite(
    .serialized,
    .enabled(
      if: browserIsInstalled
        && (axeScript != nil || ProcessInfo.processInfo.environment["CI"] != nil),
      "needs chromium, chromedriver and axe-core (pip install --no-deps axe-playwright-python)"))
  struct AccessibilityAuditTests {
    private static let rows = "#screen .row"

    /// What axe found that is serious or critical, one line per rule; throws if axe did not
    /// run or checked almost nothing (a plain page passes 8 or more rules).
    private func audit(_ browser: Browser, _ state: String) async throws -> [String] {
      let script = try #require(axeScript, "axe-core is not installed")
      if try await browser.run("return typeof window.axe;") as? String != "object" {
        try await browser.run(script)
      }
      let answer = try await browser.runAsync(
        """
        const done = arguments[arguments.length - 1];
        axe.run(document, { runOnly: { type: 'tag',
            values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
          .then(r => done({ passes: r.passes.length,
            findings: r.violations
              .filter(v => v.impact === 'serious' || v.impact === 'critical')
              .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3)
                .map(n => n.target.join(' ') + ' ' + n.failureSummary.replace(/\\s+/g, ' '))
                .join(' | ')) }))
          .catch(e => done({ passes: 0, findings: ['axe failed: ' + e] }));
        """)
      let result = try #require(answer as? [String: Any], "axe gave \(answer)")
      let passes = result["passes"] as? Int ?? 0
      #expect(passes >= 5, "\(state): axe checked only \(passes) rules")
      return (result["findings"] as? [String] ?? []).map { "\(state): \($0)" }
    }

    private func title(_ browser: Browser) async throws -> String {
      try await browser.text("#title")
    }

    private func waitForTitle(_ browser: Browser, _ expected: String) async throws {
      try await browser.waitUntil("title \(expected)") { try await title(browser) == expected }
    }

    private func clickButton(_ browser: Browser, _ label: String) async throws {
      try await browser.run(
        "[...document.querySelectorAll('#screen button')].find(b => b.innerText === arguments[0]).click();",
        [label])
    }

    @Test(arguments: [false, true])
    func everyScreenPassesWCAG21AA(dark: Bool) async throws {
      let showcase = try await WebShowcase()
      let browser = try await Browser(width: 900, height: 900)
      var findings: [String] = []
      do {
        try await browser.emulateColorScheme(dark: dark)
        let scheme = dark ? "dark" : "light"
        try await browser.open(showcase.url + "/")
        try await waitForTitle(browser, "Tether showcase")
        #expect(
          try await browser.run("return matchMedia('(prefers-color-scheme: dark)').matches;")
            as? Bool == dark, "the page sees the \(scheme) scheme")
        findings += try await audit(browser, "\(scheme) home")

        try await browser.open(showcase.url + "/gallery")
        try await browser.waitUntil("20 photos") { try await browser.count(Self.rows) == 20 }
        findings += try await audit(browser, "\(scheme) gallery")
        let photos = BundledPhotoService.page(1).photos
        let notForSale = try #require(photos.firstIndex { !$0.forSale })
        try await browser.click("\(Self.rows):nth-child(\(notForSale + 1))")
        try await browser.waitUntil("the alert") { try await browser.count("dialog[open]") == 1 }
        findings += try await audit(browser, "\(scheme) gallery alert")
        try await browser.click("dialog[open] .alert-button")
        try await browser.waitUntil("the alert to close") {
          try await browser.count("dialog[open]") == 0
        }
        let forSale = try #require(photos.firstIndex { $0.forSale })
        try await browser.click("\(Self.rows):nth-child(\(forSale + 1))")
        try await waitForTitle(browser, photos[forSale].name)
        findings += try await audit(browser, "\(scheme) photo")

        try await browser.open(showcase.url + "/courses")
        try await browser.waitUntil("courses") { try await browser.count(Self.rows) > 2 }
        findings += try await audit(browser, "\(scheme) courses")
        try await browser.click("\(Self.rows):nth-child(2)")
        try await waitForTitle(browser, "Podcasts Course")
        findings += try await audit(browser, "\(scheme) course")

        try await browser.open(showcase.url + "/articles")
        try await browser.waitUntil("articles") { try await browser.count(Self.rows) == 5 }
        findings += try await audit(browser, "\(scheme) articles")
        try await browser.click("\(Self.rows):nth-child(1)")
        try await waitForTitle(browser, "MVVM without the desperation")
        findings += try await audit(browser, "\(scheme) article")

        try await browser.open(showcase.url + "/profile")
        try await browser.waitUntil("octocat") {
          try await browser.text("#screen h2") == "@octocat"
        }
        findings += try await audit(browser, "\(scheme) profile")

        try await browser.open(showcase.url + "/entry")
        try await waitForTitle(browser, "Entry")
        findings += try await audit(browser, "\(scheme) entry")
        try await clickButton(browser, "Fetch user")
        try await browser.waitUntil("the fetched user") {
          try await browser.text("#screen h2") == "User: Ada Lovelace"
        }
        try await clickButton(browser, "Select user")
        try await waitForTitle(browser, "Greeting")
        findings += try await audit(browser, "\(scheme) greeting")

        try await browser.open(showcase.url + "/todos")
        try await browser.waitUntil("the new-todo field") {
          try await browser.count(".todoapp .new-todo") == 1
        }
        findings += try await audit(browser, "\(scheme) todos, empty")
        for (index, item) in ["Buy milk", "Walk the dog"].enumerated() {
          try await browser.press(item + "\u{E007}")
          try await browser.waitUntil("\(item) added") {
            try await browser.count(".todo-list li") == index + 1
          }
        }
        try await browser.click(".todo-list li:nth-child(1) .toggle")
        try await browser.waitUntil("one completed") {
          try await browser.count(".todo-list li.completed") == 1
        }
        findings += try await audit(browser, "\(scheme) todos")
        try await browser.pointerClick(".todo-list li:nth-child(2) label", count: 2)
        try await browser.waitUntil("editing") { try await browser.count("li.editing") == 1 }
        findings += try await audit(browser, "\(scheme) todos, editing")
      } catch {
        await browser.quit()
        _ = await showcase.stop()
        throw error
      }
      await browser.quit()
      _ = await showcase.stop()
      #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
    }
  }
}
