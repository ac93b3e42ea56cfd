import ExampleSupport
import Foundation

/// What one row of the photo list shows (seed 000's `PhotoListCellViewModel`).
public struct PhotoListCellViewModel: Identifiable, Equatable, Hashable, Sendable {
  /// The photo's id, so list diffs can follow a row.
  public let id: Int
  /// The photo's title.
  public let titleText: String
  /// Camera and description joined by " - ", empty parts skipped, HTML removed, one line.
  public let descriptionText: String
  /// The upload date as `yyyy-MM-dd`.
  public let dateText: String
  /// The image's address.
  public let imageURL: String
  /// Whether selecting the row opens the detail screen.
  public let isForSale: Bool
  /// The row's second line: the date, then the description when there is one.
  public let subtitleText: String

  /// Formats `photo` for a row.
  ///
  /// - Parameters:
  ///   - photo: The photo.
  ///   - dates: The date format (time zone included) shared by all rows.
  public init(photo: Photo, dates: PhotoDateFormat) {
    id = photo.id
    titleText = photo.name
    descriptionText = [photo.camera, photo.description]
      .compactMap { $0?.plainText(singleLine: true) }
      .filter { !$0.isEmpty }
      .joined(separator: " - ")
    dateText = dates.string(from: photo.createdAt)
    imageURL = photo.imageURL
    isForSale = photo.forSale
    subtitleText = [dateText, descriptionText].filter { !$0.isEmpty }.joined(separator: " · ")
  }
}
