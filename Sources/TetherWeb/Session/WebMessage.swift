import Foundation
import TetherFlow

/// A page's message as JSON, before it is checked.
struct ClientWire: Decodable, Equatable {
  var type: String
  var id: String?
  var key: String?
  var path: String?
  var token: String?
  var value: String?
  var checked: Bool?
  var seq: Int?
  /// The version of the value a checkbox showed when it was ticked (`FieldBinding.version`).
  var ver: Int?
  /// The session's secret, in a page's first message.
  var secret: String?
  /// The digest of the page as it was served, in a first message sent before any patch.
  var shown: String?
  /// The page's number for the gesture (1, 2, … per page), on every message but a field's edits.
  var g: Int?
  /// A client hook's event name.
  var event: String?
  /// The files an upload offers.
  var files: [WireFile]?
}

/// A file an upload offers, as the page describes it.
struct WireFile: Decodable, Equatable {
  var name: String
  var size: Int
  var type: String?
}

/// A page's message as a session takes it: the gesture's number, and what the message means.
///
/// The page numbers its gestures and keeps each until the session acknowledges it (a
/// ``ServerMessage/acknowledged`` number at or above it), which happens only once what the
/// gesture started is kept (every view model on the stack settled: TetherFlow's `SettlingViewModel`). A page whose socket closed sends its
/// unacknowledged gestures again on its next connection, to this server or to another one that
/// rebuilt the session: a session skips a number it has handled, and a rebuilt session applies
/// it again, so what a gesture writes must be idempotent (``WebGesture``).
public struct ClientEnvelope: Equatable, Sendable {
  /// What the message asks, in order: one message, or, for Enter in a text field that says
  /// what the field held, that text's edit and then the submit (so a submit sent again to a
  /// rebuilt session submits the same text).
  public var messages: [ClientMessage]
  /// The page's number for the gesture, if it numbered it.
  public var gesture: Int?

  /// Decodes one message.
  ///
  /// - Parameter text: The message's JSON, such as `{"type":"click","id":"s1.0","g":7}`.
  /// - Throws: ``WebSessionError`` saying what was wrong with it.
  public init(decoding text: String) throws(WebSessionError) {
    let wire = try ClientMessage.wire(decoding: text)
    let message = try ClientMessage(wire: wire)
    if let gesture = wire.g, !(1...ClientMessage.maximumNumber).contains(gesture) {
      throw .malformed("g must be from 1 to \(ClientMessage.maximumNumber)")
    }
    gesture = wire.g
    if case .submit(let id) = message, let value = wire.value, wire.seq != nil {
      messages = [
        .input(id: id, value: value, sequence: try ClientMessage.sequence(wire)), message,
      ]
    } else {
      messages = [message]
    }
  }
}

/// A message from the page: a gesture, or where the browser went.
public enum ClientMessage: Equatable, Sendable {
  /// The element `id` was clicked.
  case click(id: String)
  /// A key was pressed with no text field focused.
  case key(WebKey)
  /// The browser moved to `path` (Back, Forward).
  case navigate(path: String)
  /// The alert was dismissed (OK or Escape).
  case dismissAlert
  /// A page's first message on every socket: the session's secret, which the page was served
  /// with and which no URL carries (a socket that cannot show it gets nothing), and the page's
  /// newest resume token, if it has one: a server that does not hold the session rebuilds it
  /// from the token (``WebResumeSigner``); one that does ignores it.
  ///
  /// A page that has applied no patch since it was served also says what it shows: the
  /// served tree's digest (``HTMLNode/digest``). A session whose render has the same digest
  /// sends nothing for it, so the page keeps every element it was served with.
  case hello(secret: String, token: String?, shown: String? = nil)
  /// The text of field `id` changed to `value`: the field's edit number `sequence` (1, 2, …
  /// per field, in the order the person typed). A page that reconnects sends its fields'
  /// unacknowledged text again this way, so typing survives a server's death.
  case input(id: String, value: String, sequence: Int)
  /// The checkbox `id` was ticked or unticked: its edit number `sequence`, and the version of
  /// the value it showed then (its `data-version`), if it had one: a tick made on a value that
  /// has changed since is refused (TetherFlow's `FieldBinding`).
  case check(id: String, checked: Bool, sequence: Int, version: Int? = nil)
  /// Enter in field `id`.
  case submit(id: String)
  /// Escape in field `id`.
  case cancel(id: String)
  /// Field `id` took focus (a click or Tab in the page).
  case focus(id: String)
  /// Field `id` lost focus.
  case blur(id: String)
  /// The element `id` was double-clicked.
  case doubleClick(id: String)
  /// The client hook attached to the element `id` sent its event `event` with `value`
  /// (`pushEvent` in the hook's script). Only an event the element's markup declares
  /// (`onHookEvent`) is taken; any other is refused.
  case hook(id: String, event: String, value: String)
  /// The person chose or dropped `files` on the file input `id` (``fileInput(_:label:_:)``).
  /// The session checks them against the upload's rules and answers each with a reference
  /// to send its bytes under, or a refusal.
  case upload(id: String, files: [FileOffer])

