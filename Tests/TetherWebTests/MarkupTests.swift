import Testing
import Tether
import TetherFlow
import TetherTesting
import TetherWebTesting

@_spi(HandBuilt) @testable import TetherWeb

/// The counter of ``WebScreen``'s documentation, as written there.
@MainActor
final class CounterViewModel {
  @Output private(set) var count = 0
  func increment() { count += 1 }
}

@MainActor
final class CounterScreen: WebScreen {
  enum Action { case increment }
  let model: CounterViewModel
  init(_ model: CounterViewModel) { self.model = model }

  var body: Markup<Action> {
    vstack {
      p { "Count: \(model.count)" }
      button("Add one").onClick(.increment)
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .increment: model.increment()
    }
  }
}

@MainActor
final class CounterFlow: FlowController {
  func start(on navigator: any Navigator<CounterViewModel>) -> Screen<CounterViewModel> {
    Screen(CounterViewModel(), title: "Counter", owner: self)
  }
}

/// A form with every control: a title, a flag, rows that come and go, a section shown by a
/// condition.
@MainActor
final class FormModel {
  struct Row: Identifiable, Hashable {
    var id: Int
    var name: String
  }

  let title = MutableProperty("")
  let isUrgent = MutableProperty(false)
  @Output var rows: [Row] = [Row(id: 1, name: "One"), Row(id: 2, name: "Two")]
  @Output var showsNote = false
  @Output var saved: [String] = []
  @Output var done: Set<Int> = []
}

@MainActor
final class FormScreen: WebScreen {
  enum Action: Equatable {
    case save, remove(id: Int), setDone(id: Int, Bool), edit(id: Int)
  }

  let model: FormModel
  private(set) var handled: [(Action, WebGesture?)] = []
  init(_ model: FormModel) { self.model = model }

  var body: Markup<Action> {
    section(.class("form")) {
      if model.showsNote {
        p(.class("note")) { "A note" }
      }
      textField(model.title, placeholder: "Title", label: "Title", .class("title"))
        .onSubmit(.save)
      checkbox(model.isUrgent, label: "Urgent", .class("urgent"))
      ul(.class("rows")) {
        ForEach(model.rows) { row in
          li(.class("done", when: model.done.contains(row.id))) {
            checkbox(model.done.contains(row.id), label: "Done \(row.name)")
              .onChange { .setDone(id: row.id, $0) }
            span(.class("name")) { row.name }.onDoubleClick(.edit(id: row.id))
            button("Remove", .class("remove")).onClick(.remove(id: row.id))
          }
        }
      }
      button("Save", .class("save"), .disabled(model.title.value.isEmpty)).onClick(.save)
    }
  }

  func handle(_ action: Action) {
    handled.append((action, WebGesture.current))
    switch action {
    case .save:
      model.saved.append(model.title.value)
      model.title.value = ""
    case .remove(let id): model.rows.removeAll { $0.id == id }
    case .setDone(let id, let isDone):
      if isDone { model.done.insert(id) } else { model.done.remove(id) }
    case .edit: break
    }
  }
}

@MainActor
final class FormFlow: FlowController {
  let model = FormModel()
  var screen: FormScreen?
  func start(on navigator: any Navigator<FormModel>) -> Screen<FormModel> {
    Screen(model, title: "Form", owner: self)
  }
}

/// A note with a text area.
@MainActor
final class NoteModel {
  let text = MutableProperty("")
}

@MainActor
final class NoteScreen: WebScreen {
  enum Action { case clear }
  let model: NoteModel
  init(_ model: NoteModel) { self.model = model }

  var body: Markup<Action> {
    vstack {
      textArea(model.text, label: "Note", rows: 4, .class("note")).onCancel(.clear)
    }
  }

  func handle(_ action: Action) {
    model.text.value = ""
  }
}

@MainActor
final class NoteFlow: FlowController {
  let model = NoteModel()
  func start(on navigator: any Navigator<NoteModel>) -> Screen<NoteModel> {
    Screen(model, title: "Note", owner: self)
  }
}

