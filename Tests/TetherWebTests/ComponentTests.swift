import Testing
import Tether
import TetherFlow
import TetherWebTesting

@_spi(HandBuilt) @testable import TetherWeb

/// A page of many rows, a field, a hint in a component and a row with a component inside its
/// cached content: what a change renders, and what it leaves alone.
@MainActor
final class BoardModel {
  struct Row: Identifiable, Hashable {
    var id: Int
    var name: String
  }

  let draft = MutableProperty("")
  @Output var rows: [Row] = (1...500).map { Row(id: $0, name: "Row \($0)") }
  @Output var hint = "Type a name"
  @Output var badge = 0
  @Output var hintFocused = false
  @Output var added: [String] = []
}

@MainActor
final class BoardScreen: WebScreen {
  enum Action { case add, bump }
  let model: BoardModel
  /// How many times the page's body was built.
  private(set) var bodies = 0
  init(_ model: BoardModel) { self.model = model }

  var body: Markup<Action> {
    bodies += 1
    return section(.class("board")) {
      textField(model.draft, placeholder: "Name", label: "Name", .class("draft")).onSubmit(.add)
      Component {
        p(.class("hint")) { self.model.hint }.focused(self.model.hintFocused)
      }
      ul(.class("rows")) {
        ForEach(model.rows) { row in
          Cached(row) {
            li(.class("row")) {
              span(.class("name")) { row.name }
              Component {
                span(.class("badge")) { "\(self.model.badge)" }
              }
            }
          }
        }
      }
      button("Bump", .class("bump")).onClick(.bump)
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .add:
      model.added.append(model.draft.value)
      model.draft.value = ""
    case .bump: model.badge += 1
    }
  }
}

@MainActor
final class BoardFlow: FlowController {
  let model = BoardModel()
  private(set) var screen: BoardScreen?
  func start(on navigator: any Navigator<BoardModel>) -> Screen<BoardModel> {
    Screen(model, title: "Board", owner: self)
  }
}

@MainActor
@Suite struct ComponentTests {
  private func open() async throws -> (BoardFlow, WebTestPage, () -> BoardScreen?) {
    let flow = BoardFlow()
    var screens: [BoardScreen] = []
    let app = WebApp(title: "Board", rootFlow: { flow }) { screen in
      let view = BoardScreen(screen.destination)
      screens.append(view)
      return view
    }
    let page = try await WebTestPage(app: app, path: "/")
    return (flow, page, { screens.last })
  }

  @Test func aKeystrokeRendersItsFieldAloneAndSendsNothingBack() async throws {
    let (flow, page, screen) = try await open()
    defer { page.close() }
    let bodies = try #require(screen()).bodies
    let renders = page.session.renders
    let sent = page.sent.count

    try await page.type("Ann", into: "input.draft")
    await flushObservations()

    #expect(flow.model.draft.value == "Ann")
    #expect(page.session.renders == renders, "the page was not rendered for a keystroke")
    #expect(try #require(screen()).bodies == bodies, "the body was not built again")
    #expect(page.sent.count == sent, "nothing goes back: \(page.sent[sent...])")
    #expect(try page.value("input.draft") == "Ann")

    // The model's own change still reaches the field, after the edits it follows.
    try await page.submit("input.draft")
    #expect(flow.model.added == ["Ann"])
    #expect(try page.value("input.draft") == "")
    #expect(page.sent.last?.contains(#"["v","#) == true)
  }

  @Test func aLateEditOfAFieldIsAnsweredWithTheModelsText() async throws {
    let (flow, page, _) = try await open()
    defer { page.close() }
    let id = try page.element("input.draft").id
    await page.session.receive(ClientMessage.input(id: id, value: "abc", sequence: 3).json)
    await page.session.receive(ClientMessage.input(id: id, value: "a", sequence: 1).json)
    #expect(flow.model.draft.value == "abc", "an older edit arriving late does not win")
    #expect(page.sent.last?.contains(#"["v","\#(id)","abc",3]"#) == true)
    #expect(try page.value("input.draft") == "abc")
  }

