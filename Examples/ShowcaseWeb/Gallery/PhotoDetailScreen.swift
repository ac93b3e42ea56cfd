import Gallery
import Tether
import TetherWeb

/// A for-sale photo: its texts and the picture.
@MainActor
enum PhotoDetailScreen {
  static func view(_ detail: PhotoDetailViewModel) -> any WebView {
    VStack([
      Label(detail.titleText, tag: "h2"),
      Label(detail.photographerText),
      Label(detail.availabilityLine, className: "dim"),
      Image(source: Property(value: detail.imageURL), description: detail.titleText),
      Label(detail.cameraText),
      Label(detail.detailsLine, className: "dim"),
      Label(detail.descriptionText),
    ])
  }
}
