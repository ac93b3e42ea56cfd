import Tether

/// Text in an element: `<p>` by default, or a heading, a `<span>`.
@MainActor
final class Label: WebView {
  private let text: Property<String>
  private let tag: String
  private let className: String?

  /// Creates a label that follows `text`.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - tag: The element, such as `p`, `h2` or `span`.
  ///   - className: A CSS class, such as `dim` or `error`.
  init(_ text: Property<String>, tag: String = "p", className: String? = nil) {
    self.text = text
    self.tag = tag
    self.className = className
  }

  /// Creates a label with fixed text.
  convenience init(_ text: String, tag: String = "p", className: String? = nil) {
    self.init(Property(value: text), tag: tag, className: className)
  }

  /// The element with its text.
  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    .element(tag, id: id, className.map { [("class", $0)] } ?? [], [.text(text.value)])
  }
}

/// Text that is absent while `nil`: an error or status line.
@MainActor
final class OptionalLabel: WebView {
  private let text: Property<String?>
  private let className: String
  private let role: String?

  /// Creates the label.
  ///
  /// - Parameters:
  ///   - text: The text, or `nil` for none.
  ///   - className: A CSS class.
  ///   - role: An ARIA role, such as `alert` for errors.
  init(_ text: Property<String?>, className: String, role: String? = nil) {
    self.text = text
    self.className = className
    self.role = role
  }

  /// A `<p>` with the text, or an empty hidden one.
  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    guard let text = text.value else { return .element("p", id: id, [("hidden", "")]) }
    var attributes = [(name: "class", value: className)]
    if let role { attributes.append(("role", role)) }
    return .element("p", id: id, attributes, [.text(text)])
  }
}

/// A spinner and its message, while `isActive`.
@MainActor
final class Spinner: WebView {
  private let isActive: Property<Bool>
  private let message: String

  /// Creates a spinner.
  init(isActive: Property<Bool>, message: String) {
    self.isActive = isActive
    self.message = message
  }

  /// A status line with an animated mark, or an empty hidden one.
  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    guard isActive.value else { return .element("p", id: id, [("hidden", "")]) }
    return .element(
      "p", id: id, [("class", "spinner"), ("role", "status")], [.text(message)])
  }
}

/// A button that sends one input.
@MainActor
final class Button: WebView {
  private let title: String
  private let isEnabled: Property<Bool>
  private let action: () -> Void

  /// Creates a button.
  init(
    _ title: String, isEnabled: Property<Bool> = Property(value: true),
    action: @escaping () -> Void
  ) {
    self.title = title
    self.isEnabled = isEnabled
    self.action = action
  }

  /// A `<button>`, disabled when not enabled.
  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    var attributes = [(name: "type", value: "button")]
    if isEnabled.value {
      context.onClick(id, action)
    } else {
      attributes.append(("disabled", ""))
    }
    return .element("button", id: id, attributes, [.text(title)])
  }
}

/// An image from a URL that may arrive later; the status text shows until it does.
@MainActor
final class Image: WebView {
  private let source: Property<String?>
  private let description: String
  private let status: Property<String?>
  private let pathPrefixes: [String]

  /// Creates an image.
  ///
  /// - Parameters:
  ///   - source: The image's URL, or `nil` while there is none. Only an address
  ///     ``WebImageSource`` allows is loaded; for another, the description is shown.
  ///   - description: The `alt` text.
  ///   - status: What to show while there is no image.
  ///   - pathPrefixes: This server's own image routes (`/images/` by default).
  init(
    source: Property<String?>, description: String,
    status: Property<String?> = Property(value: nil),
    pathPrefixes: [String] = WebImageSource.defaultPathPrefixes
  ) {
    self.source = source
    self.description = description
    self.status = status
    self.pathPrefixes = pathPrefixes
  }

  /// An `<img>`, or the status line (the description, for an address that is not an image's).
  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    guard let source = source.value else {
      return .element("p", id: id, [("class", "dim")], [.text(status.value ?? "")])
    }
    guard WebImageSource.isAllowed(source, pathPrefixes: pathPrefixes) else {
      return .element("p", id: id, [("class", "dim")], [.text(description)])
    }
    return .element("img", id: id, [("src", source), ("alt", description)])
  }
}

/// Views one under another.
@MainActor
final class VStack: WebView {
  private let views: [any WebView]

  /// Creates a stack.
  init(_ views: [any WebView]) {
    self.views = views
  }

  /// A `<div>` with each view, ids `<id>.0`, `<id>.1`, ….
  func render(id: String, in context: WebRenderContext) -> HTMLNode {
    .element(
      "div", id: id, [("class", "stack")],
      views.enumerated().map { index, view in view.render(id: "\(id).\(index)", in: context) })
  }

  /// Offers the key to each view in turn.
  func handle(key: WebKey) -> Bool {
    views.contains { $0.handle(key: key) }
  }

  /// The first view's key that has one, as `<index>:<key>`.
  var restorationKey: String? { views.restorationKey }

  /// Gives `key` back to the view at its index.
  func restore(_ key: String) {
    views.restore(key)
  }
}

extension Array where Element == any WebView {
  /// The first of these views' restoration keys that there is, as `<index>:<key>`.
  @MainActor var restorationKey: String? {
    for (index, view) in enumerated() {
      if let key = view.restorationKey { return "\(index):\(key)" }
    }
    return nil
  }

  /// Gives a key written by ``restorationKey`` back to the view at its index; a key naming
  /// no view changes nothing.
  @MainActor func restore(_ key: String) {
    guard let colon = key.firstIndex(of: ":"), let index = Int(key[..<colon]),
      indices.contains(index)
    else { return }
    self[index].restore(String(key[key.index(after: colon)...]))
  }
}
