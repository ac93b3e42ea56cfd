import Foundation

/// A script of the app's own that runs on elements of its pages: a client hook.
///
/// Some things only code in the page can do — copy to the clipboard, draw a chart, drive a
/// map, focus or scroll a custom element. A hook is a named script file the app registers
/// (``WebApp/hook(_:contentsOf:)``); the server serves it at `/hooks/<name>.js` under the same
/// content security policy as its own client (no inline script), and every page loads it.
/// Markup attaches it to an element with ``Markup/hook(_:value:)``:
///
/// ```swift
/// button("Copy list").hook(.copyToClipboard, value: todos.listText)
///   .onHookEvent("copied", todos.listCopied)
/// ```
///
/// The script registers the hook's callbacks under its name on `window.TetherHooks`:
///
/// ```js
/// (window.TetherHooks ??= {}).CopyToClipboard = {
///   mounted() { this.el.addEventListener("click", () => this.copy()); },
///   updated() { /* this.value changed */ },
///   destroyed() { },
///   copy() { navigator.clipboard.writeText(this.value).then(() => this.pushEvent("copied")); },
/// };
/// ```
///
/// Each element the hook is attached to gets an object of its own whose prototype is the
/// registered one, with `el` (the element), `value` (the value the markup gives, as text) and
/// `pushEvent(event, value)`. The page calls `mounted()` when the element appears,
/// `updated()` when the view model changes its value, and `destroyed()` when it goes (the
/// screen was left, a branch of an `if` changed). Each call also dispatches a `tether:hook`
/// event on the document (its `detail` has `hook`, `id`, `phase` and `value`).
///
/// `pushEvent` sends the event to the server as a gesture, numbered and sent again after a
/// reconnect like a click. The server takes only the events the element's markup declares
/// with `onHookEvent(_:_:)`; any other is refused
/// (``WebSessionError/undeclaredHookEvent(id:event:)``), so a script drives nothing the screen
/// did not offer. A hooked element sends no click of its own unless its markup gives one.
public struct WebHook: Hashable, Sendable, CustomStringConvertible {
  /// The hook's name: the key of its callbacks on `window.TetherHooks` and its script's file
  /// name, `/hooks/<name>.js`.
  public let name: String

  /// A hook named `name`: 1 to 64 ASCII letters, digits, `-` or `_`, starting with a letter.
  /// ``WebApp/hook(_:contentsOf:)`` refuses any other.
  ///
  /// - Parameter name: The hook's name.
  public init(_ name: String) {
    self.name = name
  }

  /// Whether ``name`` can be a key and a file name as it is.
  public var isValid: Bool {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, (1...64).contains(bytes.count), Self.isLetter(first) else {
      return false
    }
    return bytes.allSatisfy { byte in
      Self.isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
  }

  /// The hook's name.
  public var description: String { name }

  /// The path of the hook's script, under the path the app is mounted at.
  public var scriptPath: String { "/hooks/\(name).js" }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }
}

/// Why an app's hook was not registered.
public enum WebHookError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The name is not 1 to 64 letters, digits, `-` or `_` starting with a letter.
  case invalidName(String)
  /// The script would end the `script` element early (it holds `</script`).
  case unservableScript(hook: String)

  /// A sentence for the developer.
  public var description: String {
    switch self {
    case .invalidName(let name):
      "'\(name)' is not a hook name: use 1 to 64 letters, digits, - or _, starting with a letter"
    case .unservableScript(let hook): "the script of hook \(hook) holds </script"
    }
  }
}

extension WebApp {
  /// The app with the hook `hook`, whose script is the file at `url` (a resource of the app's
  /// target): served at `/hooks/<name>.js` and loaded by every page before Tether's client.
  ///
  /// - Parameters:
  ///   - hook: The hook.
  ///   - url: The `.js` file that registers it on `window.TetherHooks`.
  /// - Returns: The app with the hook.
  /// - Throws: ``WebHookError`` for a name that is not valid, or the error reading the file.
  public func hook(_ hook: WebHook, contentsOf url: URL) throws -> WebApp {
    try self.hook(hook, script: String(contentsOf: url, encoding: .utf8))
  }

  /// The app with the hook `hook`, whose script is `script`: for a script the app builds
  /// itself. Keep a hand-written script in a `.js` file (``hook(_:contentsOf:)``).
  ///
  /// - Parameters:
  ///   - hook: The hook.
  ///   - script: The script that registers it on `window.TetherHooks`.
  /// - Returns: The app with the hook.
  /// - Throws: ``WebHookError`` for a name that is not valid.
  public func hook(_ hook: WebHook, script: String) throws(WebHookError) -> WebApp {
    guard hook.isValid else { throw .invalidName(hook.name) }
    guard WebAssets.fitsRawTextElement(script) else { throw .unservableScript(hook: hook.name) }
    var app = self
    app.hookScripts[hook] = script
    return app
  }
}

extension Markup {
  /// Attaches the client hook `hook` to the element, giving it `value`: the page calls the
  /// hook's `updated()` each time the view model changes it. See ``WebHook``.
  ///
  /// - Parameters:
  ///   - hook: The hook, registered with the app (``WebApp/hook(_:contentsOf:)``).
  ///   - value: What the hook reads as `this.value`.
  /// - Returns: The element with the hook.
  public func hook(_ hook: WebHook, value: String = "") -> Markup {
    mapElements { $0.hook = (hook.name, value) }
  }

  /// Sends `action` when the element's hook pushes the event `event`.
  ///
  /// - Parameters:
  ///   - event: The event's name, as the script's `pushEvent` gives it.
  ///   - action: The action to send.
  /// - Returns: The element answering the event.
  public func onHookEvent(_ event: String, _ action: Action) -> Markup {
    onHookEvent(event) { _ in action }
  }

  /// Sends the action `make` makes of the value the element's hook pushes with the event
  /// `event` (text the page sent: check it as any input).
  ///
  /// - Parameters:
  ///   - event: The event's name, as the script's `pushEvent` gives it.
  ///   - make: Makes the action of the event's value.
  /// - Returns: The element answering the event.
  public func onHookEvent(_ event: String, _ make: @escaping (String) -> Action) -> Markup {
    addingHookEvent(event, make)
  }

  fileprivate func addingHookEvent(
    _ event: String, _ make: @escaping (String) -> Action
  ) -> Markup {
    mapElements { element in
      element.hookEvents.removeAll { $0.event == event }
      element.hookEvents.append((event, make))
    }
  }
}

extension Markup where Action == WebCall {
  /// Runs `call` when the element's hook pushes the event `event`.
  ///
  /// - Parameters:
  ///   - event: The event's name, as the script's `pushEvent` gives it.
  ///   - call: What to run.
  /// - Returns: The element answering the event.
  public func onHookEvent(_ event: String, _ call: @escaping WebCall) -> Markup {
    addingHookEvent(event) { _ in call }
  }

  /// Runs `call` with the value the element's hook pushes with the event `event`.
  ///
  /// - Parameters:
  ///   - event: The event's name, as the script's `pushEvent` gives it.
  ///   - call: What to run with the event's value.
  /// - Returns: The element answering the event.
  public func onHookEvent(
    _ event: String, _ call: @escaping @MainActor (String) -> Void
  ) -> Markup {
    addingHookEvent(event) { value in { call(value) } }
  }
}