  /// The most files one upload message offers.
  public static let maximumFilesOffered = 32

  /// The most bytes of a file one upload chunk (a binary message: the file's reference in 4
  /// bytes, big-endian, then its bytes) carries: with the reference, a frame of 16 KiB, the
  /// largest Hummingbird's WebSocket route reads by default.
  public static let maximumUploadChunkSize = 16_380

  /// The most bytes of a file a page sends ahead of the session's acknowledgement
  /// (``UploadSignal/received(reference:bytes:)``): 32 chunks, about 512 KB.
  public static let uploadWindow = 32 * maximumUploadChunkSize

  /// The longest name a hook event may have, in bytes.
  public static let maximumEventNameSize = 64

  /// The largest message a page sends, in bytes; anything larger is refused.
  public static let maximumSize = 4096

  /// The largest number a page may send (a gesture's `g`, an edit's `seq`, a version's `ver`):
  /// 2³¹ − 1, far beyond what a page counts to, and small enough that a session adding one
  /// of its own counters to it never overflows. A larger one, or one below 1, is refused
  /// where the message is parsed.
  public static let maximumNumber = Int(Int32.max)

  /// Decodes one message.
  ///
  /// - Parameter text: The message's JSON, such as `{"type":"click","id":"s1.0"}`.
  /// - Throws: ``WebSessionError`` saying what was wrong with it.
  public init(decoding text: String) throws(WebSessionError) {
    try self.init(wire: Self.wire(decoding: text))
  }

  fileprivate static func wire(decoding text: String) throws(WebSessionError) -> ClientWire {
    guard text.utf8.count <= Self.maximumSize else {
      throw .oversized(bytes: text.utf8.count, limit: Self.maximumSize)
    }
    return try ClientWireReader.read(text)
  }

  /// Whether Foundation's `JSONDecoder` reads `text` as the protocol's reader does, for the
  /// fuzz target `web`: `nil` if the reader refuses it or both read the same message, else what
  /// differs.
  @_spi(Fuzzing)
  public static func readersDisagree(on text: String) -> String? {
    guard let read = try? ClientWireReader.read(text) else { return nil }
    do {
      let decoded = try JSONDecoder().decode(ClientWire.self, from: Data(text.utf8))
      return decoded == read ? nil : "the reader read \(read), JSONDecoder \(decoded)"
    } catch {
      return "the reader read \(read), JSONDecoder refused it: \(error)"
    }
  }

