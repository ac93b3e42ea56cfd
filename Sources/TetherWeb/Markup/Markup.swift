import Tether
import TetherFlow

/// A piece of a page, written with ``MarkupBuilder``: elements with typed attributes, text,
/// conditional and keyed content, and the actions its gestures send — with no ids.
///
/// Ids are the library's: every element's id comes from where it stands (its parent's id and
/// its place in the builder's code — the statement, the branch of an `if`, a ``ForEach(_:row:)``
/// item's key), so the same element keeps its id from one render to the next, and an element
/// that appears or goes never shifts the ids of the others.
///
/// ```swift
/// ul(.class("todo-list")) {
///   ForEach(model.rows) { row in
///     li(.class("completed", when: row.completed)) {
///       label { row.title }.onDoubleClick(.edit(id: row.id))
///       button(.class("destroy"), .ariaLabel("Delete \(row.title)")).onClick(.destroy(id: row.id))
///     }
///   }
/// }
/// ```
///
/// `Action` is what the markup's gestures send: a screen's own `enum Action` (see
/// ``WebScreen``), or `Never` for markup that sends nothing.
@MainActor
public struct Markup<Action> {
  indirect enum Node {
    /// An element.
    case element(MarkupElement<Action>)
    /// Text, escaped when written.
    case text(String)
    /// Content numbered by position: a builder block's statements, a `for` loop's passes.
    case list([Node])
    /// Content named by `name`: one branch of an `if`/`else` or `switch`.
    case branch(String, [Node])
    /// Content named by key: a ``ForEach(_:row:)``'s items.
    case keyed([(key: String, nodes: [Node])])
    /// A ``WebView`` placed in markup: it renders itself under the id it is given.
    case view(any WebView)
    /// A control with state of its own, kept by the page from render to render under its
    /// name (a list's selection): it renders itself under that name, sending its actions
    /// through the dispatch it is given.
    case control(
      (_ name: String, _ context: WebRenderContext, _ dispatch: @escaping (Action) -> Void) ->
        HTMLNode)
    /// Content built and rendered again only when its key changes (``Cached(_:content:)``).
    case cached(AnyHashable, () -> Markup<Action>)
    /// Content that observes its own reads and is rendered again alone (``Component(_:)``).
    case component(() -> Markup<Action>)
  }

  var nodes: [Node]
  /// Whether the markup is one element written as one statement: a block gives it its
  /// statement's number as its own, with no level of its own.
  var isSingleExpression = false

  init(nodes: [Node], isSingleExpression: Bool = false) {
    self.nodes = nodes
    self.isSingleExpression = isSingleExpression
  }

  /// Nothing.
  public static var empty: Markup { Markup(nodes: []) }

  /// Applies `change` to each top-level element.
  func mapElements(_ change: (inout MarkupElement<Action>) -> Void) -> Markup {
    var copy = self
    copy.nodes = nodes.map { node in
      guard case .element(var element) = node else { return node }
      change(&element)
      return .element(element)
    }
    return copy
  }
}

/// An element of ``Markup``: its tag, attributes, content, the actions its gestures send, and
/// for a field, what it is bound to.
@MainActor
struct MarkupElement<Action> {
  var tag: String
  var attributes: [Attribute]
  var children: [Markup<Action>.Node]
  var events: [(kind: MarkupEvent, action: MarkupAction<Action>)] = []
  var field: MarkupField<Action>?
  var isFocused = false
  /// The client hook attached (``WebHook``): its name and the value it is given.
  var hook: (name: String, value: String)?
  /// The hook's events the element answers, each with the action made of its value.
  var hookEvents: [(event: String, action: (String) -> Action)] = []
}

/// The action a gesture sends: one given in the markup, or one made from the gesture itself
/// (its id, for an input that creates something).
enum MarkupAction<Action> {
  case value(Action)
  case made((WebGesture?) -> Action)

  /// The action for the gesture being handled.
  func callAsFunction() -> Action {
    switch self {
    case .value(let action): action
    case .made(let make): make(WebGesture.current)
    }
  }
}

/// A gesture an element answers with an action.
enum MarkupEvent: Equatable {
  case click, doubleClick, submit, cancel, focus, blur
}

/// What a field element is bound to.
@MainActor
enum MarkupField<Action> {
  /// A text field (of any text `type`): the model's text, written by each edit.
  case text(MutableProperty<String>)
  /// A checkbox that writes its flag itself.
  case toggle(MutableProperty<Bool>)
  /// A checkbox that shows a flag and sends an action for each tick (none until
  /// ``Markup/onChange(_:)`` says which).
  case checkbox(Property<Bool>, ((Bool) -> Action)?)
  /// A checkbox that shows the value of this render and sends an action for each tick.
  case value(Bool, ((Bool) -> Action)?)
  /// A picker: a selection among options, written by each choice.
  case choice(MarkupChoice)
  /// A radio group: a selection among options, written by each choice.
  case radios(MarkupChoice)

