import Foundation

/// A photo as the 500px API v1 describes it (`GET /v1/photos`).
///
/// Decoding is lenient where real responses vary — `description` and `camera` may be `null`,
/// `""` or free text with HTML; `for_sale` may be missing; `image_url` may be a string or an
/// array — and strict where a photo would be meaningless without a field (`id`, a parseable
/// `created_at`). Encoding writes the same wire format, keeping `created_at`'s original UTC
/// offset, so a catalog served over HTTP reads back identically.
public struct Photo: Identifiable, Equatable, Hashable, Sendable {
  /// The photo's 500px id.
  public var id: Int
  /// The title; "Untitled" when the API sends none.
  public var name: String
  /// Free text that may contain newlines and HTML; `nil` when absent.
  public var description: String?
  /// The camera model; `nil` when absent.
  public var camera: String?
  /// When the photo was uploaded.
  public var createdAt: Date
  /// The UTC offset, in seconds, `created_at` was written with (kept for faithful re-encoding).
  public var createdAtUTCOffset: Int
  /// The image's address.
  public var imageURL: String
  /// Whether the photo can be bought: only those open the detail screen (seed 000).
  public var forSale: Bool
  /// The image's width in pixels, when known.
  public var width: Int?
  /// The image's height in pixels, when known.
  public var height: Int?
  /// 500px's rating, when known.
  public var rating: Double?
  /// The photographer's display name, when known.
  public var photographer: String?

  /// Creates a photo.
  ///
  /// - Parameters:
  ///   - id: The 500px id.
  ///   - name: The title.
  ///   - description: Free text, possibly with HTML.
  ///   - camera: The camera model.
  ///   - createdAt: The upload time.
  ///   - createdAtUTCOffset: The offset `created_at` is written with, in seconds.
  ///   - imageURL: The image's address.
  ///   - forSale: Whether the photo can be bought.
  ///   - width: The width in pixels.
  ///   - height: The height in pixels.
  ///   - rating: The 500px rating.
  ///   - photographer: The photographer's display name.
  public init(
    id: Int, name: String, description: String?, camera: String?, createdAt: Date,
    createdAtUTCOffset: Int = 0, imageURL: String, forSale: Bool, width: Int? = nil,
    height: Int? = nil, rating: Double? = nil, photographer: String? = nil
  ) {
    self.id = id
    self.name = name
    self.description = description
    self.camera = camera
    self.createdAt = createdAt
    self.createdAtUTCOffset = createdAtUTCOffset
    self.imageURL = imageURL
    self.forSale = forSale
    self.width = width
    self.height = height
    self.rating = rating
    self.photographer = photographer
  }
}

extension Photo: Codable {
  enum CodingKeys: String, CodingKey {
    case id, name, description, camera, width, height, rating, user
    case createdAt = "created_at"
    case imageURL = "image_url"
    case forSale = "for_sale"
  }

  enum UserKeys: String, CodingKey {
    case fullname
  }

  /// Decodes a photo from the 500px v1 format.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    let name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
    self.name = name.isEmpty ? "Untitled" : name
    description = try container.decodeIfPresent(String.self, forKey: .description)
    camera = try container.decodeIfPresent(String.self, forKey: .camera)
    let created = try container.decode(String.self, forKey: .createdAt)
    guard let (date, offset) = Self.parseTimestamp(created) else {
      throw DecodingError.dataCorruptedError(
        forKey: .createdAt, in: container,
        debugDescription: "'\(created)' is not an ISO 8601 date with a UTC offset")
    }
    createdAt = date
    createdAtUTCOffset = offset
    if let url = try? container.decode(String.self, forKey: .imageURL) {
      imageURL = url
    } else {
      imageURL = try container.decodeIfPresent([String].self, forKey: .imageURL)?.first ?? ""
    }
    forSale = try container.decodeIfPresent(Bool.self, forKey: .forSale) ?? false
    width = try container.decodeIfPresent(Int.self, forKey: .width)
    height = try container.decodeIfPresent(Int.self, forKey: .height)
    rating = try container.decodeIfPresent(Double.self, forKey: .rating)
    if container.contains(.user), try !container.decodeNil(forKey: .user) {
      let user = try container.nestedContainer(keyedBy: UserKeys.self, forKey: .user)
      photographer = try user.decodeIfPresent(String.self, forKey: .fullname)
    } else {
      photographer = nil
    }
  }

  /// Encodes the photo in the 500px v1 format.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(description, forKey: .description)
    try container.encode(camera, forKey: .camera)
    try container.encode(
      Self.formatTimestamp(createdAt, utcOffset: createdAtUTCOffset), forKey: .createdAt)
    try container.encode(imageURL, forKey: .imageURL)
    try container.encode(forSale, forKey: .forSale)
    try container.encodeIfPresent(width, forKey: .width)
    try container.encodeIfPresent(height, forKey: .height)
    try container.encodeIfPresent(rating, forKey: .rating)
    if let photographer {
      var user = container.nestedContainer(keyedBy: UserKeys.self, forKey: .user)
      try user.encode(photographer, forKey: .fullname)
    }
  }

  /// Parses `2017-10-01T10:23:31-04:00` (or `…Z`) into the instant and its offset in seconds.
  ///
  /// Strict: exactly `YYYY-MM-DDTHH:MM:SS` with a four-digit year, then `Z` or `±HH:MM` up to
  /// ±18:00, every field in range and the day existing in its month. Anything else is `nil`,
  /// so whatever parses formats back (``formatTimestamp(_:utcOffset:)``) to the same text.
  static func parseTimestamp(_ text: String) -> (Date, Int)? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20 || bytes.count == 25 else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    func separator(_ index: Int, _ character: Unicode.Scalar) -> Bool {
      bytes[index] == UInt8(ascii: character)
    }
    guard let year = number(0..<4), separator(4, "-"), let month = number(5..<7),
      separator(7, "-"), let day = number(8..<10), separator(10, "T"),
      let hour = number(11..<13), separator(13, ":"), let minute = number(14..<16),
      separator(16, ":"), let second = number(17..<19),
      year >= 1000, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
      second < 60
    else { return nil }
    let offset: Int
    if bytes.count == 20 {
      guard separator(19, "Z") else { return nil }
      offset = 0
    } else {
      guard separator(19, "+") || separator(19, "-"), let hours = number(20..<22),
        separator(22, ":"), let minutes = number(23..<25), minutes < 60,
        hours * 3600 + minutes * 60 <= 18 * 3600
      else { return nil }
      let magnitude = hours * 3600 + minutes * 60
      offset = separator(19, "-") ? -magnitude : magnitude
    }
    guard let zone = TimeZone(secondsFromGMT: offset) else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let components = DateComponents(
      calendar: calendar, timeZone: zone, year: year, month: month, day: day, hour: hour,
      minute: minute, second: second)
    guard components.isValidDate, let date = components.date else { return nil }
    return (date, offset)
  }

  /// Formats an instant as 500px does: local time at `utcOffset`, then the offset.
  static func formatTimestamp(_ date: Date, utcOffset: Int) -> String {
    let zone = TimeZone(secondsFromGMT: utcOffset) ?? .gmt
    let local = date.formatted(
      Date.ISO8601FormatStyle(timeZone: zone).year().month().day().time(
        includingFractionalSeconds: false
      )
      .dateSeparator(.dash).timeSeparator(.colon))
    let sign = utcOffset < 0 ? "-" : "+"
    let magnitude = abs(utcOffset)
    let hours = magnitude / 3600
    let minutes = magnitude % 3600 / 60
    return local + sign + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "")
      + String(minutes)
  }
}
