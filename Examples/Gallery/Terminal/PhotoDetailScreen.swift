import Gallery
import Tether
import TetherTerminal

/// A for-sale photo: its texts, and a shaded preview of the picture (a custom drawing).
final class PhotoDetailScreen: TerminalScreen {
  typealias Action = Never
  private let detail: PhotoDetailViewModel
  private let preview: ShadedImageView<PhotoImage>

  init(_ detail: PhotoDetailViewModel) {
    self.detail = detail
    preview = ShadedImageView(image: Property(value: detail.preview))
  }

  var body: TerminalMarkup<Never> {
    vstack {
      text(detail.titleText).bold()
      text(detail.photographerText)
      text(detail.availabilityLine).foreground(.green)
      text(detail.cameraText)
      text(detail.detailsLine).dim()
      text("")
      text(detail.descriptionText, wraps: true)
      text("")
      canvas(preview)
      spacer()
      text(detail.imageURL).dim()
    }
  }
}
