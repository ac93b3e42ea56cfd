import TetherFlow

extension ArraySlice<String> {
  /// The id in a two-component path `<name>/<integer>`, such as `photo/230200335`.
  ///
  /// - Parameter name: The first component a flow accepts.
  /// - Returns: The integer.
  /// - Throws: ``NavigationError/unknownComponent(_:)`` naming the whole path for any other
  ///   shape.
  func identifier(named name: String) throws(NavigationError) -> Int {
    guard count == 2, first == name, let id = last.flatMap({ Int($0) }) else {
      throw .unknownComponent(joined(separator: "/"))
    }
    return id
  }
}
