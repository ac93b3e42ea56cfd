import Testing
import Tether
import TetherFlow

@_spi(HandBuilt) @testable import TetherWeb

/// A one-screen form: a title field that trims and clears on submit, and a checkbox.
@MainActor
final class NoteForm {
  let title = MutableProperty("")
  let urgent = MutableProperty(false)
  var saved: [String] = []
  var cancelled = 0
  var opened = 0

  func submitted() {
    let text = title.value.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { return }
    saved.append(text)
    title.value = ""
  }
}

/// Its view: the field views are made once, with the view, so each keeps its binding.
@MainActor
final class NoteFormView: WebView {
  let form: NoteForm
  let title: TextField
  let urgent: Checkbox

  init(form: NoteForm) {
    self.form = form
    title = TextField(
      form.title, placeholder: "Title", className: "title",
      onSubmit: { [form] in form.submitted() }, onCancel: { [form] in form.cancelled += 1 })
    urgent = Checkbox(form.urgent, label: "Urgent")
  }

  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    let heading = "\(id).heading"
    context.onDoubleClick(heading) { [form] in form.opened += 1 }
    return .element(
      "div", id: id, [],
      [
        .element("h2", id: heading, [("data-dblclick", "")], [.text("Notes: \(form.saved.count)")]),
        title.render(id: "\(id).title", in: context),
        urgent.render(id: "\(id).urgent", in: context),
      ])
  }
}

@MainActor
@Suite struct WebInputTests {
  private func session(_ form: NoteForm) -> (ScreenStack<NoteForm>, WebSession) {
    let stack = ScreenStack<NoteForm>()
    stack.setRoot(Screen(form, title: "Notes"))
    let session = WebSession(
      id: "s", stack: stack, appTitle: "Notes", open: { _ in },
      makeWebView: { screen in NoteFormView(form: screen.destination) })
    return (stack, session)
  }

  @Test func everyNewMessageDecodesAndReencodes() throws {
    let messages: [ClientMessage] = [
      .input(id: "s1.title", value: "Buy <milk> \"now\" 日本\n", sequence: 7),
      .check(id: "s1.urgent", checked: true, sequence: 1),
      .submit(id: "s1.title"), .cancel(id: "s1.title"), .focus(id: "s1.title"),
      .blur(id: "s1.title"), .doubleClick(id: "s1.heading"),
    ]
    for message in messages {
      #expect(try ClientMessage(decoding: message.json) == message)
    }
    for bad in [
      #"{"type":"input","id":"a","seq":1}"#, #"{"type":"input","id":"a","value":"x"}"#,
      #"{"type":"input","id":"a","value":"x","seq":0}"#, #"{"type":"check","id":"a","seq":1}"#,
      #"{"type":"submit"}"#, #"{"type":"dblclick","id":""}"#,
      #"{"type":"input","id":"a","value":"x","seq":1e40}"#,
    ] {
      #expect(throws: WebSessionError.self, "\(bad)") { try ClientMessage(decoding: bad) }
    }
  }

  @Test func typingSetsTheModelAndNothingComesBack() async {
    let form = NoteForm()
    let (_, session) = session(form)
    let page = session.document(script: "/t.js", style: "/t.css")
    #expect(page.contains(#"<input id="s1.title" type="text" class="title" placeholder="Title""#))
    var sent: [String] = []
    session.attach { sent.append($0) }
    for (index, text) in ["B", "Bu", "Buy"].enumerated() {
      let refused = await session.receive(
        ClientMessage.input(id: "s1.title", value: text, sequence: index + 1).json)
      #expect(refused == nil)
    }
    #expect(form.title.value == "Buy")
    #expect(sent.isEmpty, "no echo of the person's own typing: \(sent)")
  }

  @Test func aTrimAndAClearAfterSubmitReachTheFieldWithTheEditTheyFollow() async throws {
    let form = NoteForm()
    let (_, session) = session(form)
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(ClientMessage.input(id: "s1.title", value: " Milk ", sequence: 1).json)
    await session.receive(ClientMessage.submit(id: "s1.title").json)
    #expect(form.saved == ["Milk"])
    let cleared = try #require(sent.last)
    #expect(cleared.contains(#"["v","s1.title","",1]"#), "cleared, after edit 1: \(cleared)")
    #expect(cleared.contains("Notes: 1"))
    #expect(!cleared.contains(#"["a","s1.title","value""#), "the value is never an attribute patch")
  }

  @Test func aLateEditIsIgnoredAndTheFieldIsToldTheModelsText() async throws {
    let form = NoteForm()
    let (_, session) = session(form)
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(ClientMessage.input(id: "s1.title", value: "abc", sequence: 3).json)
    await session.receive(ClientMessage.input(id: "s1.title", value: "a", sequence: 1).json)
    #expect(form.title.value == "abc", "an older edit arriving late does not win")
    // The page is told the model's text, with edit 3: a page at edit 3 or less shows it.
    #expect(sent.last?.contains(#"["v","s1.title","abc",3]"#) == true)
  }

  @Test func aCheckboxTickSetsTheFlagAndAModelChangeTicksThePage() async throws {
    let form = NoteForm()
    let (_, session) = session(form)
    _ = session.document(script: "/t.js", style: "/t.css")
    var sent: [String] = []
    session.attach { sent.append($0) }
    await session.receive(ClientMessage.check(id: "s1.urgent", checked: true, sequence: 1).json)
    #expect(form.urgent.value && sent.isEmpty)
    form.urgent.value = false
    await session.receive(ClientMessage.focus(id: "s1.title").json)
    #expect(sent.last?.contains(#"["v","s1.urgent",false,1]"#) == true)
  }

  @Test func escapeDoubleClickAndUnknownFields() async {
    let form = NoteForm()
    let (_, session) = session(form)
    _ = session.document(script: "/t.js", style: "/t.css")
    session.attach { _ in }
    await session.receive(ClientMessage.cancel(id: "s1.title").json)
    await session.receive(ClientMessage.doubleClick(id: "s1.heading").json)
    #expect(form.cancelled == 1 && form.opened == 1)
    let refused = await session.receive(
      ClientMessage.input(id: "s1.nothing", value: "x", sequence: 1).json)
    #expect(refused == .noHandler(id: "s1.nothing"))
  }

  @Test func noFieldTakesInputBehindAnAlert() async {
    let form = NoteForm()
    let (stack, session) = session(form)
    _ = session.document(script: "/t.js", style: "/t.css")
    session.attach { _ in }
    stack.present(ScreenAlert(title: "Wait", message: "M"))
    let refused = await session.receive(
      ClientMessage.input(id: "s1.title", value: "x", sequence: 1).json)
    #expect(refused == .behindModal(id: "s1.title"))
    #expect(form.title.value == "")
    let submit = await session.receive(ClientMessage.submit(id: "s1.title").json)
    #expect(submit == .behindModal(id: "s1.title"))
  }
}