@MainActor
@Suite struct MarkupTests {
  /// The fields' bindings, kept from render to render as a session keeps them.
  private let store = MarkupStore()

  private func render(_ screen: some WebScreen, id: String = "s1") -> (HTMLNode, WebRenderContext) {
    let context = WebRenderContext(store: store)
    return (MountedScreen(screen, viewModels: []).render(id: id, in: context), context)
  }

  @Test func idsComeFromStructureAndAConditionShiftsNoOtherId() throws {
    let model = FormModel()
    let screen = FormScreen(model)
    let (before, _) = render(screen)
    model.showsNote = true
    let (after, _) = render(screen)
    let fieldBefore = try #require(before.select("input.title").first)
    let fieldAfter = try #require(after.select("input.title").first)
    #expect(fieldBefore.id == fieldAfter.id, "the field keeps its id when the note appears")
    #expect(try after.select("p.note").first?.id == "s1.0a.0")
    #expect(before.id == "s1", "a single root element takes the container's id")
    // Only the note is new: the diff inserts nothing else.
    let patches = HTMLPatch.diff(from: before, to: after)
    #expect(patches.count == 1, "\(patches)")
  }

  @Test func aRowKeepsItsIdWhenARowBeforeItComesOrGoes() throws {
    let model = FormModel()
    let screen = FormScreen(model)
    let (before, _) = render(screen)
    let two = try #require(before.select("ul.rows li").last)
    model.rows.insert(FormModel.Row(id: 0, name: "Zero"), at: 0)
    let (after, _) = render(screen)
    #expect(try after.select("ul.rows li").map(\.id).last == two.id)
    #expect(two.id.hasSuffix(".\(HTMLNode.keySegment("2"))"))
    #expect(
      HTMLPatch.diff(from: before, to: after).allSatisfy {
        if case .insert = $0 { true } else { false }
      }, "a row added is inserted, the others kept")
  }

  @Test func gesturesSendTheActionsRenderedWithThem() async throws {
    let flow = FormFlow()
    let app = WebApp(title: "Form", rootFlow: { flow }) { screen in
      let view = FormScreen(screen.destination)
      flow.screen = view
      return view
    }
    let page = try await WebTestPage(app: app, path: "/")
    defer { page.close() }
    let screen = try #require(flow.screen)

    try await page.click("li:nth-of-type(2) button.remove")
    #expect(screen.handled.map(\.0) == [.remove(id: 2)])
    #expect(try page.texts("ul.rows li .name") == ["One"])

    try await page.doubleClick(".name")
    #expect(screen.handled.last?.0 == .edit(id: 1))
    #expect(try page.element(".name")[attribute: "data-dblclick"] != nil)

    let renders = page.session.renders
    try await page.check("li input[type=checkbox]")
    #expect(screen.handled.last?.0 == .setDone(id: 1, true))
    #expect(try page.has("li.done"))
    await page.settle()
    #expect(page.session.renders == renders + 1, "one change, one render")
    // Each action is handled inside its gesture, numbered as the page numbered it.
    #expect(screen.handled.compactMap(\.1?.id).count == 3)
    #expect(Set(screen.handled.compactMap(\.1?.id)).count == 3)
  }

  @Test func aTextFieldIsBoundWithNoEchoAndTheModelsChangeReachesThePage() async throws {
    let flow = FormFlow()
    let app = WebApp(title: "Form", rootFlow: { flow }) { FormScreen($0.destination) }
    let page = try await WebTestPage(app: app, path: "/")
    defer { page.close() }

    #expect(try page.element("button.save")[attribute: "disabled"] != nil)
    let before = page.sent.count
    try await page.type("Milk", into: "input.title")
    #expect(flow.model.title.value == "Milk")
    #expect(try page.value("input.title") == "Milk")
    let echo = page.sent[before...].joined()
    #expect(!echo.contains(#""v""#), "what was typed is not sent back: \(echo)")
    #expect(try page.element("button.save")[attribute: "disabled"] == nil)

    try await page.submit("input.title")
    #expect(flow.model.saved == ["Milk"])
    #expect(try page.value("input.title") == "", "the model cleared the field")
    #expect(page.sent.last?.contains(#"["v""#) == true, "sent as a field value")

    try await page.check("input.urgent")
    #expect(flow.model.isUrgent.value)
  }

  @Test func aTextAreaIsBoundLikeAFieldAndKeepsItsLines() async throws {
    let flow = NoteFlow()
    let app = WebApp(title: "Note", rootFlow: { flow }) { NoteScreen($0.destination) }
    let page = try await WebTestPage(app: app, path: "/")
    defer { page.close() }
    let area = try page.element("textarea.note")
    #expect(area[attribute: "rows"] == "4" && area[attribute: "value"] == nil)
    let before = page.sent.count
    try await page.type("line 1\nline 2", into: "textarea.note")
    #expect(flow.model.text.value == "line 1\nline 2")
    #expect(try page.value("textarea.note") == "line 1\nline 2")
    #expect(page.sent.count == before, "what was typed is not sent back")
    // The model's own change reaches the page as a value, after the edit it follows.
    flow.model.text.value = "\nafter a blank line"
    await flushObservations()
    #expect(page.sent.last?.contains(#"["v","\#(area.id)","\nafter a blank line",1]"#) == true)
    // Written whole, a leading newline survives the parser's rule for text areas.
    #expect(page.session.render().html.contains(">\n\nafter a blank line</textarea>"))
    try await page.cancel("textarea.note")
    #expect(flow.model.text.value == "")
  }

  @Test func aPickerIsBoundLikeAFieldAndTakesOnlyItsOptions() async throws {
    let flow = PickerFlow()
    let app = WebApp(title: "Picker", rootFlow: { flow }) { PickerScreen($0.destination) }
    let page = try await WebTestPage(app: app, path: "/")
    defer { page.close() }
    let picker = try page.element("select.size")
    #expect(picker[attribute: "aria-label"] == "Size")
    #expect(try page.texts("select.size option") == ["Small", "Medium", "Large"])
    #expect(picker[attribute: "value"] == "1")
    #expect(try page.element("select.size option[selected]")[attribute: "value"] == "1")
    let before = page.sent.count
    try await page.choose("Large", in: "select.size")
    #expect(flow.model.size.value == .large)
    #expect(
      page.sent.dropFirst(before).allSatisfy { !$0.contains(picker.id) },
      "the choice is not sent back: \(page.sent.dropFirst(before))")
    #expect(try page.element("select.size option[selected]")[attribute: "value"] == "2")
    // The model's own change reaches the page as a value, after the choice it follows.
    flow.model.size.value = .small
    await flushObservations()
    #expect(page.sent.last?.contains(#"["v","\#(picker.id)","0",1]"#) == true)
    // A position that is no option's — from a page that sends one anyway — changes nothing.
    for value in ["3", "-1", "x", "", "99999999999999999999999", "1.5", "\u{0661}"] {
      _ = await page.session.receive(
        ClientMessage.input(id: picker.id, value: value, sequence: 9).json)
      #expect(flow.model.size.value == .small, "\(value)")
    }
  }

  @Test func aDisabledControlTakesNoGesture() async throws {
    let flow = FormFlow()
    let app = WebApp(title: "Form", rootFlow: { flow }) { FormScreen($0.destination) }
    let page = try await WebTestPage(app: app, path: "/")
    defer { page.close() }
    let save = try page.element("button.save")
    #expect(save[attribute: "disabled"] != nil)
    // A page that sends the click anyway (a browser would not) is refused.
    let refusal = await page.session.receive(ClientMessage.click(id: save.id).json)
    #expect(refusal == .noHandler(id: save.id))
    #expect(flow.model.saved.isEmpty)
    // Enabled, the same button saves.
    try await page.type("Milk", into: "input.title")
    try await page.click("button.save")
    #expect(flow.model.saved == ["Milk"])
  }

  @Test func attributesAreTypedAndTheLibrarysOwnCannotBeWritten() {
    let markup: Markup<Never> = div(
      .class("a"), .class("b", when: true), .class("c", when: false), .hidden(false),
      .attribute("id", "mine"), .attribute("onclick", "alert(1)"), .attribute("value", "x"),
      .attribute("data-ack", "9"), .data("kind", "x"), .ariaLabel("Box")
    ) { "text" }
    let node = markup.render(id: "m", in: WebRenderContext()) { _ in }
    #expect(node.html == #"<div id="m" class="a b" data-kind="x" aria-label="Box">text</div>"#)
  }

  /// An address from data (a profile's website, an API's link) cannot run script: a URL
  /// attribute whose scheme is not navigational is left out unless the app trusts it.
  @Test(arguments: [
    "javascript:alert(1)", "JavaScript:alert(1)", " \u{1}javascript:alert(1)",
    "java\tscript:alert(1)", "jav\nascript:alert(1)", "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>", "file:///etc/passwd",
  ])
  func aURLThatIsNotNavigationalIsLeftOut(url: String) {
    let context = WebRenderContext()
    let link: Markup<Never> = a(.href(url)) { "Site" }
    #expect(link.render(id: "l", in: context) { _ in }.html == #"<a id="l">Site</a>"#)
    let any: Markup<Never> = div(.attribute("action", url)) { "" }
    #expect(!any.render(id: "f", in: context) { _ in }.html.contains("action"))
    let image: Markup<Never> = img(.src(url), .alt("x"))
    #expect(!image.render(id: "i", in: context) { _ in }.html.contains("src"))
  }

  @Test(arguments: [
    "https://example.com/a?b#c", "http://example.com", "mailto:a@example.com", "tel:+1555",
    "/todos/active", "?q=1", "#top", "page/2", "../up", "//example.com/x",
  ])
  func aNavigationalURLIsWrittenAsGiven(url: String) {
    let link: Markup<Never> = a(.href(url)) { "Go" }
    let html = link.render(id: "l", in: WebRenderContext()) { _ in }.html
    #expect(html.contains(#"href=""#), "\(url): \(html)")
  }

  @Test func anInlineImageAndATrustedAddressAreWritten() {
    let context = WebRenderContext()
    let image: Markup<Never> = img(.src("data:image/png;base64,AAAA"), .alt("dot"))
    #expect(image.render(id: "i", in: context) { _ in }.html.contains("src="))
    let notImage: Markup<Never> = a(.href("data:image/png;base64,AAAA")) { "x" }
    #expect(!notImage.render(id: "a", in: context) { _ in }.html.contains("href"))
    let trusted: Markup<Never> = a(.href(trusted: "javascript:void(0)")) { "x" }
    #expect(trusted.render(id: "t", in: context) { _ in }.html.contains("javascript:void(0)"))
  }

  @Test func theCounterOfTheDocumentationCounts() async throws {
    let app = WebApp(title: "Counter", rootFlow: { CounterFlow() }) {
      CounterScreen($0.destination)
    }
    let page = try await WebTestPage(app: app)
    defer { page.close() }
    #expect(try page.text(".vstack p") == "Count: 0")
    try await page.click(named: "Add one")
    try await page.click("button")
    #expect(try page.text(".vstack p") == "Count: 2")
    // A screen named as its app is not named twice.
    #expect(page.title == "Counter")
  }

  @Test func aSelectorReadsWhatPageTestsUse() throws {
    let tree = HTMLNode.element(
      "div", id: "app", [],
      [
        .element(
          "ul", id: "l", [("class", "list main")],
          [
            .element("li", id: "a", [("class", "done")], [.text("A")]),
            .element("li", id: "b", [], [.text("B")]),
            .element(
              "li", id: "c", [("hidden", "")],
              [.element("input", id: "i", [("type", "checkbox"), ("checked", "")])]),
          ]),
        .element("p", id: "p", [], [.text("P")]),
      ])
    func ids(_ selector: String) throws -> [String] { try tree.select(selector).map(\.id) }
    #expect(try ids("li") == ["a", "b", "c"])
    #expect(try ids("ul.list li.done") == ["a"])
    #expect(try ids(".main > li:not(.done)") == ["b", "c"])
    #expect(try ids("li:nth-of-type(2), p") == ["b", "p"])
    #expect(try ids("li:last-of-type") == ["c"])
    #expect(try ids("[hidden] input[type=checkbox]:checked") == ["i"])
    #expect(try ids("#l > li[hidden]") == ["c"])
    #expect(try ids("div > li").isEmpty)
    #expect(throws: HTMLSelector.ParseError.self) { try tree.select("li::before") }
    #expect(throws: HTMLSelector.ParseError.self) { try tree.select("li[") }
  }
}

