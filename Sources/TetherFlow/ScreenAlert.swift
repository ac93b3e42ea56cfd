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

  /// The button Escape (``ScreenKey/cancel``) presses: the cancel button if there is one,
  /// else the last one.
  public var escapeButton: Button {
    buttons.first { $0.role == .cancel } ?? buttons.last ?? .ok
  }

  /// The button Enter (``ScreenKey/activate``) presses: the first button that is not a cancel
  /// button, else the first one. View layers mark it as the default.
  public var defaultButton: Button {
    buttons.first { $0.role != .cancel } ?? buttons.first ?? .ok
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
    case .up, .down, .pageUp, .pageDown, .home, .end: nil
    }
  }

  /// A short description for failure messages.
  public var description: String { "\(title): \(message)" }
}
