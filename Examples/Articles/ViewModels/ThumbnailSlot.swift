import ExampleSupport
import Foundation
import Tether

/// The thumbnail state shared by both view models: load once, publish through properties.
@MainActor
final class ThumbnailSlot {
  let image = MutableProperty<Thumbnail?>(nil)
  let status: MutableProperty<String?>
  private let url: URL?
  private let loader: any ThumbnailLoader
  private var hasStarted = false

  init(url: URL?, loader: any ThumbnailLoader) {
    self.url = url
    self.loader = loader
    status = MutableProperty(url == nil ? "No image" : "Loading image…")
  }

  func load() async {
    guard let url, !hasStarted else { return }
    hasStarted = true
    do {
      let thumbnail = try await loader.thumbnail(at: url)
      status.value = nil
      image.value = thumbnail
    } catch {
      status.value = "Image unavailable: \(error.userMessage)"
    }
  }
}
