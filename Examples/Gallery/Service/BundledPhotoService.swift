import ExampleSupport
import Foundation

/// The gallery's embedded catalog: 600 photos in 30 pages, generated deterministically and as
/// varied as the real 500px data (CJK, Cyrillic and "Untitled" names; `null`, `""`, multi-line
/// and HTML descriptions; missing cameras; several UTC offsets; about a third for sale).
public struct BundledPhotoService: PhotoService {
  /// Photos per page, as the 500px API pages them.
  public static let pageSize = 20
  /// Every photo of the catalog, newest first.
  public static let catalog: [Photo] = makeCatalog(count: 600)

  /// Creates the service.
  public init() {}

  /// The requested page; pages past the end are empty, as the API returns them.
  public func popularPhotos(page: Int) async throws(ServiceError) -> PhotoPage {
    Self.page(page)
  }

  /// The catalog's photo with `id`.
  public func photo(id: Int) async throws(ServiceError) -> Photo {
    guard let photo = Self.photo(id: id) else { throw .unexpectedStatus(404) }
    return photo
  }

  /// The catalog's photo with `id`, or `nil`.
  ///
  /// - Parameter id: The photo's id.
  /// - Returns: The photo.
  public static func photo(id: Int) -> Photo? {
    // Ids step down by 7 from the first photo's: the index is arithmetic, not a search.
    let offset = firstID - id
    guard offset >= 0, offset % idStep == 0, offset / idStep < catalog.count else { return nil }
    return catalog[offset / idStep]
  }

  private static let firstID = 230_200_400
  private static let idStep = 7

  /// The catalog's page `number`, synchronously (for servers and benchmarks).
  ///
  /// - Parameter number: The page number, starting at 1. Out-of-range numbers give an empty page.
  /// - Returns: The page.
  public static func page(_ number: Int) -> PhotoPage {
    let totalPages = (catalog.count + pageSize - 1) / pageSize
    let start = (number - 1) * pageSize
    let photos =
      number >= 1 && start < catalog.count
      ? Array(catalog[start..<min(start + pageSize, catalog.count)]) : []
    return PhotoPage(
      currentPage: number, totalPages: totalPages, totalItems: catalog.count, photos: photos)
  }

  /// Builds `count` photos from a fixed seed.
  ///
  /// - Parameter count: How many photos to make.
  /// - Returns: The photos, newest first.
  public static func makeCatalog(count: Int) -> [Photo] {
    var random = SeededGenerator(seed: 500)
    // 2017-10-01T14:23:31Z, the newest photo of the captured 500px page.
    var time = Date(timeIntervalSince1970: 1_506_867_811)
    return (0..<count).map { index in
      time = time.addingTimeInterval(-Double(20 + random.next() % 90))
      let width = 2_000 + Int(random.next() % 4_000)
      return Photo(
        id: firstID - index * idStep,
        name: random.pick(titles) ?? "Untitled",
        description: random.pick(descriptions) ?? nil,
        camera: random.pick(cameras) ?? nil,
        createdAt: time,
        createdAtUTCOffset: random.pick(offsets) ?? 0,
        imageURL: PhotoImage.path(forPhotoID: firstID - index * idStep),
        forSale: random.next() % 3 == 0,
        width: width,
        height: width * (2 + Int(random.next() % 3)) / 4,
        rating: Double(700 + random.next() % 300) / 10,
        photographer: random.pick(photographers))
    }
  }

  private static let titles = [
    "vienna.street", "couple", "Юля", "632", "单诗涵 国家大剧院 北京", "锦绣中华壮美山川之二",
    "Untitled", "Jatiluwih Rice Terraces, Bali", "sea, my sea", "korea restaurant 韩国餐厅",
    "构成", "Black beach", "Villaggio Di Pescatori", "Moose Bog", "徐敏-外白渡桥-上海外滩",
    "Whirlpool", "Flowering heath", "Untitled", "東京タワー", "Ночная Москва", "Lisboa, 6 a.m.",
    "Fjord light", "雨后的西湖", "Golden hour 🌅", "Café de Flore", "Untitled",
  ]

  private static let descriptions: [String?] = [
    nil, "", "", "shooting in vienna", "New Hampshire", "HyperFocal: 0",
    "Я на других ресурсах: \n<a href=\"https://example.org/yulia\">instagram</a>",
    "Morning light over the harbour.\nShot handheld, no filters.",
    "More on <a href=\"https://example.org\">my site</a> &amp; portfolio", "雨后的西湖，游人稀少。",
    "  Long exposure, 30s at f/11  ", "Follow me: <b>@lightchaser</b>",
  ]

  private static let cameras: [String?] = [
    nil, nil, "", "NIKON D500", "NIKON D810", "NIKON D800E", "Canon EOS 5D Mark II",
    "Canon EOS 5D Mark III", "Canon EOS 50D", "IQ160", "SLT-A65V", "NIKON D5200",
    "FUJIFILM X-T2", "iPhone 7 Plus",
  ]

  private static let offsets = [-4 * 3600, 8 * 3600, 3 * 3600, 0, 19_800, -7 * 3600, 9 * 3600]

  private static let photographers = [
    "W H", "Анна Петрова", "李明", "Sofia Marques", "田中 花子", "Oskar Lindqvist",
  ]
}