@MainActor
final class PickerModel {
  enum Size: String, CaseIterable { case small, medium, large }
  let size = MutableProperty(Size.medium)
}

@MainActor
final class PickerFlow: FlowController {
  let model = PickerModel()
  func start(on navigator: any Navigator<PickerModel>) -> Screen<PickerModel> {
    Screen(model, title: "Picker", owner: self)
  }
}

@MainActor
final class PickerScreen: WebScreen {
  let model: PickerModel
  init(_ model: PickerModel) { self.model = model }

  var body: Markup<Never> {
    picker(model.size, options: PickerModel.Size.allCases, label: "Size", .class("size")) {
      $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst()
    }
  }
}

@MainActor
final class MenuModel {
  struct Row: Identifiable, Equatable {
    var id: Int
    var title: String
    var detail: String
  }

  @Output var rows = [
    Row(id: 10, title: "Soup", detail: "Hot"), Row(id: 20, title: "Bread", detail: "Fresh"),
    Row(id: 30, title: "Tea", detail: "Green"),
  ]
  @Output var chosen: [Int] = []
}

@MainActor
final class MenuFlow: FlowController {
  let model = MenuModel()
  func start(on navigator: any Navigator<MenuModel>) -> Screen<MenuModel> {
    Screen(model, title: "Menu", owner: self)
  }
}

