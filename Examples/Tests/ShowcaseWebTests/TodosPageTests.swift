import Foundation
import ShowcaseFlows
import ShowcaseWeb
import Testing
import TetherWeb
import TetherWebTesting
import Todos
import TodosStorage

/// TodoMVC's web screen in process: the page a browser is sent, driven by the same messages
/// a browser's client sends — no socket, no browser. (The TodoMVC community's own suite runs
/// against it in Chromium too: `TodoMVCSuiteTests`.)
@MainActor
@Suite struct TodosPageTests {
  private func page(_ services: ShowcaseServices = .bundled(thumbnailDelay: .zero)) async throws
    -> WebTestPage
  {
    let page = try await WebTestPage(
      app: .showcase(services: services), path: "/todos",
      client: WebClient(id: "0123456789abcdef0123456789abcdef"))
    try await page.waitFor(".todoapp .new-todo")
    return page
  }

  private func add(_ titles: String..., to page: WebTestPage) async throws {
    for title in titles {
      let count = try page.elements(".todo-list li").count
      try await page.type(title, into: ".new-todo")
      try await page.submit(".new-todo")
      try await page.waitUntil("\(title) added") {
        try page.elements(".todo-list li").count == count + 1
      }
    }
  }

  @Test func theLookIsTheAppsStyleSheetNotASwiftString() throws {
    let app = WebApp.showcase(services: .bundled(thumbnailDelay: .zero))
    #expect(app.stylesheet?.contains(".todoapp .footer") == true, "todos.css is the app's")
    let copy = try #require(app.hookScripts[.copyToClipboard], "the copy hook is the app's")
    #expect(copy.contains("TetherHooks ??= {}).CopyToClipboard"))
  }