  fileprivate init(wire: ClientWire) throws(WebSessionError) {
    switch wire.type {
    case "click":
      guard let id = wire.id, !id.isEmpty else { throw .malformed("a click needs an id") }
      self = .click(id: id)
    case "key":
      guard let name = wire.key, let key = WebKey(rawValue: name) else {
        throw .unknownKey(String((wire.key ?? "").prefix(40)))
      }
      self = .key(key)
    case "navigate":
      guard let path = wire.path, path.hasPrefix("/") else {
        throw .malformed("navigate needs a path starting with /")
      }
      self = .navigate(path: path)
    case "dismiss":
      self = .dismissAlert
    case "hello":
      guard let secret = wire.secret, !secret.isEmpty, secret.utf8.count <= 64 else {
        throw .malformed("hello needs the session's secret")
      }
      if let token = wire.token, token.isEmpty { throw .malformed("an empty token") }
      if let shown = wire.shown, shown.isEmpty || shown.utf8.count > 64 {
        throw .malformed("shown must be a digest")
      }
      self = .hello(secret: secret, token: wire.token, shown: wire.shown)
    case "input":
      let id = try Self.id(wire)
      guard let value = wire.value else { throw .malformed("input needs a value") }
      self = .input(id: id, value: value, sequence: try Self.sequence(wire))
    case "check":
      let id = try Self.id(wire)
      guard let checked = wire.checked else { throw .malformed("check needs checked") }
      if let version = wire.ver, !(1...Self.maximumNumber).contains(version) {
        throw .malformed("ver must be from 1 to \(Self.maximumNumber)")
      }
      self = .check(id: id, checked: checked, sequence: try Self.sequence(wire), version: wire.ver)
    case "submit": self = .submit(id: try Self.id(wire))
    case "cancel": self = .cancel(id: try Self.id(wire))
    case "focus": self = .focus(id: try Self.id(wire))
    case "blur": self = .blur(id: try Self.id(wire))
    case "dblclick": self = .doubleClick(id: try Self.id(wire))
    case "hook":
      let id = try Self.id(wire)
      guard let event = wire.event, !event.isEmpty,
        event.utf8.count <= Self.maximumEventNameSize
      else {
        throw .malformed("a hook event needs a name of 1 to \(Self.maximumEventNameSize) bytes")
      }
      self = .hook(id: id, event: event, value: wire.value ?? "")
    case "upload":
      let id = try Self.id(wire)
      guard let files = wire.files, (1...Self.maximumFilesOffered).contains(files.count) else {
        throw .malformed("an upload offers 1 to \(Self.maximumFilesOffered) files")
      }
      var offers: [FileOffer] = []
      for file in files {
        guard (0...FileOffer.maximumSize).contains(file.size) else {
          throw .malformed("a file's size must be from 0 to \(FileOffer.maximumSize)")
        }
        guard (1...255).contains(file.name.utf8.count), (file.type ?? "").utf8.count <= 127 else {
          throw .malformed("a file needs a name of 1 to 255 bytes and a type of at most 127")
        }
        offers.append(FileOffer(name: file.name, size: file.size, type: file.type ?? ""))
      }
      self = .upload(id: id, files: offers)
    default:
      throw .unknownType(String(wire.type.prefix(40)))
    }
  }

  private static func id(_ wire: ClientWire) throws(WebSessionError) -> String {
    guard let id = wire.id, !id.isEmpty else { throw .malformed("\(wire.type) needs an id") }
    return id
  }

  fileprivate static func sequence(_ wire: ClientWire) throws(WebSessionError) -> Int {
    guard let sequence = wire.seq, (1...maximumNumber).contains(sequence) else {
      throw .malformed("\(wire.type) needs a seq from 1 to \(maximumNumber)")
    }
    return sequence
  }

  private static func json(type: String, id: String) -> String {
    "{\"type\":\"\(type)\",\"id\":\(quote(id, escapingLessThan: false))}"
  }

  /// The message as the page sends it, e.g. `{"type":"click","id":"s1.0"}`:
  /// `ClientMessage(decoding: message.json)` is `message`.
  public var json: String {
    switch self {
    case .click(let id): "{\"type\":\"click\",\"id\":\(quote(id, escapingLessThan: false))}"
    case .key(let key):
      "{\"type\":\"key\",\"key\":\(quote(key.rawValue, escapingLessThan: false))}"
    case .navigate(let path):
      "{\"type\":\"navigate\",\"path\":\(quote(path, escapingLessThan: false))}"
    case .dismissAlert: "{\"type\":\"dismiss\"}"
    case .hello(let secret, let token, let shown):
      "{\"type\":\"hello\",\"secret\":\(quote(secret, escapingLessThan: false))"
        + (token.map { ",\"token\":\(quote($0, escapingLessThan: false))" } ?? "")
        + (shown.map { ",\"shown\":\(quote($0, escapingLessThan: false))" } ?? "") + "}"
    case .input(let id, let value, let sequence):
      "{\"type\":\"input\",\"id\":\(quote(id, escapingLessThan: false)),\"value\":\(quote(value, escapingLessThan: false)),\"seq\":\(sequence)}"
    case .check(let id, let checked, let sequence, let version):
      "{\"type\":\"check\",\"id\":\(quote(id, escapingLessThan: false)),\"checked\":\(checked),\"seq\":\(sequence)"
        + (version.map { ",\"ver\":\($0)" } ?? "") + "}"
    case .submit(let id): Self.json(type: "submit", id: id)
    case .cancel(let id): Self.json(type: "cancel", id: id)
    case .focus(let id): Self.json(type: "focus", id: id)
    case .blur(let id): Self.json(type: "blur", id: id)
    case .doubleClick(let id): Self.json(type: "dblclick", id: id)
    case .hook(let id, let event, let value):
      "{\"type\":\"hook\",\"id\":\(quote(id, escapingLessThan: false)),\"event\":\(quote(event, escapingLessThan: false)),\"value\":\(quote(value, escapingLessThan: false))}"
    case .upload(let id, let files):
      "{\"type\":\"upload\",\"id\":\(quote(id, escapingLessThan: false)),\"files\":["
        + files.map { file in
          "{\"name\":\(quote(file.name, escapingLessThan: false)),\"size\":\(file.size),\"type\":\(quote(file.type, escapingLessThan: false))}"
        }.joined(separator: ",") + "]}"
    }
  }
}

