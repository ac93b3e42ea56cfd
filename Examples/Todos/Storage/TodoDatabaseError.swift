/// Why a store could not be opened, in one line that names the file or the server, for a
/// person starting the app: the app prints it and exits with status 2.
public struct TodoDatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The line to print.
  public var description: String

  /// Creates an error.
  ///
  /// - Parameter description: The line to print.
  public init(_ description: String) {
    self.description = description
  }
}
