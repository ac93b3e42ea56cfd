import Articles
import Courses
import Entry
import Foundation
import Gallery
import Profile
import ShowcaseFlows
import ShowcaseTerminal
import Testing
import Tether
import TetherFlow
import TetherTerminal
import TetherTerminalTesting
import TetherTesting
import Todos

/// Every terminal screen of the showcase, driven with the terminal test kit: keys in, text
/// and view-model state out, at a chosen size, with the app's own flows and bundled data.
@MainActor
@Suite struct TerminalScreenTests {
  private func app(width: Int = 100, height: Int = 30) -> (
    page: TerminalTestPage, stack: ScreenStack<ShowcaseDestination>
  ) {
    let stack = ScreenStack<ShowcaseDestination>()
    let tick = MutableProperty(0)
    let page = TerminalTestPage(stack: stack, width: width, height: height) { screen in
      ShowcaseViews.makeScreen(for: screen, tick: tick)
    }
    MainFlowController(services: ScreenSnapshotTests.services).startFlow(on: stack)
    return (page, stack)
  }

  /// Opens the home menu's row called `app` by keys, as a person does.
  private func open(_ app: ShowcaseApp, on page: TerminalTestPage) {
    for _ in 0..<(ShowcaseApp.allCases.firstIndex(of: app) ?? 0) { page.press(.down) }
    page.press(.enter)
  }

  @Test func homeListsTheAppsAndEnterOpensOne() {
    let (page, stack) = app()
    #expect(page.shows("Choose an app") && page.focusedLabel == "Apps")
    #expect(page.lines(containing: "›") == [" › Gallery"])
    page.press(.down, .down)
    #expect(page.lines(containing: "›") == [" › Profile"])
    page.press(.enter)
    #expect(stack.topScreen?.profile != nil)
  }

  @Test func photoListSearchesWithSlashAndPagesByItsSelection() async throws {
    let (page, stack) = app()
    open(.gallery, on: page)
    let list = try #require(stack.topScreen?.photoList)
    try await page.waitFor("20 photos")
    #expect(page.focusedLabel == "Photos")
    page.press(.character("/"))
    #expect(page.focusedLabel == "Search titles" && list.isSearching)
    let title = try #require(list.rows.first?.titleText)
    page.type(String(title.prefix(4)))
    #expect(list.searchText.value == String(title.prefix(4)))
    page.press(.enter)
    #expect(!list.isSearching && page.focusedLabel == "Photos")
    page.press(.escape)  // the list does not use Escape: back to the menu
    #expect(stack.topScreen?.home != nil)
  }

  @Test func photoDetailShowsTheTextsAndThePreview() async throws {
    let (page, stack) = app()
    open(.gallery, on: page)
    let list = try #require(stack.topScreen?.photoList)
    try await page.waitUntil("the first page") { list.numberOfCells == 20 }
    let forSale = try #require(BundledPhotoService.page(1).photos.firstIndex { $0.forSale })
    for _ in 0..<forSale { page.press(.down) }
    page.press(.enter)
    let detail = try #require(stack.topScreen?.photoDetail)
    #expect(page.shows(detail.titleText) && page.shows("For sale"))
    #expect(page.shows("▒") || page.shows("▓"), "the preview is drawn in shade blocks")
    #expect(page.controlLabels.isEmpty)
  }

  @Test func courseListAlignsItsColumnsAndOpensACourse() async throws {
    let (page, stack) = app(width: 60, height: 16)
    open(.courses, on: page)
    let list = try #require(stack.topScreen?.courseList)
    try await page.waitUntil("the courses") { !list.rows.isEmpty }
    let rows = page.lines(containing: "课程")
    #expect(rows.count == list.rows.count && Set(rows.map { DisplayWidth.of($0) }).count == 1)
    page.press(.enter)
    #expect(stack.topScreen?.courseDetail?.course.id == list.rows.first?.id)
  }

  @Test func theCoursesConfirmationsDestructiveButtonIsReachedByKeysAndNeverTheDefault()
    async throws
  {
    let (page, stack) = app()
    open(.courses, on: page)
    let list = try #require(stack.topScreen?.courseList)
    try await page.waitUntil("the courses") { !list.rows.isEmpty }
    page.press(.down, .enter)
    let detail = try #require(stack.topScreen?.courseDetail)
    // On the detail, focus starts on More…, not on the destructive Remove.
    #expect(page.focusedLabel == detail.moreTitle)
    try page.press(detail.removeTitle)
    #expect(page.controlLabels == ["Remove", "Cancel"])
    #expect(page.focusedLabel == "Cancel", "Enter on a fresh confirmation removes nothing")
    try page.focus("Remove")
    page.press(.enter)
    #expect(stack.topScreen?.courseList != nil)
    #expect(!list.rows.contains { $0.id == detail.course.id })
  }