/// Why a page's message was refused. The session logs it and goes on.
public enum WebSessionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Not JSON, or not the expected shape.
  case malformed(String)
  /// A `type` the session does not know.
  case unknownType(String)
  /// A key the session does not handle.
  case unknownKey(String)
  /// Larger than ``ClientMessage/maximumSize``.
  case oversized(bytes: Int, limit: Int)
  /// A click on an element that has no handler now (a stale page).
  case noHandler(id: String)
  /// A click on the screen behind an open alert: the alert is modal, so only its own buttons
  /// take clicks (a page shows the screen behind it inert; a forged message gets this).
  case behindModal(id: String)
  /// A gesture on the screen under an open sheet (with no alert over it): the sheet is
  /// modal, so only what is in it takes gestures.
  case behindSheet(id: String)
  /// A client hook's event that the element's markup does not declare (``Markup``'s
  /// `onHookEvent`): a script sends only what the screen said it takes.
  case undeclaredHookEvent(id: String, event: String)

  /// A sentence for the log, one line: what the client sent is escaped (``WebLogText``).
  public var description: String {
    switch self {
    case .malformed(let detail): "malformed message: \(WebLogText.escaped(detail, limit: 200))"
    case .unknownType(let type): "unknown message type '\(WebLogText.escaped(type))'"
    case .unknownKey(let key): "unknown key '\(WebLogText.escaped(key))'"
    case .oversized(let bytes, let limit): "message of \(bytes) bytes is over the \(limit) limit"
    case .noHandler(let id): "nothing to click at '\(WebLogText.escaped(id))'"
    case .behindModal(let id): "'\(WebLogText.escaped(id))' is behind the open alert"
    case .behindSheet(let id): "'\(WebLogText.escaped(id))' is behind the open sheet"
    case .undeclaredHookEvent(let id, let event):
      "no hook event '\(WebLogText.escaped(event))' declared at '\(WebLogText.escaped(id))'"
    }
  }
}

/// A message to the page: patches, and the path and title when they changed.
public struct ServerMessage: Equatable, Sendable {
  /// The patches, in order.
  public var patches: [HTMLPatch]
  /// The stack's path, when it changed.
  public var path: String?
  /// The page title, when it changed.
  public var title: String?
  /// The element the page focuses after applying the patches, if any. The server always says
  /// which; the page never decides focus on its own.
  public var focus: String?
  /// A new resume token, when the state it carries changed (``WebResumeSigner``).
  public var resume: String?
  /// What the page's uploads are told: where to send the files it offered, how many bytes
  /// arrived, which to stop sending.
  public var uploads: [UploadSignal] = []
  /// The number of the newest gesture whose effects are kept (``ClientEnvelope``): the page
  /// forgets it and every earlier one.
  public var acknowledged: Int?

  /// Creates a message.
  ///
  /// - Parameters:
  ///   - patches: The patches, in order.
  ///   - path: The stack's path, when it changed.
  ///   - title: The page title, when it changed.
  ///   - focus: The element to focus.
  ///   - resume: A new resume token.
  public init(
    patches: [HTMLPatch], path: String? = nil, title: String? = nil, focus: String? = nil,
    resume: String? = nil
  ) {
    self.patches = patches
    self.path = path
    self.title = title
    self.focus = focus
    self.resume = resume
  }

