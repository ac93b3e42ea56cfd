import Foundation
import ShowcaseBrowser
import Testing

/// TetherWeb's getting-started article, as an adopter would follow it: its Swift code blocks
/// are the `counter-article` executable word for word, and that executable, in Chromium, counts
/// clicks on Increment.
///
/// CI also builds the same text in a package of its own that depends on Tether with the
/// `WebServer` trait, serves it, and runs the browser test against it
/// (`TETHER_COUNTER_URL`); without that variable the test starts `counter-article` itself.
extension EndToEnd {
  @Suite(.serialized) struct CounterArticleTests {
    /// The repository's root, above Examples/Tests/ShowcaseTests.
    private static let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()

    /// The article's ```swift blocks in order, one empty line between blocks (what
    /// `.ci/extract-swift-blocks` prints).
    static func swiftBlocks(of markdown: String) -> String {
      var blocks: [[Substring]] = []
      var inside = false
      for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if line == "```swift" {
          blocks.append([])
          inside = true
        } else if line.hasPrefix("```") {
          inside = false
        } else if inside {
          blocks[blocks.count - 1].append(line)
        }
      }
      return blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    @Test func theArticlesCodeIsTheCounterExecutableWordForWord() throws {
      let article = try String(
        contentsOf: Self.root.appendingPathComponent(
          "Sources/TetherWeb/Documentation.docc/GettingStartedWithTheWebLayer.md"),
        encoding: .utf8)
      let main = try String(
        contentsOf: Self.root.appendingPathComponent("Examples/CounterArticle/main.swift"),
        encoding: .utf8)
      let code = Self.swiftBlocks(of: article)
      #expect(code.contains("TetherWebServer.run(app, port: port)"))
      #expect(
        code == main,
        "run: .ci/extract-swift-blocks Sources/TetherWeb/Documentation.docc/GettingStartedWithTheWebLayer.md > Examples/CounterArticle/main.swift"
      )
    }

    @Test(.enabled(if: browserIsInstalled, "needs chromium and chromedriver"))
    func incrementThreeTimesShowsCountThree() async throws {
      var counter: Process?
      let url: String
      if let given = ProcessInfo.processInfo.environment["TETHER_COUNTER_URL"] {
        url = given
      } else {
        let started = try await WebShowcase(
          product: "counter-article", environment: ["PORT": "0"])
        counter = started.process
        url = started.url
      }
      #expect(url.hasPrefix("http://127.0.0.1:"))
      let browser = try await Browser()
      do {
        try await browser.open(url + "/")
        try await browser.waitUntil("Count: 0") {
          try await browser.text("#screen p") == "Count: 0"
        }
        #expect(try await browser.text("#title") == "Counter")
        #expect(try await browser.text("#screen button") == "Increment")
        for expected in 1...3 {
          try await browser.click("#screen button")
          try await browser.waitUntil("Count: \(expected)") {
            try await browser.text("#screen p") == "Count: \(expected)"
          }
        }
        #expect(try await browser.text("#screen p") == "Count: 3")
        // A reload is a new tab's session: it starts again from 0.
        try await browser.open(url + "/")
        try await browser.waitUntil("a new session") {
          try await browser.text("#screen p") == "Count: 0"
        }
        if let counter {
          // SIGTERM with the page still connected: the server closes the page's socket (1000)
          // and its session, and exits 0, well within 5 s.
          counter.terminate()
          let deadline = Date().addingTimeInterval(5)
          while counter.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
          }
          #expect(!counter.isRunning, "counter-article did not stop within 5 s of SIGTERM")
          if !counter.isRunning {
            #expect(counter.terminationReason == .exit && counter.terminationStatus == 0)
          }
        }
      } catch {
        await browser.quit()
        counter?.terminate()
        throw error
      }
      await browser.quit()
    }
  }
}