/// A markup screen around a list: the list keeps its selection, and the session finds it while
/// rendering to hand it the keys and carry its selection.
@MainActor
final class MenuScreen: WebScreen {
  enum Action { case choose(Int) }
  let model: MenuModel
  init(_ model: MenuModel) { self.model = model }

  var body: Markup<Action> {
    vstack {
      p(.class("dim")) { "Choose one" }
      list(model.rows, onChoose: { .choose($0) }) { row in
        span(.class("title")) { row.title }
        span(.class("detail")) { row.detail }
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .choose(let index): model.chosen.append(model.rows[index].id)
    }
  }
}

@MainActor
@Suite struct MarkupListTests {
  @Test func aListsRowsAreMarkupAndTheScreenHandsItTheKeys() async throws {
    let flow = MenuFlow()
    let app = WebApp(title: "Menu", rootFlow: { flow }) { MenuScreen($0.destination) }
    let page = try await WebTestPage(app: app)
    defer { page.close() }
    #expect(try page.texts("[role=option] .title") == ["Soup", "Bread", "Tea"])
    #expect(try page.texts("[role=option] .detail") == ["Hot", "Fresh", "Green"])
    // Each span is named under its row, by the row's key.
    let spans = try page.elements("[role=option] span").map(\.id)
    #expect(Set(spans).count == 6)
    #expect(spans.allSatisfy { $0.contains(".r") })
    #expect(try page.text("[aria-selected=true] .title") == "Soup")
    try await page.press(.arrowDown)
    #expect(try page.text("[aria-selected=true] .title") == "Bread")
    try await page.press(.enter)
    #expect(flow.model.chosen == [20])
    // A click on a row's text chooses the row.
    try await page.click("[role=option]:last-of-type")
    #expect(flow.model.chosen == [20, 30])
  }

