/// A property a fuzz target checks did not hold for one input.
public struct PropertyViolation: Error, Equatable, CustomStringConvertible {
  /// What did not hold, and for what values.
  public var description: String

  /// Creates a violation.
  ///
  /// - Parameter description: What did not hold, and for what values.
  public init(_ description: String) {
    self.description = description
  }
}

/// Throws a ``PropertyViolation`` built from `message` unless `condition` holds.
///
/// - Parameters:
///   - condition: The property.
///   - message: What did not hold, evaluated only when it did not.
/// - Throws: ``PropertyViolation``.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(PropertyViolation) {
  if !condition { throw PropertyViolation(message()) }
}