  @Test func aComponentIsRenderedAloneAndTheRestOfThePageIsNotVisited() async throws {
    let (flow, page, screen) = try await open()
    defer { page.close() }
    let bodies = try #require(screen()).bodies
    let renders = page.session.renders
    let sent = page.sent.count
    let hintID = try page.element("p.hint").id

    flow.model.hint = "Names are short"
    await flushObservations()

    #expect(try page.text("p.hint") == "Names are short")
    #expect(page.session.renders == renders)
    #expect(try #require(screen()).bodies == bodies)
    let patches = page.sent[sent...].joined()
    #expect(patches.contains(hintID), "the patch is the hint's: \(patches)")
    #expect(!patches.contains("row"), "no row is in it: \(patches)")

    // A render of the page keeps the component as it is now.
    flow.model.rows.removeLast()
    await flushObservations()
    #expect(page.session.renders == renders + 1)
    #expect(try page.text("p.hint") == "Names are short")
  }

  @Test func aComponentInsideKeptRowsIsNotUndoneByTheNextRenderOfThePage() async throws {
    let (flow, page, _) = try await open()
    defer { page.close() }
    let renders = page.session.renders
    #expect(try page.texts("li.row .badge").allSatisfy { $0 == "0" })

    try await page.click("button.bump")
    #expect(try page.texts("li.row .badge").count == 500)
    #expect(try page.texts("li.row .badge").allSatisfy { $0 == "1" })

    // The rows' kept renders still showed 0: a render of the page must not bring it back.
    flow.model.rows.append(BoardModel.Row(id: 501, name: "Row 501"))
    await flushObservations()
    #expect(page.session.renders > renders)
    let badges = try page.texts("li.row .badge")
    #expect(badges.count == 501)
    #expect(badges.allSatisfy { $0 == "1" }, "every row shows the badge as it is")
    // What the session keeps is what a fresh render shows.
    let fresh = page.session.render()
    #expect(
      fresh.removingAttributes(["data-version"]) == page.tree.removingAttributes(["data-version"]))
  }

  @Test func aComponentThatTakesFocusAloneMovesThePagesFocus() async throws {
    let (flow, page, _) = try await open()
    defer { page.close() }
    let hintID = try page.element("p.hint").id
    #expect(page.focusedID != hintID)

    flow.model.hintFocused = true
    await flushObservations()
    #expect(page.focusedID == hintID)
    #expect(page.sent.last?.contains(#""f":"\#(hintID)""#) == true, "\(page.sent.last ?? "")")
  }

  @Test func aComponentsGesturesAreTheNewestRenders() async throws {
    let (flow, page, _) = try await open()
    defer { page.close() }
    // The draft field is its own component: Enter sends its action after many keystrokes.
    for text in ["A", "An", "Ann"] { try await page.type(text, into: "input.draft") }
    try await page.submit("input.draft")
    #expect(flow.model.added == ["Ann"])
  }
}

/// A row kept by its key that reads the view model beside it: the debug build's check.
@MainActor
final class LeakyRowsScreen: WebScreen {
  let model: BoardModel
  init(_ model: BoardModel) { self.model = model }

  var body: Markup<Never> {
    ul {
      ForEach(model.rows) { row in
        Cached(row) { li { "\(row.name) \(self.model.badge)" } }
      }
    }
  }
}

@MainActor
@Suite(.serialized) struct CachedContentCheckTests {
  @Test func aCachedRowThatReadsBesideItsKeyIsNamedInADebugBuild() throws {
    var messages: [String] = []
    let failure = CachedContentCheck.failure
    CachedContentCheck.failure = { messages.append($0) }
    defer { CachedContentCheck.failure = failure }
    let model = BoardModel()
    let store = MarkupStore()
    var node: HTMLNode?
    let token = observe {
      node = MountedScreen(LeakyRowsScreen(model), viewModels: []).render(
        id: "s1", in: WebRenderContext(store: store))
    }
    defer { token.cancel() }
    #expect(node != nil)
    #if DEBUG
      #expect(messages.count == model.rows.count, "\(messages)")
      #expect(messages.first?.contains("beside its key") == true)
    #else
      #expect(messages.isEmpty, "the check is a debug build's")
    #endif
    // The same rows with the read in a component of their own: nothing to say.
    messages.removeAll()
    let fine = observe {
      _ = MountedScreen(BoardScreen(model), viewModels: []).render(
        id: "s2", in: WebRenderContext(store: store))
    }
    defer { fine.cancel() }
    #expect(messages.isEmpty)
  }
}