  @Test func aMarkupScreenKeepsItsListsSelectionForAResume() throws {
    let model = MenuModel()
    let store = MarkupStore()
    let mounted = MountedScreen(MenuScreen(model), viewModels: [model])
    _ = mounted.render(id: "s1", in: WebRenderContext(store: store))
    #expect(mounted.handle(key: .arrowDown))
    let key = try #require(mounted.restorationKey)
    #expect(key.contains("20"), "\(key)")
    // A screen built afresh, on another server, selects the same row when it is drawn.
    let rebuilt = MountedScreen(MenuScreen(model), viewModels: [model])
    rebuilt.restore(key)
    let tree = rebuilt.render(id: "s1", in: WebRenderContext(store: MarkupStore()))
    let selected = try tree.select("[aria-selected=true] .title").first
    #expect(selected.map { HTMLNode.element($0).visibleText } == "Bread")
    // A key this server cannot read restores nothing.
    let other = MountedScreen(MenuScreen(model), viewModels: [model])
    other.restore("0:30")
    let fresh = other.render(id: "s1", in: WebRenderContext(store: MarkupStore()))
    #expect(
      try fresh.select("[aria-selected=true] .title").first.map {
        HTMLNode.element($0).visibleText
      } == "Soup")
    // Keys the list does not take are not the screen's either.
    #expect(!rebuilt.handle(key: .escape))
  }
}