  /// Whether the field shows a property (which it then observes on its own).
  var isBoundToProperty: Bool {
    if case .value = self { false } else { true }
  }
}

/// An attribute of an element: a name and a value, or a flag (`hidden`, `disabled`) that is
/// present or not.
///
/// Attributes are typed where HTML has a meaning for them (`.class`, `.hidden`, `.href`,
/// `.ariaLabel`); ``attribute(_:_:)`` writes any other. The library's own attributes — `id`,
/// the live state of fields, event handlers (`on…`) — cannot be written this way.
public struct Attribute: Equatable, Sendable {
  /// The attribute's name.
  public let name: String
  /// Its value; `nil` for an attribute left out (a flag that is off).
  public let value: String?
  /// Whether the app vouches for this address (``href(trusted:)``, ``src(trusted:)``): it is
  /// written whatever its scheme.
  let isTrusted: Bool

  init(_ name: String, _ value: String?, trusted: Bool = false) {
    self.name = name
    self.value = value
    self.isTrusted = trusted
  }

  /// Any attribute. `id`, `on…` handlers, the gestures' and hooks' markers (`data-click`,
  /// `data-dblclick`, `data-hook`, `data-hook-value`) and the fields' live state (`value`,
  /// `checked`, `data-ack`, `data-version`) are the library's: they are left out. An address attribute
  /// (`href`, `src`, `action`, `formaction`, …) follows the rule of `.href`.
  public static func attribute(_ name: String, _ value: String) -> Attribute {
    Attribute(name, value)
  }

  /// The class list.
  public static func `class`(_ names: String) -> Attribute { Attribute("class", names) }

  /// A class that is there only `when` a condition holds: `.class("completed", when: done)`.
  public static func `class`(_ name: String, when condition: Bool) -> Attribute {
    Attribute("class", condition ? name : nil)
  }

  /// Hidden while `isHidden` (the `hidden` attribute).
  public static func hidden(_ isHidden: Bool = true) -> Attribute {
    Attribute("hidden", isHidden ? "" : nil)
  }

  /// Disabled while `isDisabled`.
  public static func disabled(_ isDisabled: Bool = true) -> Attribute {
    Attribute("disabled", isDisabled ? "" : nil)
  }

  /// A link's address. An address whose scheme is not `http`, `https`, `mailto` or `tel`
  /// (`javascript:`, `data:`, …) is left out: an address from data cannot run script in the
  /// page. A relative address is written as it is.
  public static func href(_ url: String) -> Attribute { Attribute("href", url) }

  /// A link's address written whatever its scheme: for an address the app itself wrote, never
  /// one that comes from data.
  public static func href(trusted url: String) -> Attribute {
    Attribute("href", url, trusted: true)
  }

  /// A link to a screen of the app: the path a flow's route gives (TetherFlow's
  /// `ScreenPath`), such as `TodosFlow.path(showing: .active)`, never one pieced together in a
  /// view. Opened in a new tab, or after a reload, it is the same screen.
  public static func href(_ path: ScreenPath) -> Attribute {
    Attribute("href", path.description, trusted: true)
  }

  /// An image's address. Besides what `.href` allows, an inline raster image
  /// (`data:image/png;…`, `jpeg`, `gif`, `webp`) is written; any other scheme is left out.
  public static func src(_ url: String) -> Attribute { Attribute("src", url) }

  /// An image's address written whatever its scheme: for an address the app itself wrote.
  public static func src(trusted url: String) -> Attribute {
    Attribute("src", url, trusted: true)
  }

  /// An image's text alternative.
  public static func alt(_ text: String) -> Attribute { Attribute("alt", text) }

  /// The accessible name, for an element with no visible one.
  public static func ariaLabel(_ text: String) -> Attribute { Attribute("aria-label", text) }

  /// The ARIA role.
  public static func role(_ role: String) -> Attribute { Attribute("role", role) }

  /// A `data-` attribute of the app's own (`data-name`).
  public static func data(_ name: String, _ value: String) -> Attribute {
    Attribute("data-" + name, value)
  }

  /// A field's hint while empty.
  public static func placeholder(_ text: String) -> Attribute { Attribute("placeholder", text) }

  /// The names the library writes itself.
  static let reserved: Set<String> = [
    "id", "value", "checked", "data-ack", "data-version", "data-hook", "data-hook-value",
    "data-click", "data-dblclick",
  ]

  /// Whether an app may write this attribute.
  var isAllowed: Bool {
    let lowered = name.lowercased()
    if let value, !isTrusted, !WebURLPolicy.allows(value, in: lowered) { return false }
    return !Self.reserved.contains(lowered) && !lowered.hasPrefix("on") && !lowered.isEmpty
      && lowered.utf8.allSatisfy { byte in
        // A name the writer can write as it is: letters, digits, `-`, `_`, `:`, `.`.
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
          || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
      }
  }
}

