import Gallery
import Tether
import TetherWeb

/// A for-sale photo: its texts and the picture.
@MainActor
final class PhotoDetailScreen: WebScreen {
  private let detail: PhotoDetailViewModel

  init(_ detail: PhotoDetailViewModel) {
    self.detail = detail
  }

  var body: Markup<Never> {
    vstack {
      h2 { detail.titleText }
      p { detail.photographerText }
      p(.class("dim")) { detail.availabilityLine }
      p(.class("viewers"), .role("status"), .hidden(detail.viewersText == nil)) {
        detail.viewersText ?? ""
      }
      // Only an address the page may load is shown as an image.
      image(source: detail.imageURL, description: detail.titleText)
      p { detail.cameraText }
      p(.class("dim")) { detail.detailsLine }
      p { detail.descriptionText }
    }
  }
}
