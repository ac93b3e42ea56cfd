import Foundation

/// A modal alert as a value: a title, a message and its buttons. Flows build alerts from typed
/// view-model outputs; no view or flow compares message strings. A button can carry the action
/// it asks of the flow as data (``Button/init(_:role:action:)``), so a test asserts it and a
/// resumed web session restores the alert with its meaning.
public struct ScreenAlert: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
  /// One button of an alert.
  public struct Button: Codable, Equatable, Hashable, Sendable {
    /// What pressing the button means.
    public enum Role: String, Codable, Equatable, Hashable, Sendable {
      /// Acknowledges the alert (OK).
      case acknowledge
      /// Backs out of the alert (Cancel); Escape presses it when the alert has one.
      case cancel
      /// Goes ahead with something.
      case confirm
      /// Does something that cannot be undone (Delete, Discard). Enter never presses it unless
      /// the alert names it as its default (``ScreenAlert/init(title:message:buttons:default:style:)``);
      /// view layers mark it as dangerous.
      case destructive
    }

    /// The label.
    public var title: String
    /// What it means.
    public var role: Role
    /// What pressing it asks of the flow, encoded (JSON): the action given to
    /// ``init(_:role:action:)``, or `nil` for a button that only dismisses. It is data, so a
    /// test compares it, a web session's resume token carries it to another server, and the
    /// flow rebuilt there receives it on ``Navigator/alertResponses``.
    public var payload: String?

    /// Creates a button.
    ///
    /// - Parameters:
    ///   - title: The label.
    ///   - role: What it means.
    ///   - payload: What pressing it asks of the flow, already encoded; see
    ///     ``init(_:role:action:)``.
    public init(_ title: String, role: Role = .acknowledge, payload: String? = nil) {
      self.title = title
      self.role = role
      self.payload = payload
    }

    /// Creates a button that asks the flow for `action` when pressed.
    ///
    /// ```swift
    /// enum CourseAction: Codable, Equatable { case remove(id: Int) }
    ///
    /// let remove = ScreenAlert.Button("Remove", role: .confirm, action: CourseAction.remove(id: 2))
    /// ```
    ///
    /// The flow observes ``Navigator/alertResponses`` and reads the action back with
    /// ``action(as:)``. Give each flow an action type of its own.
    ///
    /// - Parameters:
    ///   - title: The label.
    ///   - role: What it means.
    ///   - action: The flow's action, encoded as JSON with sorted keys (so equal actions make
    ///     equal buttons). An action that cannot be encoded leaves the button without one.
    public init(_ title: String, role: Role = .acknowledge, action: some Encodable) {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      let payload = (try? encoder.encode(action)).map { String(decoding: $0, as: UTF8.self) }
      self.init(title, role: role, payload: payload)
    }

    /// The action this button asks for, read as `type`: `nil` for a button without one, or one
    /// of another type.
    ///
    /// - Parameter type: The flow's action type.
    /// - Returns: The action, or `nil`.
    public func action<Action: Decodable>(as type: Action.Type = Action.self) -> Action? {
      guard let payload else { return nil }
      return try? JSONDecoder().decode(Action.self, from: Data(payload.utf8))
    }

    /// The single button of an informational alert.
    public static let ok = Button("OK")
  }

  /// How a view layer draws an alert.
  public enum Style: String, Codable, Equatable, Hashable, Sendable {
    /// A box with a message and its buttons side by side: a question with two or three
    /// answers.
    case alert
    /// A list of actions one under another, the cancel button last: a choice among several
    /// things to do (SwiftUI's confirmation dialog, UIKit's action sheet). ↑ and ↓ move between
    /// them too (``ScreenStack/handleAlertKey(_:)``).
    case confirmationDialog
  }

  /// The alert's title.
  public var title: String
  /// The message.
  public var message: String
  /// The buttons, in reading order; never empty.
  public var buttons: [Button]
  /// The button the alert names as Enter's, if any; see ``defaultButton``.
  public var preferredDefault: Button?
  /// How it is drawn; the keys' rule is the same for both styles.
  public var style: Style

  /// Creates an alert.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The message.
  ///   - buttons: The buttons; an empty list means a single OK button.
  ///   - preferredDefault: The button Enter presses, when the rule of ``defaultButton`` is not
  ///     wanted: the only way to make a destructive button the default. A button not among
  ///     `buttons` is ignored.
  ///   - style: How it is drawn: an alert, or a confirmation dialog's list of actions.
  public init(
    title: String, message: String, buttons: [Button] = [.ok],
    default preferredDefault: Button? = nil, style: Style = .alert
  ) {
    self.title = title
    self.message = message
    let buttons = buttons.isEmpty ? [Button.ok] : buttons
    self.buttons = buttons
    self.preferredDefault = preferredDefault.flatMap { buttons.contains($0) ? $0 : nil }
    self.style = style
  }

  /// Decodes an alert, keeping the rules that it has at least one button and that its
  /// preferred default is one of them.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: The decoder's error for a missing or mistyped field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      title: try container.decode(String.self, forKey: .title),
      message: try container.decode(String.self, forKey: .message),
      buttons: try container.decode([Button].self, forKey: .buttons),
      default: try container.decodeIfPresent(Button.self, forKey: .preferredDefault),
      style: try container.decodeIfPresent(Style.self, forKey: .style) ?? .alert)
  }

  /// The button Escape (``ScreenKey/cancel``) presses: the cancel button if there is one, else
  /// the last button that is not destructive, else none (an alert whose buttons are all
  /// destructive waits for a choice).
  public var escapeButton: Button? {
    buttons.first { $0.role == .cancel } ?? buttons.last { $0.role != .destructive }
  }

  /// The button Enter (``ScreenKey/activate``) presses, by one rule for every view layer:
  ///
  /// 1. the alert's ``preferredDefault``, if it names one;
  /// 2. else the first button that goes ahead without harm (``Button/Role/acknowledge`` or
  ///    ``Button/Role/confirm``);
  /// 3. else the cancel button, so Enter on "Delete / Cancel" cancels;
  /// 4. else none: an alert whose buttons are all destructive, and names no default, ignores
  ///    Enter.
  ///
  /// A destructive button is never the default unless the alert says so. View layers mark the
  /// default button.
  public var defaultButton: Button? {
    if let preferredDefault { return preferredDefault }
    return buttons.first { $0.role == .acknowledge || $0.role == .confirm }
      ?? buttons.first { $0.role == .cancel }
  }

  /// The button a keyboard starts on: the ``defaultButton``, else the ``escapeButton``, else
  /// the first. Enter presses the button the keyboard is on (``ScreenStack/alertFocus``), so
  /// it presses the default until the person moves to another with Tab or an arrow.
  public var initialFocus: Int {
    let start = defaultButton ?? escapeButton
    return start.flatMap { buttons.firstIndex(of: $0) } ?? 0
  }

  /// The button `key` presses: ``defaultButton`` for ``ScreenKey/activate``,
  /// ``escapeButton`` for ``ScreenKey/cancel``, none for the others (an alert takes every key,
  /// and most do nothing).
  ///
  /// - Parameter key: The key.
  /// - Returns: The button, or `nil`.
  public func button(for key: ScreenKey) -> Button? {
    switch key {
    case .activate: defaultButton
    case .cancel: escapeButton
    case .up, .down, .pageUp, .pageDown, .home, .end, .next, .previous: nil
    }
  }

  /// A short description for failure messages.
  public var description: String { "\(title): \(message)" }
}