extension Markup {
  /// Sends `action` when the element is clicked (or activated with the keyboard).
  public func onClick(_ action: Action) -> Markup {
    on(.click, .value(action))
  }

  /// Sends the action `make` makes of the click's gesture: its ``WebGesture/id`` is the same
  /// each time the page sends the click again after a reconnect, so an input that creates
  /// something, given it, creates nothing twice. `nil` for a page that does not number its
  /// gestures.
  public func onClick(_ make: @escaping (WebGesture?) -> Action) -> Markup {
    on(.click, .made(make))
  }

  /// Sends `action` when the element is double-clicked.
  public func onDoubleClick(_ action: Action) -> Markup {
    on(.doubleClick, .value(action))
  }

  /// Sends `action` when Enter is pressed in the field.
  public func onSubmit(_ action: Action) -> Markup {
    on(.submit, .value(action))
  }

  /// Sends the action `make` makes of Enter's gesture (see `onClick` with a closure):
  ///
  /// ```swift
  /// textField(model.newTitle, label: "New todo").onSubmit { .add(gesture: $0) }
  /// ```
  public func onSubmit(_ make: @escaping (WebGesture?) -> Action) -> Markup {
    on(.submit, .made(make))
  }

  /// Sends `action` when Escape is pressed in the field.
  public func onCancel(_ action: Action) -> Markup {
    on(.cancel, .value(action))
  }

  /// Sends `action` when the field takes focus.
  public func onFocus(_ action: Action) -> Markup {
    on(.focus, .value(action))
  }

  /// Sends `action` when the field loses focus.
  public func onBlur(_ action: Action) -> Markup {
    on(.blur, .value(action))
  }

  /// Sends the action `change` makes of each tick of a checkbox showing a flag the view model
  /// derives.
  public func onChange(_ change: @escaping (Bool) -> Action) -> Markup {
    mapElements { element in
      switch element.field {
      case .checkbox(let value, _): element.field = .checkbox(value, change)
      case .value(let value, _): element.field = .value(value, change)
      default: break
      }
    }
  }

  /// Focuses the element when `isFocused`: the server decides focus, the page applies it.
  public func focused(_ isFocused: Bool) -> Markup {
    mapElements { $0.isFocused = isFocused }
  }

  fileprivate func on(_ kind: MarkupEvent, _ action: MarkupAction<Action>) -> Markup {
    mapElements { element in
      // Most elements have no other handler yet: no search through them (generic code).
      if !element.events.isEmpty { element.events.removeAll { $0.kind == kind } }
      element.events.append((kind, action))
    }
  }
}

extension Markup where Action == WebCall {
  // Each gesture again with the call's type spelled out: a closure written where a generic
  // `Action` is expected is not inferred as the main actor's, and would not convert to one.

  /// Runs `call` when the element is clicked (or activated with the keyboard).
  public func onClick(_ call: @escaping WebCall) -> Markup { on(.click, .value(call)) }

  /// Runs `call` when the element is double-clicked.
  public func onDoubleClick(_ call: @escaping WebCall) -> Markup {
    on(.doubleClick, .value(call))
  }

  /// Runs `call` when Enter is pressed in the field.
  public func onSubmit(_ call: @escaping WebCall) -> Markup { on(.submit, .value(call)) }

  /// Runs `call` when Escape is pressed in the field.
  public func onCancel(_ call: @escaping WebCall) -> Markup { on(.cancel, .value(call)) }

  /// Runs `call` when the field takes focus.
  public func onFocus(_ call: @escaping WebCall) -> Markup { on(.focus, .value(call)) }

  /// Runs `call` when the field loses focus.
  public func onBlur(_ call: @escaping WebCall) -> Markup { on(.blur, .value(call)) }

  /// Runs `call` with the click's gesture (see `onClick` with a closure making an action):
  /// an input that creates something takes the gesture's id and creates nothing twice.
  public func onClick(_ call: @escaping @MainActor (WebGesture?) -> Void) -> Markup {
    on(.click, .made { gesture in { call(gesture) } })
  }

  /// Runs `call` with Enter's gesture:
  ///
  /// ```swift
  /// textField(model.newTitle, label: "New todo").onSubmit { model.add(id: $0?.id) }
  /// ```
  public func onSubmit(_ call: @escaping @MainActor (WebGesture?) -> Void) -> Markup {
    on(.submit, .made { gesture in { call(gesture) } })
  }

  /// Runs `call` with each tick of a checkbox showing a flag the view model derives.
  public func onChange(_ call: @escaping @MainActor (Bool) -> Void) -> Markup {
    onChange { value in { call(value) } }
  }
}
