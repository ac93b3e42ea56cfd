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
  }
}

/// The gallery's `yyyy-MM-dd` date format in one time zone.
///
/// One value formats every row: seed 000 created a `DateFormatter` per cell, which is the slow
/// part of building a page (benchmark S9 measures it).
public struct PhotoDateFormat: Sendable {
  /// The time zone dates are shown in.
  public let timeZone: TimeZone
  private let style: Date.ISO8601FormatStyle

  /// Creates the format for `timeZone`.
  ///
  /// - Parameter timeZone: The zone to show dates in; the user's own by default.
  public init(timeZone: TimeZone = .current) {
    self.timeZone = timeZone
    style = Date.ISO8601FormatStyle(timeZone: timeZone).year().month().day().dateSeparator(.dash)
  }

  /// `date` as `yyyy-MM-dd` in ``timeZone``.
  ///
  /// - Parameter date: The instant to format.
  /// - Returns: The calendar date, e.g. `2017-10-01`.
  public func string(from date: Date) -> String {
    date.formatted(style)
  }
}
