import Foundation
import Tether
import TetherFlow
import TetherWeb

/// A page of a `WebApp` mounted in process, driven as a person drives it — click, type,
/// press Enter, tick, go Back — and read as the browser would show it, with no socket and no
/// browser (Phoenix LiveView's `LiveViewTest` is the model).
///
/// The page sends the same messages a browser's client does (numbered gestures, numbered
/// edits), through the session's own rules, and applies what the session sends to its own copy
/// of the page, as the page's script does: what a test reads is what a browser would show. A
/// message the page cannot apply, or after which it shows something other than what the session
/// believes it shows, is a ``divergence``, and every later step throws. Elements are found by
/// CSS selector (``HTMLSelector``) or by accessible name (``element(named:within:)``).
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
    /// The page could not apply what it was sent, or shows something other than what the
    /// session believes it shows (``WebTestPage/divergence``).
    case diverged(String)

    /// What went wrong.
    public var description: String {
      switch self {
      case .noPage(let path, let reason): "no page for \(path): \(reason)"
      case .noElement(let selector): "no element matches \(selector)"
      case .refused(let error): "the session refused the message: \(error)"
      case .timedOut(let what): "timed out waiting for \(what)"
      case .selector(let error): error.description
      case .diverged(let what): "the page and its session disagree: \(what)"
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
  /// The page as its script would show it: what it was served, with every message applied.
  private var mirror: PageMirror
  private var faults: [String] = []

  /// The first message the page could not apply, or after which it did not show what the
  /// session believes it shows; `nil` while the two agree. Every reading and gesture throws
  /// ``Failure/diverged(_:)`` once this is set.
  public var divergence: String? { (faults + mirror.faults).first }

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
    guard case .page(let document, let id) = page, let session = registry.session(id) else {
      throw Failure.noPage(path: path, reason: "\(page)")
    }
    self.session = session
    do {
      mirror = try PageMirror(
        document: document, path: session.path, title: session.sentTitle,
        focus: session.sentFocus)
    } catch {
      throw Failure.noPage(path: path, reason: "the page it served cannot be read: \(error)")
    }
    _ = registry.attach(id, resync: false) { [weak self] text in self?.received(text) }
  }

  /// Applies a message of the session's to the page, as its script does, and checks the page
  /// now shows what the session believes it shows: a patch that misses is a fault of the
  /// library's, found here and not only in a browser.
  private func received(_ text: String) {
    sent.append(text)
    mirror.apply(text)
    guard faults.isEmpty, let kept = session.pageTree else { return }
    if let difference = PageMirror.difference(page: mirror.tree, kept: kept) {
      faults.append("after message \(sent.count), \(difference)")
    }
  }

  /// Closes the tab's session (and the registry the page made, if it made one).
  public func close() {
    if ownsRegistry { registry.closeAll() } else { session.close() }
  }

  // MARK: Reading

  /// The page's app element as the browser shows it: what it was served, with every message
  /// since applied to it (fields show what was typed in them).
  public var tree: HTMLNode { mirror.tree }

  /// The page's app element's HTML.
  public var html: String { tree.html }

  /// The path the page shows in the address bar.
  public var path: String { mirror.path ?? "/" }

  /// The page's title.
  public var title: String? { mirror.title }

  /// The id of the element the server last focused.
  public var focusedID: String? { mirror.focus }

  /// Every element matching `selector`, in document order.
  public func elements(_ selector: String) throws -> [HTMLNode.Element] {
    try checkAgreement()
    do {
      return try tree.select(selector)
    } catch {
      throw Failure.selector(error)
    }
  }

  private func checkAgreement() throws {
    if let divergence { throw Failure.diverged(divergence) }
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

  /// The control whose accessible name is `name`, as a screen reader finds it: a button, a
  /// link or a clickable element by its `aria-label` or its text; a field, picker or box by
  /// its `aria-label`, the text of the `label` around it (or naming it with `for`), or its
  /// placeholder. With no control of that name, the innermost element of that `aria-label` or
  /// text (a heading, a row) — never a container whose text only happens to be the name.
  ///
  /// - Parameters:
  ///   - name: The accessible name.
  ///   - scope: A CSS selector: the search stays inside the elements it matches, in order
  ///     (the open dialog, `"dialog"`; a sheet, `"#sheet"`). Hidden content and closed dialogs
  ///     are never searched.
  /// - Returns: The control, or the innermost element, of that name.
  /// - Throws: ``Failure/noElement(_:)`` when nothing has the name;
  ///   ``Failure/diverged(_:)`` once the page and its session disagree.
  public func element(named name: String, within scope: String? = nil) throws -> HTMLNode.Element {
    let roots: [HTMLNode]
    if let scope {
      roots = try elements(scope).map(HTMLNode.element)
    } else {
      try checkAgreement()
      roots = [tree]
    }
    var control: HTMLNode.Element?
    var other: HTMLNode.Element?
    func visit(_ node: HTMLNode, labels: [String: String]) {
      guard control == nil, case .element(let element) = node else { return }
      // What a person cannot see has no name to find: hidden content, a closed dialog.
      if element[attribute: "hidden"] != nil { return }
      if element.tag == "dialog", element[attribute: "open"] == nil { return }
      if Self.isControl(element) {
        if Self.accessibleName(of: element, labels: labels) == name { control = element }
        // A control's name is its own: nothing inside it is another control of that name.
        if control != nil { return }
      }
      for child in element.children { visit(child, labels: labels) }
      // Children first: the innermost element of the name is the one meant.
      if other == nil,
        element[attribute: "aria-label"] == name || Self.text(of: element) == name
      {
        other = element
      }
    }
    for root in roots where control == nil {
      visit(root, labels: Self.labelTexts(in: root))
    }
    guard let found = control ?? other else {
      throw Failure.noElement("named \(name)" + (scope.map { " within \($0)" } ?? ""))
    }
    return found
  }

  /// Whether a person operates `element`: a button, a link, a field, a picker, a box, or an
  /// element the markup made clickable.
  static func isControl(_ element: HTMLNode.Element) -> Bool {
    switch element.tag {
    case "button", "input", "textarea", "select", "summary": return true
    case "a": return element[attribute: "href"] != nil || element[attribute: "data-click"] != nil
    default:
      if element[attribute: "data-click"] != nil || element[attribute: "data-dblclick"] != nil {
        return true
      }
      let roles: Set<String> = [
        "button", "link", "tab", "menuitem", "option", "checkbox", "radio", "switch",
      ]
      return element[attribute: "role"].map(roles.contains) ?? false
    }
  }

  static func accessibleName(of element: HTMLNode.Element, labels: [String: String]) -> String {
    if let label = element[attribute: "aria-label"] { return label }
    switch element.tag {
    case "input", "textarea", "select":
      if let label = labels[element.id], !element.id.isEmpty { return label }
      if element.tag == "input",
        ["button", "submit", "reset"].contains(element[attribute: "type"] ?? "")
      {
        return element[attribute: "value"] ?? ""
      }
      return element[attribute: "placeholder"] ?? ""
    default:
      return text(of: element)
    }
  }

  /// The text of each field's `label`, by the field's id: a label around the field, or one
  /// naming it with `for`. The label's text leaves out the field's own (a picker's options).
  static func labelTexts(in root: HTMLNode) -> [String: String] {
    var names: [String: String] = [:]
    func fields(in node: HTMLNode) -> [HTMLNode.Element] {
      guard case .element(let element) = node else { return [] }
      if ["input", "textarea", "select"].contains(element.tag) { return [element] }
      return element.children.flatMap(fields(in:))
    }
    func withoutFields(_ node: HTMLNode) -> HTMLNode? {
      guard case .element(var element) = node else { return node }
      if ["input", "textarea", "select"].contains(element.tag) { return nil }
      element.children = element.children.compactMap(withoutFields)
      return .element(element)
    }
    func visit(_ node: HTMLNode) {
      guard case .element(let element) = node else { return }
      if element.tag == "label" {
        guard case .element(let bare)? = withoutFields(node) else { return }
        let text = Self.text(of: bare)
        if let target = element[attribute: "for"] {
          names[target] = names[target] ?? text
        } else {
          for field in fields(in: node) where !field.id.isEmpty {
            names[field.id] = names[field.id] ?? text
          }
        }
      }
      element.children.forEach(visit)
    }
    visit(root)
    return names
  }

  // MARK: Gestures

  /// Clicks the first element matching `selector` (a button, a link, a row).
  public func click(_ selector: String) async throws {
    try await gesture(.click(id: try element(selector).id))
  }

  /// Clicks the control whose accessible name is `name` (``element(named:within:)``),
  /// searching only inside the first element matching `scope`, if given.
  public func click(named name: String, within scope: String? = nil) async throws {
    try await gesture(.click(id: try element(named: name, within: scope).id))
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
    mirror.type(text, into: id, edit: edit)
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
    mirror.choose(position: position, in: picker.id, edit: edit)
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
    mirror.check(box.id, checked, edit: edit)
    try await gesture(.check(id: box.id, checked: checked, sequence: edit, version: version))
  }

  /// Sends the event `event` with `value` from the client hook of the first element matching
  /// `selector`, as its script's `pushEvent` does (TetherWeb's `WebHook`). Fails when the
  /// element has no hook; an event its markup does not declare is refused by the session.
  public func pushHookEvent(
    _ event: String, value: String = "", from selector: String
  ) async throws {
    let element = try element(selector)
    guard element[attribute: "data-hook"] != nil else {
      throw Failure.noElement("a hooked element matching \(selector)")
    }
    try await gesture(.hook(id: element.id, event: event, value: value))
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

  func send(_ json: String) async throws {
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