  @Test func theCourseDetailsDialogStartsOnItsSafeAction() async throws {
    let (page, stack) = app()
    open(.courses, on: page)
    let list = try #require(stack.topScreen?.courseList)
    try await page.waitUntil("the courses") { !list.rows.isEmpty }
    page.press(.enter, .character("m"))
    #expect(page.focusedLabel == "Move to the top")
    #expect(page.controlLabels == ["Move to the top", "Remove from list", "Cancel"])
  }

  @Test func profileTabsAnswerArrowsAndDigits() async throws {
    let (page, stack) = app()
    open(.profile, on: page)
    let profile = try #require(stack.topScreen?.profile)
    try await page.waitFor("@octocat")
    #expect(page.focusedLabel == "Binding style" && profile.style == .viewModel)
    page.press(.left)
    #expect(profile.style == .modelRendersIntoContext)
    #expect(page.shows("[2 \(ProfileScreenViewModel.Style.modelRendersIntoContext.rawValue)]"))
    page.press(.character("4"))
    #expect(profile.style == profile.styles[3] && page.shows("[4 \(profile.styles[3].rawValue)]"))
    #expect(page.shows("@octocat"), "every style renders the same header")
  }

  @Test func articleListOpensAnArticleWithItsThumbnail() async throws {
    let (page, stack) = app()
    open(.articles, on: page)
    let list = try #require(stack.topScreen?.articleList)
    try await page.waitUntil("the articles") { !list.rows.isEmpty }
    #expect(page.shows(list.rows[0].title) && page.shows(list.rows[0].date))
    page.press(.down, .enter)
    let article = try #require(stack.topScreen?.article)
    #expect(page.shows(article.title))
    try await page.waitUntil("the thumbnail") { article.thumbnail.value != nil }
    #expect(page.shows("░") || page.shows("▒") || page.shows("▓") || page.shows("█"))
  }

  @Test func entryFetchesWithItsKeyAndSelectIsOffUntilThen() async throws {
    let (page, stack) = app()
    open(.entry, on: page)
    let entry = try #require(stack.topScreen?.entry)
    #expect(page.controlLabels == ["Fetch user"], "Select user is disabled: no focus, no key")
    page.press(.character("s"))
    #expect(stack.topScreen?.entry != nil)
    page.press(.character("f"))
    try await page.waitUntil("a user") { entry.userName.value != nil }
    #expect(page.controlLabels == ["Fetch user", "Select user"])
    try page.press("Select user")
    #expect(stack.topScreen?.greeting != nil)
  }

  /// The greeting screen, reached by keys: the entry fetches a user (`f`) and selects it (`s`).
  private func greetingOfAFetchedUser() async throws -> (TerminalTestPage, GreetingViewModel) {
    let (page, stack) = app(width: 80, height: 20)
    open(.entry, on: page)
    let entry = try #require(stack.topScreen?.entry)
    page.press(.character("f"))
    try await page.waitUntil("a user") { entry.userName.value != nil }
    page.press(.character("s"))
    return (page, try #require(stack.topScreen?.greeting))
  }

  @Test func greetingOpensTheSalutationSheetAndItsChoiceComesBack() async throws {
    let (page, greeting) = try await greetingOfAFetchedUser()
    try page.press("Change salutation")
    #expect(page.shows("╭─ Salutation ") && page.focusedLabel == "Salutations")
    page.press(.end, .enter)
    #expect(!page.shows("Esc close"))
    #expect(greeting.greeting.value.hasPrefix("Howdy"))
  }

  @Test func salutationPickerClosesWithEscapeAndChoosesNothing() async throws {
    let (page, greeting) = try await greetingOfAFetchedUser()
    let before = greeting.greeting.value
    page.press(.character("c"))
    #expect(page.shows("Hello ✓"))
    page.press(.down, .escape)
    #expect(!page.shows("Esc close") && greeting.greeting.value == before)
    #expect(page.shows("Change salutation"), "Escape closed the sheet and popped nothing")
  }

  @Test func todosAreAddedToggledEditedAndFilteredByKeys() async throws {
    let (page, stack) = app()
    open(.todos, on: page)
    let todos = try #require(stack.topScreen?.todos)
    #expect(page.focusedLabel == "New todo")
    page.type("Buy milk")
    page.press(.enter)
    page.paste("Walk\nthe dog")
    page.press(.enter)
    try await page.waitUntil("two items") { todos.rows.count == 2 }
    #expect(page.shows("2 items left"))
    page.press(.tab)
    #expect(page.focusedLabel == "Todos" && page.shows("› [ ] Buy milk"))
    page.press(.character(" "))
    #expect(todos.rows[0].completed && page.shows("[x] Buy milk"))
    page.press(.character("e"))
    #expect(page.focusedLabel == "Edit todo")
    page.press(.control("u"))
    page.type("Buy oat milk")
    page.press(.enter)
    #expect(page.shows("[x] Buy oat milk") && page.focusedLabel == "Todos")
    page.press(.character("2"))
    #expect(page.shows("[2 Active]") && !page.shows("Buy oat milk"))
  }
}
