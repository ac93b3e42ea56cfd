import Testing
import Tether
import TetherFlow

@testable import TetherWeb
@testable import TetherWebTesting

/// A stack of numbered screens: each pushes the next.
@MainActor
final class CountingFlow: FlowController {
  weak var navigator: (any Navigator<Int>)?
  func start(on navigator: any Navigator<Int>) -> Screen<Int> {
    self.navigator = navigator
    return Screen(1, title: "One", owner: self)
  }
  func push(after number: Int) {
    navigator?.push(Screen(number + 1, title: "Screen \(number + 1)", owner: self))
  }
}

@MainActor
struct CountingScreen: WebScreen {
  let number: Int
  let flow: CountingFlow
  var body: Markup<WebCall> {
    button("Next").onClick { flow.push(after: number) }
  }
}

/// An app's own title bar and alert around its screens: the markup is the app's, the rules
/// (Back through the browser's history, the alert's buttons and focus) the library's.
@MainActor
struct PageChromeTests {
  private static let chrome = WebPageChrome(
    bar: { bar in
      nav(.class("brand")) {
        if bar.canGoBack { backButton("Back") }
        a(.href(trusted: "/")) { bar.appTitle }
        pageTitle(bar.title)
      }
    },
    alert: { alert in
      div(.class("my-alert")) {
        strong { alert.title }
        ForEach(alert.buttons, id: \.index) { button in alertButton(button) }
      }
    })

  @Test func theAppsBarShowsTheTitleAndBackOnlyWhenThereIsSomewhereToGo() async throws {
    let flow = CountingFlow()
    let app = WebApp(title: "Counting", rootFlow: { flow }) {
      CountingScreen(number: $0.destination, flow: flow)
    }
    .chrome(Self.chrome)
    let page = try await WebTestPage(app: app)
    defer { page.close() }
    #expect(try page.text("header nav.brand a") == "Counting")
    #expect(try page.text("header h1#title") == "One")
    #expect(try !page.has("#back"))
    try await page.click(named: "Next")
    #expect(try page.text("h1#title") == "Screen 2")
    #expect(try page.element("nav.brand button#back")[attribute: "data-back"] == "")
    #expect(try page.text("nav.brand button#back") == "Back")
  }

  @Test func theAppsAlertAnswersWithTheRulesButtonsAndFocus() async throws {
    let app = WebApp(title: "Books", rootFlow: { ShelfFlow() }) { ShelfScreen($0.destination) }
      .chrome(Self.chrome)
    let page = try await WebTestPage(app: app)
    defer { page.close() }
    try await page.click(named: "Archive…")
    #expect(try page.text("dialog#alert .my-alert strong") == "Archive the shelf?")
    #expect(try page.element("dialog#alert")[attribute: "aria-label"] == "Archive the shelf?")
    #expect(try page.texts("dialog#alert button") == ["Cancel", "Archive"])
    #expect(try page.text("dialog#alert button.destructive") == "Archive")
    // The rules put the keyboard on the cancel button, never on the destructive one.
    #expect(page.focusedID == "alert.b0")
    #expect(try page.has("main[inert]"), "the screen behind is inert")
    try await page.click(named: "Archive", within: "dialog")
    #expect(try page.text(".status") == "Archived")
    #expect(try !page.has("dialog#alert[open]"))
  }

  @Test func withoutAChromeThePageKeepsTheLibrarysBarAndAlert() async throws {
    let app = WebApp(title: "Books", rootFlow: { ShelfFlow() }) { ShelfScreen($0.destination) }
    let page = try await WebTestPage(app: app)
    defer { page.close() }
    #expect(try page.text("header h1#title") == "Shelf")
    try await page.click(named: "Archive…")
    #expect(try page.text("dialog#alert h2") == "Archive the shelf?")
    #expect(try page.element("dialog#alert")[attribute: "aria-labelledby"] == "alert.title")
    #expect(try page.texts("dialog#alert .buttons button") == ["Cancel", "Archive"])
  }
}
