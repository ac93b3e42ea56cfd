import Foundation
import ShowcaseBrowser
import Testing

/// TetherWeb's Forms article, as an adopter would follow it: its Swift code blocks are the
/// `forms-article` executable word for word (CI also builds them in a package of its own), and
/// in Chromium the sign-up form validates as the person types and clears after Sign up.
extension EndToEnd {
  @Suite(.serialized) struct FormsArticleTests {
    private static let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()

    @Test func theArticlesCodeIsTheFormsExecutableWordForWord() throws {
      let article = try String(
        contentsOf: Self.root.appendingPathComponent(
          "Sources/TetherWeb/Documentation.docc/Forms.md"),
        encoding: .utf8)
      let main = try String(
        contentsOf: Self.root.appendingPathComponent("Examples/FormsArticle/main.swift"),
        encoding: .utf8)
      #expect(
        CounterArticleTests.swiftBlocks(of: article) == main,
        "run: .ci/extract-swift-blocks Sources/TetherWeb/Documentation.docc/Forms.md > Examples/FormsArticle/main.swift"
      )
    }

    @Test(.enabled(if: browserIsInstalled, "needs chromium and chromedriver"))
    func theFormValidatesAsThePersonTypesAndClearsAfterSignUp() async throws {
      let server = try await WebShowcase(product: "forms-article", environment: ["PORT": "0"])
      let browser = try await Browser()
      func value(_ selector: String) async throws -> String {
        try await browser.run("return document.querySelector(arguments[0]).value;", [selector])
          as? String ?? "?"
      }
      func errors() async throws -> [String] {
        try await browser.run(
          "return [...document.querySelectorAll('.error')].map(e => e.textContent).filter(t => t);")
          as? [String] ?? []
      }
      func buttonDisabled() async throws -> Bool {
        try await browser.run("return document.querySelector('#screen button').disabled;")
          as? Bool == true
      }
      do {
        try await browser.open(server.url + "/")
        try await browser.waitUntil("the form") { try await browser.count("input.name") == 1 }
        #expect(try await errors().isEmpty, "an empty form does not open in red")
        #expect(try await buttonDisabled())
        try await browser.click("input.name")
        try await browser.press("A")
        try await browser.waitUntil("the name's message") {
          try await errors() == ["Your name needs at least 2 letters."]
        }
        try await browser.press("da")
        try await browser.waitUntil("no message") { try await errors().isEmpty }
        try await browser.click("input.email")
        try await browser.press("ada@example")
        try await browser.waitUntil("the email's message") {
          try await errors() == ["That does not look like an email address."]
        }
        #expect(try await buttonDisabled(), "an address with a message cannot be sent")
        try await browser.press(".com")
        try await browser.waitUntil("valid") {
          guard try await errors().isEmpty else { return false }
          return try await !buttonDisabled()
        }
        #expect(try await value("input.name") == "Ada", "typing was never overwritten")
        try await browser.click("#screen button")
        try await browser.waitUntil("the confirmation") {
          try await browser.text(".confirmation") == "Welcome, Ada!"
        }
        let name = try await value("input.name")
        let email = try await value("input.email")
        #expect(name == "" && email == "", "the model cleared both fields")
        #expect(try await buttonDisabled())
      } catch {
        await browser.quit()
        _ = await server.stop()
        throw error
      }
      await browser.quit()
      #expect(await server.stop() == 0)
    }
  }
}
