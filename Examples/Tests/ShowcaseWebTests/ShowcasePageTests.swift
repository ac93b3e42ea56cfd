import ShowcaseFlows
import ShowcaseWeb
import Testing
import TetherWeb
import TetherWebTesting

/// Every example screen in process, driven as a person drives it in a browser — click a row,
/// type, press a button, go Back — with `WebTestPage`: no socket, no browser. (TodoMVC's are in
/// `TodosPageTests`; the browser suites check what only a browser shows.)
@MainActor
@Suite struct ShowcasePageTests {
  private func open(_ path: String) async throws -> WebTestPage {
    try await WebTestPage(app: .showcase(services: .bundled(thumbnailDelay: .zero)), path: path)
  }

  /// The rows of the screen's list, as a reader sees them.
  private func rows(_ page: WebTestPage) throws -> [String] {
    try page.texts(".list .row")
  }

  @Test func homeListsTheAppsAndOpensOne() async throws {
    let page = try await open("/")
    defer { page.close() }
    #expect(page.title == "Tether showcase", "a screen named as its app is not named twice")
    let apps = try rows(page)
    #expect(apps.count >= 6 && apps.first?.hasPrefix("Gallery") == true, "\(apps)")
    try await page.click(".list .row:nth-of-type(2)")
    try await page.waitUntil("the second app opens") { page.path != "/" }
    #expect(try page.has("#back"), "a pushed screen has Back")
  }

  @Test func galleryListsPhotosFiltersThemAndOpensOne() async throws {
    let page = try await open("/gallery")
    defer { page.close() }
    try await page.waitUntil("the photos") { try page.text("main").contains("20 photos") }
    try await page.type("zzz-no-such-title", into: "input.search")
    try await page.waitUntil("no rows") { try rows(page).isEmpty }
    try await page.type("", into: "input.search")
    try await page.waitUntil("the rows again") { try rows(page).count == 20 }
    try await page.click(".list .row")
    try await page.waitUntil("the photo's page") { page.path.hasPrefix("/gallery/photo/") }
  }

  @Test func aPhotoShowsItsDetailsAndItsImage() async throws {
    let page = try await open("/gallery/photo/230200400")
    defer { page.close() }
    try await page.waitFor("img")
    #expect(try page.element("img")[attribute: "src"] == "/images/photos/230200400.png")
    #expect(try page.text("main").contains("For sale"))
  }

