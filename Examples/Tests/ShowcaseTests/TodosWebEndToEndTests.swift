import Foundation
import ShowcaseBrowser
import Testing

/// TodoMVC at `/todos` in headless Chromium, checked against the TodoMVC app specification
/// (tastejs/todomvc, `app-spec.md`), one behaviour at a time, through the template's class
/// names — typed keys, clicks, double-clicks and the browser's own Back, as a person uses it.
extension EndToEnd {
  @Suite(.serialized, .enabled(if: browserIsInstalled, "needs chromium and chromedriver"))
  struct TodosWebEndToEndTests {
    private static let items = ".todo-list li"

    private func withTodos(
      _ body: (WebShowcase, Browser) async throws -> Void
    ) async throws {
      try await withShowcaseInBrowser(width: 800, height: 900) { showcase, browser in
        try await browser.open(showcase.url + "/todos")
        try await browser.waitUntil("the new-todo field") {
          try await browser.count(".todoapp .new-todo") == 1
        }
        try await body(showcase, browser)
      }
    }

    private func add(_ titles: [String], _ browser: Browser) async throws {
      for title in titles {
        let before = try await browser.count(Self.items)
        try await browser.press(title + "\u{E007}")
        try await browser.waitUntil("\(title) added") {
          try await browser.count(Self.items) == before + 1
        }
      }
    }

    private func labels(_ browser: Browser) async throws -> [String] {
      try await browser.run(
        "return [...document.querySelectorAll('.todo-list li label')].map(l => l.textContent);")
        as? [String] ?? []
    }

    private func count(_ browser: Browser) async throws -> String {
      try await browser.run(
        "const c = document.querySelector('.todo-count'); return c ? c.textContent : null;")
        as? String ?? "none"
    }

    private func isFocused(_ selector: String, _ browser: Browser) async throws -> Bool {
      try await browser.run(
        "return document.activeElement === document.querySelector(arguments[0]);", [selector])
        as? Bool == true
    }

    /// "Copy list" is a client hook (TetherWeb's `WebHook`): its script is served by the app
    /// and mounted on the button, is updated with each new value of the list's text, copies
    /// it and sends `copied` back (the page shows the screen's confirmation), and is
    /// destroyed when the person goes Back home.
    @Test func copyListIsAHookMountedUpdatedHeardAndDestroyedOnBack() async throws {
      try await withShowcaseInBrowser(width: 800, height: 900) { showcase, browser in
        // Each hook call, as the client announces it on the document.
        try await browser.runOnEveryNewDocument(
          """
          window.hookCalls = [];
          document.addEventListener("tether:hook", (event) => window.hookCalls.push(
            event.detail.phase + " " + event.detail.hook + " " + event.detail.value));
          """)
        try await browser.open(showcase.url + "/")
        try await browser.waitUntil("the home menu") {
          try await browser.count("#screen .row") == 6
        }
        try await browser.click("#screen .row:nth-child(6)")
        try await browser.waitUntil("TodoMVC") {
          try await browser.count(".todoapp .new-todo") == 1
        }
        func calls() async throws -> [String] {
          try await browser.run("return window.hookCalls;") as? [String] ?? []
        }
        #expect(try await calls() == ["mounted CopyToClipboard "], "mounted on the hidden button")
        try await add(["Buy milk", "Walk the dog"], browser)
        try await browser.waitUntil("the hook updated with the list") {
          try await calls().last == "updated CopyToClipboard [ ] Buy milk\n[ ] Walk the dog"
        }
        let afterAdding = try await calls()
        #expect(afterAdding.count == 3, "one update per value: \(afterAdding)")

        try await browser.click(".copy-list")
        try await browser.waitUntil("the copy confirmed") {
          try await browser.text(".copy-status") == "Copied 2 todos"
        }
        // Copying asked for no permission; reading it back here does.
        try await browser.allowClipboardReading(for: showcase.url)
        #expect(
          try await browser.runAsync(
            "const done = arguments[0]; navigator.clipboard.readText().then(done, () => done(null));"
          ) as? String == "[ ] Buy milk\n[ ] Walk the dog", "the clipboard holds the list")

        try await browser.back()
        try await browser.waitUntil("home again") {
          try await browser.count(".todoapp") == 0
        }
        try await browser.waitUntil("the hook destroyed") {
          try await calls().last?.hasPrefix("destroyed CopyToClipboard") == true
        }
      }
    }

