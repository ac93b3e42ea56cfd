/// Why `openRequested(id:)` — every app's entry point for a link to one item — did not open it.
/// One error for all five apps, so a flow turns any of them into the same sentence.
public enum OpenError: Error, Equatable, Sendable {
  /// No item has this id.
  case notFound
  /// The item, or the list it is in, could not be loaded.
  case unavailable(ServiceError)

  /// A sentence for the user about `item`, such as "There is no course 999." or
  /// "Photo 12 could not be opened: Server is overloaded".
  ///
  /// - Parameter item: What the link named, such as `"course 999"`.
  /// - Returns: The sentence.
  public func reason(for item: String) -> String {
    switch self {
    case .notFound: "There is no \(item)."
    case .unavailable(let error):
      "\(item.prefix(1).uppercased() + item.dropFirst()) could not be opened: \(error.userMessage)"
    }
  }
}
