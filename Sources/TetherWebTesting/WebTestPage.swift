import Foundation
import Tether
import TetherFlow
import TetherWeb

/// A page of a `WebApp` mounted in process, driven as a person drives it — click, type,
/// press Enter, tick, go Back — and read as the browser would show it, with no socket and no
/// browser (Phoenix LiveView's `LiveViewTest` is the model).
///
/// The page sends the same messages a browser's client does (numbered gestures, numbered
/// edits), through the session's own rules, so what a test sees is what a browser would be
/// sent. Elements are found by CSS selector (``HTMLSelector``) or by their accessible name.
///
/// ```swift
/// let page = try await WebTestPage(app: app, path: "/todos")
/// try await page.type("Buy milk", into: ".new-todo")
/// try await page.submit(".new-todo")
/// try await page.waitFor(".todo-list li")
/// #expect(try page.text(".todo-list li label") == "Buy milk")
/// ```
@MainActor
public final class WebTestPage {
  /// Why a step of a page test could not be taken.
  public enum Failure: Error, CustomStringConvertible {
    /// The app served no page for the path (a 404 page, or the registry is full).
    case noPage(path: String, reason: String)
    /// No element matches the selector.
    case noElement(String)
    /// The session refused the message (it had no handler for the element, say).
    case refused(WebSessionError)
    /// A condition did not hold in time.
    case timedOut(String)
    /// The selector could not be read.
    case selector(HTMLSelector.ParseError)

    /// What went wrong.
    public var description: String {
      switch self {
      case .noPage(let path, let reason): "no page for \(path): \(reason)"
      case .noElement(let selector): "no element matches \(selector)"
      case .refused(let error): "the session refused the message: \(error)"
      case .timedOut(let what): "timed out waiting for \(what)"
      case .selector(let error): error.description
      }
    }
  }

  /// The registry the page's session lives in.
  public let registry: WebSessionRegistry
  /// The page's session.
  public let session: WebSession
  private var gestures = 0
  private var ownsRegistry = false
  private var edits: [String: Int] = [:]
  /// The messages the session sent the page, oldest first.
  public private(set) var sent: [String] = []

  /// Opens `path` of `app` as a new browser tab: its first loads land (up to
  /// `appearanceWait`) before the page is drawn, as a server serves it.
  ///
  /// - Parameters:
  ///   - app: The app.
  ///   - path: The page's path.
  ///   - client: The browser (its cookie): pages of one client share what the app keeps per
  ///     browser.
  ///   - appearanceWait: How long the first render waits for the screens' first loads.
  /// - Throws: ``Failure/noPage(path:reason:)`` when the app serves no page for `path`.
  public convenience init(
    app: WebApp, path: String = "/", client: WebClient = WebClient(),
    appearanceWait: Duration = .seconds(2)
  ) async throws {
    let registry = WebSessionRegistry(
      app: app, firstRender: .held, appearanceWait: appearanceWait)
    try await self.init(registry: registry, path: path, client: client)
    ownsRegistry = true
  }

  /// Opens `path` as a new tab of `registry` (another tab of the same registry sees what this
  /// one changes in shared data).
  ///
  /// - Throws: ``Failure/noPage(path:reason:)`` when the app serves no page for `path`.
  public init(registry: WebSessionRegistry, path: String = "/", client: WebClient = WebClient())
    async throws
  {
    self.registry = registry
    let page = await registry.page(for: path, client: client)
    guard case .page(_, let id) = page, let session = registry.session(id) else {
      throw Failure.noPage(path: path, reason: "\(page)")
    }
    self.session = session
    _ = registry.attach(id, resync: false) { [weak self] text in self?.sent.append(text) }
  }

  /// Closes the tab's session (and the registry the page made, if it made one).
  public func close() {
    if ownsRegistry { registry.closeAll() } else { session.close() }
  }

  // MARK: Reading

  /// The page's app element as the browser shows it.
  public var tree: HTMLNode { session.pageTree ?? .element("div", id: "app") }

  /// The page's app element's HTML.
  public var html: String { tree.html }

  /// The path the page shows in the address bar.
  public var path: String { session.path }

  /// The page's title.
  public var title: String? { session.sentTitle }

