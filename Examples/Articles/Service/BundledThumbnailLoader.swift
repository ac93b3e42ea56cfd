import ExampleSupport
import Foundation

/// Generates thumbnails locally, after an optional delay that stands in for a download.
public struct BundledThumbnailLoader: ThumbnailLoader {
  private let delay: Duration

  /// Creates a loader.
  ///
  /// - Parameter delay: How long each load takes, so the asynchronous arrival is visible.
  public init(delay: Duration = .milliseconds(300)) {
    self.delay = delay
  }

  /// The generated image for `url`'s last path component.
  public func thumbnail(at url: URL) async throws(ServiceError) -> Thumbnail {
    if delay > .zero {
      do { try await Task.sleep(for: delay) } catch { throw .timedOut }
    }
    return Thumbnail.generated(for: url.lastPathComponent)
  }
}
