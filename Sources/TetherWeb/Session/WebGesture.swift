/// The page's gesture a session is handling, while its handler runs.
///
/// Its ``id`` is unique to the page and the same each time the page sends the gesture, which
/// it does again when its server died before acknowledging it (``ClientEnvelope``). The
/// action of a gesture that creates something carries it to the view model's input, so the
/// retry creates nothing twice:
///
/// ```swift
/// textField(model.newTitle, label: "New todo").onSubmit { .add(gesture: $0) }
/// // …
/// func handle(_ action: Action) {
///   switch action {
///   case .add(let gesture): model.addRequested(id: gesture?.id)
///   }
/// }
/// ```
public struct WebGesture: Equatable, Sendable {
  /// The session's id and the page's number for the gesture, such as `3f2a…-17`.
  public var id: String

  /// Creates a gesture.
  ///
  /// - Parameter id: Its id.
  public init(id: String) {
    self.id = id
  }

  /// The gesture being handled, or `nil` outside a handler (or for a page that does not
  /// number its gestures).
  @TaskLocal public static var current: WebGesture?
}