  /// The message as compact JSON: `{"p": [patch, …], "path", "title", "f", "r", "k"}`, each
  /// key present only when it has a value. A patch is a record of fixed fields, its kind
  /// first: `["r", id, html]` replaces an element, `["c", id, html]` its children,
  /// `["t", id, text]` sets its text, `["a", id, name, value]` sets an attribute (with no
  /// value, removes it), `["i", parent, after, html]` inserts after the child `after` (`""`
  /// for first), `["d", id]` removes an element, `["m", parent, id, after]` moves the child
  /// `id` right after the child `after` (`""` for first), `["v", id, value, acknowledged]` sets a
  /// field's live value. The page's script names the same fields in one table
  /// (`patchFields` in `tether.js`). `"f"` names the element to focus.
  public var json: String {
    var parts: [String] = []
    parts.append("\"p\":[\(patches.map(Self.json).joined(separator: ","))]")
    if let path { parts.append("\"path\":\(quote(path))") }
    if let title { parts.append("\"title\":\(quote(title))") }
    if let focus { parts.append("\"f\":\(quote(focus))") }
    if let resume { parts.append("\"r\":\(quote(resume))") }
    if let acknowledged { parts.append("\"k\":\(acknowledged)") }
    if !uploads.isEmpty { parts.append("\"u\":[\(uploads.map(\.json).joined(separator: ","))]") }
    return "{\(parts.joined(separator: ","))}"
  }

  private static func json(_ patch: HTMLPatch) -> String {
    switch patch {
    case .replace(let id, let html): "[\"r\",\(quote(id)),\(quote(html))]"
    case .children(let id, let html): "[\"c\",\(quote(id)),\(quote(html))]"
    case .text(let id, let text): "[\"t\",\(quote(id)),\(quote(text))]"
    case .attribute(let id, let name, let value?):
      "[\"a\",\(quote(id)),\(quote(name)),\(quote(value))]"
    // A removed attribute has no value at all, not `null`: five bytes less on every
    // selection move, which removes one `aria-selected` and sets another.
    case .attribute(let id, let name, nil): "[\"a\",\(quote(id)),\(quote(name))]"
    case .insert(let parent, let after, let html):
      "[\"i\",\(quote(parent)),\(quote(after ?? "")),\(quote(html))]"
    case .remove(let id): "[\"d\",\(quote(id))]"
    case .move(let parent, let id, let after):
      "[\"m\",\(quote(parent)),\(quote(id)),\(quote(after ?? ""))]"
    case .value(let id, .text(let text), let acknowledged):
      "[\"v\",\(quote(id)),\(quote(text)),\(acknowledged)]"
    case .value(let id, .checked(let checked), let acknowledged):
      "[\"v\",\(quote(id)),\(checked),\(acknowledged)]"
    // A limit of 0 is none.
    case .stream(let parent, let html, let atStart, let limit):
      "[\"s\",\(quote(parent)),\(quote(html)),\(atStart ? 1 : 0),\(limit ?? 0)]"
    }
  }
}

/// What a session tells the page about its uploads (``ServerMessage/uploads``).
public enum UploadSignal: Equatable, Sendable {
  /// The files the page offered on the input `id`, in order: each one's reference to send its
  /// bytes under, or 0 for one refused.
  case offered(id: String, references: [UInt32])
  /// `bytes` of the file `reference` have arrived, all told: the page may send more.
  case received(reference: UInt32, bytes: Int)
  /// Send nothing more of the file `reference` (cancelled, failed or finished).
  case stop(reference: UInt32)

  /// `["o", id, [reference, …]]`, `["a", reference, bytes]` or `["x", reference]`.
  var json: String {
    switch self {
    case .offered(let id, let references):
      "[\"o\",\(quote(id)),[\(references.map(String.init).joined(separator: ","))]]"
    case .received(let reference, let bytes): "[\"a\",\(reference),\(bytes)]"
    case .stop(let reference): "[\"x\",\(reference)]"
    }
  }
}

/// `text` as a JSON string. `escapingLessThan` (the default) writes `<` as `\u003c`, so a
/// server message embedded in a page can never close its `<script>`; a page's own message
/// (``ClientMessage/json``) keeps `<` as it is, so re-encoding it never makes it longer than
/// what the page sent (a click id of 4,000 `<` once re-encoded past the size limit).
func quote(_ text: String, escapingLessThan: Bool = true) -> String {
  var output = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": output += "\\\""
    case "\\": output += "\\\\"
    case "\n": output += "\\n"
    case "\r": output += "\\r"
    case "\t": output += "\\t"
    // The short forms: a page's `\b` must not come back as `\u0008`, three times longer (the
    // fuzzer once re-encoded a message past the size limit this way).
    case "\u{08}": output += "\\b"
    case "\u{0C}": output += "\\f"
    case "<" where escapingLessThan: output += "\\u003c"  // never `</script>` in a page
    default:
      if scalar.value < 0x20 {
        output +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
  }
  return output + "\""
}
