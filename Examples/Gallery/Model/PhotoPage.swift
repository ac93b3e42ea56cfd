import Foundation

/// One page of the `popular` feature, as `GET /v1/photos?feature=popular&page=N` returns it.
public struct PhotoPage: Equatable, Sendable, Codable {
  /// This page's number, starting at 1.
  public var currentPage: Int
  /// How many pages the feature has.
  public var totalPages: Int
  /// How many photos the feature has.
  public var totalItems: Int
  /// The feature's name, `popular`.
  public var feature: String
  /// The photos on this page.
  public var photos: [Photo]

  /// Creates a page.
  ///
  /// - Parameters:
  ///   - currentPage: The page number.
  ///   - totalPages: The number of pages.
  ///   - totalItems: The number of photos in all pages.
  ///   - feature: The feature's name.
  ///   - photos: The photos on this page.
  public init(
    currentPage: Int, totalPages: Int, totalItems: Int, feature: String = "popular",
    photos: [Photo]
  ) {
    self.currentPage = currentPage
    self.totalPages = totalPages
    self.totalItems = totalItems
    self.feature = feature
    self.photos = photos
  }

  enum CodingKeys: String, CodingKey {
    case photos, feature
    case currentPage = "current_page"
    case totalPages = "total_pages"
    case totalItems = "total_items"
  }

  /// Whether a page after this one exists.
  public var hasNextPage: Bool { currentPage < totalPages }
}