  /// The id of the element the server last focused.
  public var focusedID: String? { session.sentFocus }

  /// Every element matching `selector`, in document order.
  public func elements(_ selector: String) throws -> [HTMLNode.Element] {
    do {
      return try tree.select(selector)
    } catch {
      throw Failure.selector(error)
    }
  }

  /// The first element matching `selector`.
  public func element(_ selector: String) throws -> HTMLNode.Element {
    guard let element = try elements(selector).first else { throw Failure.noElement(selector) }
    return element
  }

  /// Whether an element matches `selector`.
  public func has(_ selector: String) throws -> Bool { try !elements(selector).isEmpty }

  /// The text of the first element matching `selector`, as a reader sees it: its texts in
  /// order, each run of white space one space, trimmed.
  public func text(_ selector: String) throws -> String {
    Self.text(of: try element(selector))
  }

  /// The texts of every element matching `selector`.
  public func texts(_ selector: String) throws -> [String] {
    try elements(selector).map(Self.text(of:))
  }

  static func text(of element: HTMLNode.Element) -> String {
    var raw = ""
    func collect(_ node: HTMLNode) {
      switch node {
      case .text(let text): raw += text
      case .element(let element):
        guard element.tag != "style", element.tag != "script" else { return }
        element.children.forEach(collect)
      }
    }
    collect(.element(element))
    return raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The value a text field shows (or `""`), the first matching `selector`.
  public func value(_ selector: String) throws -> String {
    let field = try element(selector)
    // A text area's text is its content.
    if field.tag == "textarea" { return HTMLNode.element(field).visibleText }
    return field[attribute: "value"] ?? ""
  }

  /// Whether the element is hidden: it, or an element it is in, has `hidden`.
  public func isHidden(_ selector: String) throws -> Bool {
    let target = try element(selector)
    var hidden = false
    func visit(_ node: HTMLNode, inHidden: Bool) -> Bool {
      guard case .element(let element) = node else { return false }
      let here = inHidden || element[attribute: "hidden"] != nil
      if element.id == target.id {
        hidden = here
        return true
      }
      return element.children.contains { visit($0, inHidden: here) }
    }
    _ = visit(tree, inHidden: false)
    return hidden
  }

  /// The first element whose accessible name — its `aria-label`, or its text — is `name`.
  public func element(named name: String) throws -> HTMLNode.Element {
    var found: HTMLNode.Element?
    func visit(_ node: HTMLNode) {
      guard found == nil, case .element(let element) = node else { return }
      if element[attribute: "aria-label"] == name || Self.text(of: element) == name {
        found = element
        return
      }
      element.children.forEach(visit)
    }
    visit(tree)
    guard let found else { throw Failure.noElement("named \(name)") }
    return found
  }

  // MARK: Gestures

  /// Clicks the first element matching `selector` (a button, a link, a row).
  public func click(_ selector: String) async throws {
    try await gesture(.click(id: try element(selector).id))
  }

  /// Clicks the first element whose accessible name is `name`.
  public func click(named name: String) async throws {
    try await gesture(.click(id: try element(named: name).id))
  }

  /// Double-clicks the first element matching `selector`.
  public func doubleClick(_ selector: String) async throws {
    try await gesture(.doubleClick(id: try element(selector).id))
  }

  /// Replaces the text of the field matching `selector` with `text`, as typing does (one
  /// edit; the page's client sends each keystroke's text the same way).
  public func type(_ text: String, into selector: String) async throws {
    let id = try element(selector).id
    let edit = (edits[id] ?? 0) + 1
    edits[id] = edit
    try await send(ClientMessage.input(id: id, value: text, sequence: edit).json)
  }

  /// Chooses the option whose text is `title` in the picker or radio group matching
  /// `selector`, as a person does in its menu or by clicking its radio.
  public func choose(_ title: String, in selector: String) async throws {
    let picker = try element(selector)
    // A picker's options are its `option`s; a radio group's, its labels around a radio.
    let options = picker.children.compactMap { child -> (title: String, value: String?)? in
      guard case .element(let option) = child else { return nil }
      switch option.tag {
      case "option": return (HTMLNode.element(option).visibleText, option[attribute: "value"])
      case "label":
        let radio = option.children.lazy.compactMap { node -> HTMLNode.Element? in
          if case .element(let input) = node, input[attribute: "type"] == "radio" {
            input
          } else {
            nil
          }
        }.first
        return radio.map { (HTMLNode.element(option).visibleText, $0[attribute: "value"]) }
      default: return nil
      }
    }
    guard let option = options.first(where: { $0.title == title }), let position = option.value
    else { throw Failure.noElement("an option \(title) in \(selector)") }
    let edit = (edits[picker.id] ?? 0) + 1
    edits[picker.id] = edit
    try await gesture(.input(id: picker.id, value: position, sequence: edit))
  }

  /// Presses Enter in the field matching `selector`, submitting the text it holds.
  public func submit(_ selector: String) async throws {
    let field = try element(selector)
    if let edit = edits[field.id] {
      // As the client does: Enter says what it submits.
      gestures += 1
      let message: [String: Any] = [
        "type": "submit", "id": field.id, "value": field[attribute: "value"] ?? "", "seq": edit,
        "g": gestures,
      ]
      let data = try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])
      try await send(String(decoding: data, as: UTF8.self))
    } else {
      try await gesture(.submit(id: field.id))
    }
  }

  /// Presses Escape in the field matching `selector`.
  public func cancel(_ selector: String) async throws {
    try await gesture(.cancel(id: try element(selector).id))
  }

  /// Moves focus out of the field matching `selector`.
  public func blur(_ selector: String) async throws {
    try await gesture(.blur(id: try element(selector).id))
  }

  /// Ticks (or unticks) the checkbox matching `selector`, on the version of the value it
  /// shows, as the page's client does.
  public func check(_ selector: String, _ checked: Bool = true) async throws {
    let box = try element(selector)
    let edit = (edits[box.id] ?? 0) + 1
    edits[box.id] = edit
    let version = box[attribute: "data-version"].flatMap { Int($0) }
    try await gesture(.check(id: box.id, checked: checked, sequence: edit, version: version))
  }

  /// Presses a key with no field focused (↑, ↓, Enter, Escape, Home, End).
  public func press(_ key: WebKey) async throws {
    try await gesture(.key(key))
  }

  /// Goes to `path`, as the browser's Back or Forward does.
  public func navigate(to path: String) async throws {
    try await gesture(.navigate(path: path))
  }

  /// Returns once the observations a change has scheduled so far — the page's re-render
  /// among them — have run (``flushObservations()``).
  public func settle() async {
    await flushObservations()
  }

  /// Waits (up to `timeout`) until an element matches `selector`.
  public func waitFor(_ selector: String, timeout: Duration = .seconds(5)) async throws {
    try await waitUntil("an element matching \(selector)", timeout: timeout) {
      try has(selector)
    }
  }

  /// Waits (up to `timeout`) until `condition` holds: for what a view model finishes after the
  /// gesture's round trip (a load, a store's answer).
  public func waitUntil(
    _ what: String, timeout: Duration = .seconds(5), _ condition: () throws -> Bool
  ) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
      if try condition() { return }
      try await clock.sleep(for: .milliseconds(5))
    }
    if try condition() { return }
    throw Failure.timedOut(what)
  }

  private func gesture(_ message: ClientMessage) async throws {
    gestures += 1
    var json = message.json
    json.removeLast()
    try await send(json + #","g":\#(gestures)}"#)
  }

  private func send(_ json: String) async throws {
    if let refusal = await session.receive(json) { throw Failure.refused(refusal) }
  }

}

/// Returns once the main actor's observations scheduled so far have run: a change made now
/// re-runs its own observation in the main actor's next flush, after every run scheduled
/// before it. A positive signal for "the re-render a change caused has happened", where a test
/// would otherwise wait a fixed number of turns.
@MainActor
public func flushObservations() async {
  let marker = MutableProperty(0)
  var runs = 0
  let (flushed, flush) = AsyncStream.makeStream(of: Void.self)
  let token = observe {
    _ = marker.value
    runs += 1
    if runs == 2 { flush.yield() }
  }
  marker.value = 1
  var iterator = flushed.makeAsyncIterator()
  await iterator.next()
  token.cancel()
}