  @Test func coursesListAndOpenACourseWhoseRemoveButtonWorks() async throws {
    let page = try await open("/courses")
    defer { page.close() }
    try await page.waitUntil("the courses") { try rows(page).contains { $0.contains("Podcasts") } }
    let podcasts = try #require(try rows(page).firstIndex { $0.contains("Podcasts") })
    try await page.click(".list .row:nth-of-type(\(podcasts + 1))")
    try await page.waitUntil("the course") { page.path == "/courses/course/2" }
    #expect(try page.text("h2") == "Podcasts Course")
    #expect(try page.text("main").contains("39 lessons"))
    // More… offers the course's actions in a confirmation dialog, one under another.
    try await page.click(named: "More…")
    try await page.waitFor("dialog#alert.confirmation[open]")
    #expect(
      try page.texts("#alert .alert-button") == ["Move to the top", "Remove from list", "Cancel"])
    #expect(page.focusedID == (try page.element(named: "Move to the top").id))
    try await page.click(named: "Move to the top")
    try await page.waitUntil("back on the list") { page.path == "/courses" }
    #expect(try rows(page).first?.contains("Podcasts") == true, "moved to the top")
  }

  @Test func profileSwitchesBindingStyleAndLoadsTheNextProfile() async throws {
    let page = try await open("/profile")
    defer { page.close() }
    try await page.waitUntil("the profile") { try page.text("h2") == "@octocat" }
    // The binding styles are tabs, the one shown in the address.
    #expect(try page.element("[role=tablist]")[attribute: "aria-label"] == "Binding style")
    #expect(try page.texts("[role=tab][aria-selected=true]") == ["View model"])
    #expect(try page.elements("[role=tab]").count == 4)
    try await page.click(named: "Streams (Driver)")
    #expect(try page.texts("[role=tab][aria-selected=true]") == ["Streams (Driver)"])
    #expect(page.path == "/profile/streams")
    #expect(try page.text("h2") == "@octocat", "every style renders the same header")
    // Back to the screen's own address shows the first tab again.
    try await page.navigate(to: "/profile")
    #expect(try page.texts("[role=tab][aria-selected=true]") == ["View model"])
    try await page.click(named: "Next profile")
    try await page.waitUntil("the next profile") { try page.text("h2") != "@octocat" }
  }

  @Test func articlesListAndOpenAnArticle() async throws {
    let page = try await open("/articles")
    defer { page.close() }
    try await page.waitUntil("the articles") {
      try rows(page).contains { $0.contains("MVVM without the desperation") }
    }
    try await page.click(".list .row")
    try await page.waitUntil("the article") { page.path == "/articles/article/0" }
    #expect(try page.text("h2") == "MVVM without the desperation")
  }

  @Test func entryFetchesAUserThenSelectsThemForAGreeting() async throws {
    let page = try await open("/entry")
    defer { page.close() }
    #expect(try page.text("h2") == "User: —")
    #expect(try page.element(named: "Select user")[attribute: "disabled"] != nil)
    try await page.click(named: "Fetch user")
    try await page.waitUntil("a user") { try page.text("h2") != "User: —" }
    try await page.waitUntil("Select enabled") {
      try page.element(named: "Select user")[attribute: "disabled"] == nil
    }
    try await page.click(named: "Select user")
    try await page.waitUntil("the greeting") { page.path.hasPrefix("/entry/greeting/") }
    #expect(try page.text("h2").hasPrefix("Hello, "))
    try await page.navigate(to: "/entry")
    #expect(page.path == "/entry", "Back shows the entry again")
  }

  @Test func theGreetingsSalutationPickerIsASheetThatTakesEveryGestureUntilItGoes() async throws {
    let page = try await open("/entry/greeting/Ada")
    defer { page.close() }
    #expect(try page.text("h2") == "Hello, Ada!")
    #expect(try !page.has("dialog#sheet[open]"))
    try await page.click(named: "Change salutation…")
    try await page.waitFor("dialog#sheet[open]")
    #expect(page.path == "/entry/greeting/Ada/salutation")
    #expect(try page.text("#sheet h2") == "Salutation")
    #expect(try page.element("dialog#sheet")[attribute: "aria-modal"] == "true")
    #expect(try page.element("main")[attribute: "inert"] != nil, "the screen under it is inert")
    #expect(
      try page.texts("#sheet .choice") == ["Hello ✓", "Good morning", "Welcome back", "Howdy"])
    // A gesture on the screen under the sheet is refused, and changes nothing.
    await #expect(throws: (any Error).self) { try await page.click(named: "Change salutation…") }
    try await page.click(named: "Welcome back")
    try await page.waitUntil("the sheet closed") { try !page.has("dialog#sheet[open]") }
    #expect(try page.text("h2") == "Welcome back, Ada!")
    #expect(page.path == "/entry/greeting/Ada")
    #expect(try page.element("main")[attribute: "inert"] == nil)
    // Escape closes it with no choice; so does its Close button.
    try await page.click(named: "Change salutation…")
    try await page.waitFor("dialog#sheet[open]")
    try await page.press(.escape)
    try await page.waitUntil("Escape closed it") { try !page.has("dialog#sheet[open]") }
    try await page.click(named: "Change salutation…")
    try await page.waitFor("dialog#sheet[open]")
    try await page.click("#sheet .sheet-close")
    try await page.waitUntil("Close closed it") { try !page.has("dialog#sheet[open]") }
    #expect(try page.text("h2") == "Welcome back, Ada!")
    // A link to the open sheet opens it; Back from it closes it.
    try await page.navigate(to: "/entry/greeting/Ada/salutation")
    try await page.waitFor("dialog#sheet[open]")
    try await page.navigate(to: "/entry/greeting/Ada")
    try await page.waitUntil("Back closed it") { try !page.has("dialog#sheet[open]") }
  }
}
