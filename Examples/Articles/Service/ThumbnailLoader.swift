import ExampleSupport
import Foundation

/// Loads thumbnails: ``BundledThumbnailLoader`` or ``HTTPThumbnailLoader``.
public protocol ThumbnailLoader: Sendable {
  /// The image at `url`.
  ///
  /// - Parameter url: The thumbnail's address (absolute, or relative to the loader's server).
  /// - Returns: The image.
  /// - Throws: A ``ServiceError``.
  func thumbnail(at url: URL) async throws(ServiceError) -> Thumbnail
}
