import Gallery
import Tether
import TetherTerminal

/// A for-sale photo: its texts, and a shaded preview of the picture.
@MainActor
enum PhotoDetailScreen {
  static func view(_ detail: PhotoDetailViewModel) -> any TerminalView {
    VStack([
      Label(detail.titleText, style: bold),
      Label(detail.photographerText),
      Label(detail.availabilityLine, style: CellStyle(foreground: .green)),
      Label(detail.cameraText),
      Label(detail.detailsLine, style: dim),
      Label(""),
      Label(detail.descriptionText, wraps: true),
      Label(""),
      ShadedImageView(image: Property(value: detail.preview)),
      Spacer(),
      Label(detail.imageURL, style: dim),
    ])
  }
}
