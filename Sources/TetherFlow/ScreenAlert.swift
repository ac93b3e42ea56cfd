/// A modal alert as a value: a title, a message and its buttons. Flows build alerts from typed
/// view-model outputs; no view or flow compares message strings.
public struct ScreenAlert: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// One button of an alert.
  public struct Button: Equatable, Hashable, Sendable {
    /// What pressing the button means.
    public enum Role: Equatable, Hashable, Sendable {
      /// Acknowledges the alert (OK).
      case acknowledge
      /// Backs out of the alert (Cancel); Escape presses it when the alert has one.
      case cancel
      /// Goes ahead with something.
      case confirm
    }

    /// The label.
    public var title: String
    /// What it means.
    public var role: Role

    /// Creates a button.
    ///
    /// - Parameters:
    ///   - title: The label.
    ///   - role: What it means.
    public init(_ title: String, role: Role = .acknowledge) {
      self.title = title
      self.role = role
    }

    /// The single button of an informational alert.
    public static let ok = Button("OK")
  }

  /// The alert's title.
  public var title: String
  /// The message.
  public var message: String
  /// The buttons, in reading order; never empty.
  public var buttons: [Button]

  /// Creates an alert.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The message.
  ///   - buttons: The buttons; an empty list means a single OK button.
  public init(title: String, message: String, buttons: [Button] = [.ok]) {
    self.title = title
    self.message = message
    self.buttons = buttons.isEmpty ? [.ok] : buttons
  }

  /// The button Escape presses: the cancel button if there is one, else the only or last one.
  public var escapeButton: Button {
    buttons.first { $0.role == .cancel } ?? buttons.last ?? .ok
  }

  /// A short description for failure messages.
  public var description: String { "\(title): \(message)" }
}