@MainActor
final class RadioScreen: WebScreen {
  let model: PickerModel
  init(_ model: PickerModel) { self.model = model }

  var body: Markup<Never> {
    radioGroup(model.size, options: PickerModel.Size.allCases, label: "Size", .class("size")) {
      $0.rawValue.capitalized
    }
  }
}

@MainActor
@Suite struct RadioGroupTests {
  @Test func aRadioGroupIsBoundLikeAPickerAndTakesOnlyItsOptions() async throws {
    let flow = PickerFlow()
    let app = WebApp(title: "Radio", rootFlow: { flow }) { RadioScreen($0.destination) }
    let page = try await WebTestPage(app: app, path: "/")
    defer { page.close() }
    let group = try page.element("fieldset.size")
    #expect(group[attribute: "role"] == "radiogroup")
    #expect(try page.text("fieldset.size legend") == "Size")
    #expect(try page.texts("fieldset.size label") == ["Small", "Medium", "Large"])
    let radios = try page.elements("fieldset.size input[type=radio]")
    #expect(radios.allSatisfy { $0[attribute: "name"] == group.id })
    #expect(try page.element("fieldset.size input:checked")[attribute: "value"] == "1")
    let before = page.sent.count
    try await page.choose("Large", in: "fieldset.size")
    #expect(flow.model.size.value == .large)
    #expect(
      page.sent.dropFirst(before).allSatisfy { !$0.contains(group.id) },
      "the choice is not sent back: \(page.sent.dropFirst(before))")
    #expect(
      try page.elements("fieldset.size input:checked").map { $0[attribute: "value"] } == ["2"])
    // The model's own change reaches the page as the radios' checked values, acknowledging the
    // choice it follows.
    flow.model.size.value = .small
    await flushObservations()
    let patches = try #require(page.sent.last)
    #expect(patches.contains(#"["v","\#(radios[0].id)",true,1]"#), "\(patches)")
    #expect(patches.contains(#"["v","\#(radios[2].id)",false,1]"#), "\(patches)")
    // A position that is no option's, or a message naming a radio instead of its group,
    // changes nothing.
    for value in ["3", "-1", "x", "", "99999999999999999999999", "1.5", "\u{0661}"] {
      _ = await page.session.receive(
        ClientMessage.input(id: group.id, value: value, sequence: 9).json)
      #expect(flow.model.size.value == .small, "\(value)")
    }
    _ = await page.session.receive(
      ClientMessage.input(id: radios[1].id, value: "1", sequence: 10).json)
    #expect(flow.model.size.value == .small)
  }
}
