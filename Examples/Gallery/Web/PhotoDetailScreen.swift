import Gallery
import Tether
import TetherWeb

/// A for-sale photo: its texts and the picture.
@MainActor
final class PhotoDetailScreen: WebScreen {
  private let detail: PhotoDetailViewModel
  /// The picture: `Image` shows only addresses the page may load.
  private let picture: Image

  init(_ detail: PhotoDetailViewModel) {
    self.detail = detail
    picture = Image(source: Property(value: detail.imageURL), description: detail.titleText)
  }

  var body: Markup<Never> {
    vstack {
      h2 { detail.titleText }
      p { detail.photographerText }
      p(.class("dim")) { detail.availabilityLine }
      picture
      p { detail.cameraText }
      p(.class("dim")) { detail.detailsLine }
      p { detail.descriptionText }
    }
  }
}
