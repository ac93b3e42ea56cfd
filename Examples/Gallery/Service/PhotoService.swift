import ExampleSupport

/// Where the gallery's photos come from.
///
/// Two real implementations: ``BundledPhotoService`` (the embedded default) and
/// ``HTTPPhotoService`` (any server speaking the 500px v1 format, such as `showcase-api`).
public protocol PhotoService: Sendable {
  /// One page of the `popular` feature.
  ///
  /// - Parameter page: The page number, starting at 1.
  /// - Returns: The page.
  /// - Throws: A ``ServiceError`` saying why the page could not be had.
  func popularPhotos(page: Int) async throws(ServiceError) -> PhotoPage

  /// One photo by id, for a deep link to its detail (`GET /v1/photos/:id`).
  ///
  /// - Parameter id: The photo's id.
  /// - Returns: The photo.
  /// - Throws: ``ServiceError/unexpectedStatus(_:)`` with 404 for an unknown id, or why the
  ///   photo could not be loaded.
  func photo(id: Int) async throws(ServiceError) -> Photo
}