    @Test func noTodosHidesTheListAndFooterAndTheFieldHasFocus() async throws {
      try await withTodos { _, browser in
        #expect(try await browser.count(".todoapp .main:not([hidden])") == 0, "hidden")
        #expect(try await browser.count(".todoapp .footer:not([hidden])") == 0, "hidden")
        #expect(
          try await browser.run(
            "return getComputedStyle(document.querySelector('.todoapp .main')).display;")
            as? String == "none")
        try await browser.waitUntil("focus in the new-todo field") {
          try await isFocused(".new-todo", browser)
        }
        #expect(
          try await browser.run("return document.querySelector('.new-todo').placeholder;")
            as? String == "What needs to be done?")
      }
    }

    @Test func newTodosAreTrimmedAppendedAndTheFieldCleared() async throws {
      try await withTodos { _, browser in
        try await add(["  Buy milk  ", "Walk the dog"], browser)
        #expect(try await labels(browser) == ["Buy milk", "Walk the dog"], "trimmed, at the end")
        #expect(
          try await browser.run("return document.querySelector('.new-todo').value;") as? String
            == "", "the field is cleared")
        #expect(try await isFocused(".new-todo", browser), "focus stays in the field")
        // An empty (or blank) title adds nothing: the next title, sent after it, is the only
        // item added.
        try await browser.press("   \u{E007}")
        try await add(["Feed the cat"], browser)
        #expect(try await labels(browser) == ["Buy milk", "Walk the dog", "Feed the cat"])
        #expect(try await browser.count(".todoapp .main:not([hidden])") == 1)
        #expect(try await count(browser) == "3 items left")
        #expect(try await browser.text(".todo-count strong") == "3")
      }
    }

    @Test func toggleItemsAndToggleAllAndTheCounter() async throws {
      try await withTodos { _, browser in
        try await add(["One", "Two", "Three"], browser)
        try await browser.click("\(Self.items):nth-child(2) .toggle")
        try await browser.waitUntil("Two completed") {
          try await browser.count("\(Self.items).completed") == 1
        }
        #expect(try await count(browser) == "2 items left")
        try await browser.click("\(Self.items):nth-child(1) .toggle")
        try await browser.click("\(Self.items):nth-child(3) .toggle")
        try await browser.waitUntil("all completed") {
          try await browser.count("\(Self.items).completed") == 3
        }
        #expect(try await count(browser) == "0 items left")
        #expect(
          try await browser.run("return document.querySelector('.toggle-all').checked;") as? Bool
            == true, "toggle-all follows the items")
        // Toggle all off, then on.
        try await browser.click(".toggle-all + label")
        try await browser.waitUntil("none completed") {
          try await browser.count("\(Self.items).completed") == 0
        }
        #expect(try await browser.count("\(Self.items) .toggle:checked") == 0)
        #expect(try await count(browser) == "3 items left")
        try await browser.click(".toggle-all + label")
        try await browser.waitUntil("all completed again") {
          try await browser.count("\(Self.items) .toggle:checked") == 3
        }
        // One item back: "1 item left", singular.
        try await browser.click("\(Self.items):nth-child(1) .toggle")
        try await browser.waitUntil("1 item left") { try await count(browser) == "1 item left" }
        #expect(
          try await browser.run("return document.querySelector('.toggle-all').checked;") as? Bool
            == false)
      }
    }

    @Test func editInPlaceSavesOnEnterAndBlurCancelsOnEscapeAndEmptyDeletes() async throws {
      try await withTodos { _, browser in
        try await add(["Buy milk", "Walk the dog", "Read"], browser)
        try await browser.pointerClick("\(Self.items):nth-child(1) label", count: 2)
        try await browser.waitUntil("editing") {
          try await browser.count("\(Self.items).editing") == 1
        }
        #expect(try await isFocused(".todo-list li.editing .edit", browser))
        #expect(
          try await browser.run("return document.querySelector('.edit').value;") as? String
            == "Buy milk")
        let viewDisplay =
          try await browser.run(
            "return getComputedStyle(document.querySelector('li.editing .view')).display;")
          as? String
        #expect(viewDisplay == "none", "the view part is hidden while editing")
        // Enter saves the trimmed title.
        try await browser.run("document.querySelector('li.editing .edit').select();")
        try await browser.press("  Buy oat milk  \u{E007}")
        try await browser.waitUntil("saved") { try await labels(browser).first == "Buy oat milk" }
        #expect(try await browser.count("\(Self.items).editing") == 0)

        // Escape cancels.
        try await browser.pointerClick("\(Self.items):nth-child(2) label", count: 2)
        try await browser.waitUntil("editing 2") {
          try await browser.count("\(Self.items).editing") == 1
        }
        try await browser.run("document.querySelector('li.editing .edit').select();")
        try await browser.press("Something else\u{E00C}")
        try await browser.waitUntil("cancelled") {
          try await browser.count("\(Self.items).editing") == 0
        }
        #expect(try await labels(browser)[1] == "Walk the dog")

        // Leaving the field saves.
        try await browser.pointerClick("\(Self.items):nth-child(3) label", count: 2)
        try await browser.waitUntil("editing 3") {
          try await browser.count("\(Self.items).editing") == 1
        }
        try await browser.press(" a book")
        try await browser.pointerClick(".todoapp h1")
        try await browser.waitUntil("saved on blur") {
          try await labels(browser).last == "Read a book"
        }

        // An empty title deletes the item.
        try await browser.pointerClick("\(Self.items):nth-child(2) label", count: 2)
        try await browser.waitUntil("editing 2 again") {
          try await browser.count("\(Self.items).editing") == 1
        }
        try await browser.run("document.querySelector('li.editing .edit').select();")
        try await browser.press("\u{E003}\u{E007}")
        try await browser.waitUntil("deleted") { try await browser.count(Self.items) == 2 }
        #expect(try await labels(browser) == ["Buy oat milk", "Read a book"])
      }
    }

    @Test func destroyClearCompletedFiltersBackAndReload() async throws {
      try await withTodos { showcase, browser in
        try await add(["One", "Two", "Three", "Four"], browser)
        try await browser.pointerClick("\(Self.items):nth-child(1) .destroy")
        try await browser.waitUntil("One deleted") { try await browser.count(Self.items) == 3 }
        #expect(
          try await browser.count(".clear-completed:not([hidden])") == 0,
          "nothing completed: hidden")
        try await browser.click("\(Self.items):nth-child(1) .toggle")
        try await browser.waitUntil("clear completed shown") {
          try await browser.count(".clear-completed:not([hidden])") == 1
        }
        try await browser.click("\(Self.items):nth-child(3) .toggle")
        try await browser.waitUntil("two completed") {
          try await browser.count("\(Self.items).completed") == 2
        }

        // Filters: links in the address, the selected one marked; Back goes to the last one.
        try await browser.click(".filters a[href='/todos/active']")
        try await browser.waitUntil("active only") { try await labels(browser) == ["Three"] }
        #expect(try await browser.run("return location.pathname;") as? String == "/todos/active")
        #expect(try await browser.text(".filters a.selected") == "Active")
        try await browser.click(".filters a[href='/todos/completed']")
        try await browser.waitUntil("completed only") {
          try await labels(browser) == ["Two", "Four"]
        }
        #expect(try await browser.text(".filters a.selected") == "Completed")
        try await browser.back()
        try await browser.waitUntil("Back: active") { try await labels(browser) == ["Three"] }
        #expect(try await browser.text(".filters a.selected") == "Active")
        try await browser.click(".filters a[href='/todos']")
        try await browser.waitUntil("all") { try await labels(browser).count == 3 }
        try await browser.screenshot(to: screenshotPath("web-todos.png"))

        try await browser.click(".clear-completed")
        try await browser.waitUntil("completed cleared") { try await labels(browser) == ["Three"] }
        #expect(try await browser.count(".clear-completed:not([hidden])") == 0)

        // Persistence: a reload (a new session) shows the same list; so does a deep link.
        try await browser.open(showcase.url + "/todos")
        try await browser.waitUntil("the list after a reload") {
          try await labels(browser) == ["Three"]
        }
        try await browser.open(showcase.url + "/todos/completed")
        try await browser.waitUntil("a deep link to a filter") {
          guard try await browser.count(".filters a.selected") == 1 else { return false }
          return try await browser.text(".filters a.selected") == "Completed"
        }
        #expect(try await labels(browser).isEmpty)
      }
    }
  }
}