  /// "Copy list" is a client hook given the list's text; the page's copy comes back as the
  /// screen's input, and the confirmation goes once the list changes.
  @Test func copyListGivesTheHookTheListAndConfirmsTheCopy() async throws {
    let page = try await page()
    defer { page.close() }
    try await add("Buy milk", "Walk the dog", to: page)
    try await page.check(".todo-list li:nth-of-type(2) .toggle")
    try await page.waitFor(".todo-list li.completed")
    let text = "[ ] Buy milk\n[x] Walk the dog"
    #expect(try page.element(".copy-list")[attribute: "data-hook"] == "CopyToClipboard")
    #expect(try page.element(".copy-list")[attribute: "data-hook-value"] == text)
    try await page.pushHookEvent("copied", value: text, from: ".copy-list")
    #expect(try page.text(".copy-status") == "Copied 2 todos")
    try await add("Call mum", to: page)
    #expect(try page.text(".copy-status") == "")
    try await page.pushHookEvent("failed", from: ".copy-list")
    #expect(try page.text(".copy-status") == "Could not copy: the browser did not allow it")
    await #expect(throws: WebTestPage.Failure.self) {
      try await page.pushHookEvent("paste", value: "x", from: ".copy-list")
    }
  }

  @Test func anEmptyListHidesTheListAndFooterAndFocusesTheField() async throws {
    let page = try await page()
    defer { page.close() }
    #expect(try page.isHidden(".main"))
    #expect(try page.isHidden(".footer"))
    #expect(try page.element(".new-todo")[attribute: "placeholder"] == "What needs to be done?")
    #expect(try page.focusedID == page.element(".new-todo").id)
    #expect(page.title == "Todos · Tether showcase")
  }

  @Test func itemsAreAddedTrimmedAndCountedAndTheFieldCleared() async throws {
    let page = try await page()
    defer { page.close() }
    try await add("  Buy milk  ", "Walk the dog", to: page)
    #expect(try page.texts(".todo-list li label") == ["Buy milk", "Walk the dog"])
    #expect(try page.value(".new-todo") == "")
    #expect(try page.text(".todo-count") == "2 items left")
    #expect(try !page.isHidden(".footer"))
  }

  @Test func toggleMarkAllClearCompletedAndFilters() async throws {
    let page = try await page()
    defer { page.close() }
    try await add("One", "Two", "Three", to: page)
    try await page.check(".todo-list li:nth-of-type(2) .toggle")
    #expect(try page.has(".todo-list li:nth-of-type(2).completed"))
    #expect(try page.text(".todo-count") == "2 items left")
    #expect(try !page.isHidden(".clear-completed"))

    try await page.click(".filters li:nth-of-type(2) a")
    #expect(page.path == "/todos/active")
    #expect(try page.texts(".todo-list li label") == ["One", "Three"])
    #expect(try page.has(".filters li:nth-of-type(2) a.selected"))
    try await page.navigate(to: "/todos")
    #expect(try page.elements(".todo-list li").count == 3)

    try await page.check(".toggle-all")
    #expect(try page.elements(".todo-list li.completed").count == 3)
    #expect(try page.has(".toggle-all:checked"))
    try await page.click(".clear-completed")
    #expect(try page.elements(".todo-list li").isEmpty)
    #expect(try page.isHidden(".main"))
  }

  @Test func anItemIsEditedInPlaceSavedOnEnterAndCancelledOnEscape() async throws {
    let page = try await page()
    defer { page.close() }
    try await add("Buy milk", to: page)
    try await page.doubleClick(".todo-list li label")
    #expect(try page.has(".todo-list li.editing .edit"))
    #expect(try page.focusedID == page.element(".todo-list li .edit").id)
    try await page.type("  Buy oat milk ", into: ".todo-list li .edit")
    try await page.submit(".todo-list li .edit")
    #expect(try page.texts(".todo-list li label") == ["Buy oat milk"])
    #expect(try !page.has(".todo-list li.editing"))

    try await page.doubleClick(".todo-list li label")
    try await page.type("Nothing", into: ".todo-list li .edit")
    try await page.cancel(".todo-list li .edit")
    #expect(try page.texts(".todo-list li label") == ["Buy oat milk"])

    // An empty title deletes the item.
    try await page.doubleClick(".todo-list li label")
    try await page.type("", into: ".todo-list li .edit")
    try await page.submit(".todo-list li .edit")
    #expect(try page.elements(".todo-list li").isEmpty)
  }

  @Test func anotherTabOfTheSameBrowserSeesTheChange() async throws {
    let services = ShowcaseServices.bundled(thumbnailDelay: .zero)
    let first = try await page(services)
    defer { first.close() }
    let second = try await WebTestPage(
      registry: first.registry, path: "/todos",
      client: WebClient(id: "0123456789abcdef0123456789abcdef"))
    try await add("Shared", to: first)
    try await second.waitUntil("the item in the other tab") {
      try second.texts(".todo-list li label") == ["Shared"]
    }
    try await second.click(".todo-list li .destroy")
    try await first.waitUntil("the item gone from the first tab") {
      try first.elements(".todo-list li").isEmpty
    }
  }

  /// The list in an SQLite file that something else writes too (a second showcase, a
  /// migration): the page shows the change without a reload.
  @Test func aChangeWrittenToTheFileByAnotherConnectionIsShown() async throws {
    let path = NSTemporaryDirectory() + "todos-page-\(UUID().uuidString).sqlite"
    var services = ShowcaseServices.bundled(thumbnailDelay: .zero)
    services.todos = try SQLiteTodoStore(path: path)
    let page = try await page(services)
    defer { page.close() }
    let other = try SQLiteTodoStore(path: path)
    _ = try await other.apply(
      .add(Todo(id: "elsewhere", title: "Written elsewhere")),
      to: "0123456789abcdef0123456789abcdef")
    try await page.waitUntil("the other connection's item") {
      try page.texts(".todo-list li label") == ["Written elsewhere"]
    }
  }
}

@MainActor
@Suite struct TodosPageLifetimeTests {
  /// The screen's calls hold its view model; a closed tab's session holds none of them, even
  /// while something (here the test page) still holds the session. (The cluster's TodoMVC load
  /// run found 16 view models alive after 16 sessions closed.)
  @Test func closingATodosTabFreesItsViewModel() async throws {
    let registry = WebSessionRegistry(
      services: .bundled(thumbnailDelay: .zero), firstRender: .held)
    let page = try await WebTestPage(
      registry: registry, path: "/todos",
      client: WebClient(id: "0123456789abcdef0123456789abcdef"))
    try await page.waitFor(".todoapp .new-todo")
    try await page.type("Milk", into: ".new-todo")
    try await page.submit(".new-todo")
    try await page.waitUntil("added") { try page.elements(".todo-list li").count == 1 }
    try await page.check(".todo-list li .toggle")
    #expect(registry.liveObjects > 0)
    page.close()
    registry.closeAll()
    try await page.waitUntil("the view model freed") { registry.liveObjects == 0 }
  }
}
