import ExampleSupport
import Foundation
import Testing

@testable import Gallery

@Suite struct PhotoDecodingTests {
  @Test(.enabled(if: fixtureTestsRun, "needs shared/fixtures beside the checkout"))
  func capturedResponseDecodesEveryPhoto() throws {
    let page = try JSONDecoder().decode(PhotoPage.self, from: Data(contentsOf: fixtureURL))
    #expect(page.photos.count == 20)
    #expect(page.currentPage == 1)
    #expect(page.totalPages == 1000)
    #expect(page.totalItems == 55_697)

    let first = try #require(page.photos.first)
    #expect(first.id == 230_200_335)
    #expect(first.name == "vienna.street")
    #expect(first.camera == nil)
    #expect(first.forSale)
    // 2017-10-01T10:23:31-04:00 is 14:23:31 UTC.
    #expect(first.createdAt == Date(timeIntervalSince1970: 1_506_867_811))
    #expect(first.createdAtUTCOffset == -4 * 3600)
    #expect(first.photographer == "W H")

    let yulia = try #require(page.photos.first { $0.name == "Юля" })
    #expect(yulia.description?.contains("<a href") == true)
    let beijing = try #require(page.photos.first { $0.name == "单诗涵 国家大剧院 北京" })
    #expect(beijing.camera == "NIKON D810")
    #expect(beijing.description == "")
  }

  @Test(.enabled(if: fixtureTestsRun, "needs shared/fixtures beside the checkout"))
  func capturedPhotosFormatAsTheSeedDescribes() throws {
    let page = try JSONDecoder().decode(PhotoPage.self, from: Data(contentsOf: fixtureURL))
    let dates = PhotoDateFormat(timeZone: utc)
    // Several photos are "Untitled": keep the first of each name.
    let cells = Dictionary(
      page.photos.map { ($0.name, PhotoListCellViewModel(photo: $0, dates: dates)) },
      uniquingKeysWith: { first, _ in first })
    #expect(cells["vienna.street"]?.descriptionText == "shooting in vienna")
    #expect(cells["couple"]?.descriptionText == "NIKON D500")
    #expect(cells["632"]?.descriptionText == "")
    #expect(cells["Black beach"]?.descriptionText == "IQ160 - HyperFocal: 0")
    let yulia = try #require(cells["Юля"])
    #expect(!yulia.descriptionText.contains("<"))
    #expect(!yulia.descriptionText.contains("\n"))
    #expect(yulia.descriptionText.hasPrefix("Canon EOS 5D Mark II - Я на других ресурсах:"))
    #expect(cells["vienna.street"]?.dateText == "2017-10-01")
  }

  @Test(.enabled(if: fixtureTestsRun, "needs shared/fixtures beside the checkout"))
  func reencodingKeepsTheOriginalTimestamp() throws {
    let page = try JSONDecoder().decode(PhotoPage.self, from: Data(contentsOf: fixtureURL))
    let data = try JSONEncoder().encode(page)
    let json = String(decoding: data, as: UTF8.self)
    #expect(json.contains("2017-10-01T10:23:31-04:00"))
    #expect(try JSONDecoder().decode(PhotoPage.self, from: data) == page)
  }

  @Test func bundledPagesRoundTripThroughTheWireFormat() throws {
    for number in [1, 2, 30] {
      let page = BundledPhotoService.page(number)
      let data = try JSONEncoder().encode(page)
      #expect(try JSONDecoder().decode(PhotoPage.self, from: data) == page)
    }
  }

  @Test func missingFieldIsNamedWithItsPath() {
    let json =
      #"{"current_page":1,"total_pages":1,"total_items":1,"feature":"popular","photos":[{"name":"x","created_at":"2017-10-01T10:23:31-04:00"}]}"#
    #expect(problem(decoding: json) == "missing field 'id' at photos[0]")
  }

  @Test func unparseableDateIsNamed() {
    let json =
      #"{"current_page":1,"total_pages":1,"total_items":1,"feature":"popular","photos":[{"id":1,"name":"x","created_at":"yesterday"}]}"#
    let text = problem(decoding: json)
    #expect(text?.hasPrefix("'photos[0].created_at'") == true)
    #expect(text?.contains("'yesterday' is not an ISO 8601 date") == true)
  }

  /// Found by the `json` fuzzer: Foundation's ISO 8601 parser read this text, and the photo
  /// then encoded to a timestamp (offset -23:00) that no longer decoded.
  @Test(
    "timestamps are strict: exactly YYYY-MM-DDTHH:MM:SS and Z or ±HH:MM up to 18 h",
    arguments: [
      "2016-06-20T10:31:6-06-20T10:103:4-23:00", "2017-02-30T10:00:00Z", "2017-10-01T24:00:00Z",
      "2017-10-01T10:23:31-19:00", "2017-10-01T10:23:31.5Z", "2017-10-01 10:23:31Z",
      "0999-10-01T10:23:31Z", "2017-10-01T10:23:31-04:60", "2017-10-01T10:23:31",
    ])
  func malformedTimestampsAreRefused(_ text: String) {
    #expect(Photo.parseTimestamp(text) == nil)
  }

  @Test(
    "a valid timestamp formats back to the same text",
    arguments: [
      "2017-10-01T10:23:31-04:00", "2016-02-29T23:59:59+18:00", "1999-12-31T00:00:00+05:45",
    ])
  func validTimestampsRoundTrip(_ text: String) throws {
    let (date, offset) = try #require(Photo.parseTimestamp(text))
    #expect(Photo.formatTimestamp(date, utcOffset: offset) == text)
    #expect(
      Photo.parseTimestamp("2017-10-01T14:23:31Z")?.0 == Date(timeIntervalSince1970: 1_506_867_811))
  }

  @Test func wrongTypeAndInvalidJSONAreNamed() {
    let wrongType =
      #"{"current_page":"one","total_pages":1,"total_items":1,"feature":"popular","photos":[]}"#
    #expect(problem(decoding: wrongType) == "'current_page' is not an integer")
    #expect(problem(decoding: "<html>502 Bad Gateway</html>") == "the response is not valid JSON")
    #expect(problem(decoding: "") == "the response is not valid JSON")
  }

  @Test func lenientFieldsFallBack() throws {
    let json =
      #"{"id":7,"name":null,"description":null,"camera":"","created_at":"2017-10-01T10:23:31Z","image_url":["https://a","https://b"]}"#
    let photo = try JSONDecoder().decode(Photo.self, from: Data(json.utf8))
    #expect(photo.name == "Untitled")
    #expect(photo.forSale == false)
    #expect(photo.imageURL == "https://a")
    #expect(photo.createdAtUTCOffset == 0)
  }

  private func problem(decoding json: String) -> String? {
    do {
      _ = try JSONDecoder().decode(PhotoPage.self, from: Data(json.utf8))
      return nil
    } catch let error as DecodingError {
      return error.readableDescription
    } catch {
      return "\(error)"
    }
  }
}

@Suite struct BundledCatalogTests {
  @Test func hasAtLeastFiveHundredPhotosOverSeveralPages() {
    #expect(BundledPhotoService.catalog.count >= 500)
    let first = BundledPhotoService.page(1)
    #expect(first.photos.count == 20)
    #expect(first.totalPages == 30)
    #expect(first.totalItems == BundledPhotoService.catalog.count)
    #expect(BundledPhotoService.page(30).hasNextPage == false)
    #expect(BundledPhotoService.page(31).photos.isEmpty)
    #expect(BundledPhotoService.page(0).photos.isEmpty)
  }

  @Test func isDeterministicWithUniqueIDs() {
    #expect(BundledPhotoService.makeCatalog(count: 600) == BundledPhotoService.catalog)
    #expect(Set(BundledPhotoService.catalog.map(\.id)).count == BundledPhotoService.catalog.count)
    let times = BundledPhotoService.catalog.map(\.createdAt)
    #expect(times == times.sorted(by: >))
  }

  @Test func isAsVariedAsTheRealData() {
    let photos = BundledPhotoService.catalog
    #expect(photos.contains { $0.camera == nil })
    #expect(photos.contains { $0.camera == "" })
    #expect(photos.contains { $0.description == nil })
    #expect(photos.contains { $0.description?.contains("<a href") == true })
    #expect(photos.contains { $0.description?.contains("\n") == true })
    #expect(
      photos.contains {
        $0.name.unicodeScalars.contains { $0.value >= 0x4E00 && $0.value <= 0x9FFF }
      })
    #expect(
      photos.contains {
        $0.name.unicodeScalars.contains { $0.value >= 0x0400 && $0.value <= 0x04FF }
      })
    #expect(photos.contains { $0.name == "Untitled" })
    #expect(photos.contains { $0.forSale })
    #expect(photos.contains { !$0.forSale })
    #expect(Set(photos.map(\.createdAtUTCOffset)).count >= 4)
  }
}

@Suite struct PhotoImageTests {
  @Test func thePictureIsDeterministicAndDiffersByPhoto() {
    let first = PhotoImage(photoID: 230_200_400)
    #expect(first == PhotoImage(photoID: 230_200_400))
    #expect(first != PhotoImage(photoID: 230_200_393))
    #expect(first.pixels.count == PhotoImage.defaultWidth * PhotoImage.defaultHeight)
    // A landscape, not a flat fill: many distinct colours.
    #expect(Set(first.pixels.map { "\($0.red),\($0.green),\($0.blue)" }).count > 20)
    #expect(first.luminance(x: -1, y: 0) == nil && first.luminance(x: 0, y: 200) == nil)
  }

  @Test func thePNGIsAValidFileHoldingThePixels() throws {
    let image = PhotoImage(photoID: 230_200_400, width: 300, height: 240)  // > 65,535 raw bytes
    let png = image.png()
    #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    // Walk the chunks, checking every length and CRC.
    var offset = 8
    var chunks: [(type: String, data: [UInt8])] = []
    while offset + 12 <= png.count {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      let data = Array(png[offset + 8..<offset + 8 + length])
      let crc = png[offset + 8 + length..<offset + 12 + length].reduce(UInt32(0)) {
        $0 << 8 | UInt32($1)
      }
      #expect(crc == PNGEncoder.crc32(Array(type.utf8) + data), "\(type)")
      chunks.append((type, data))
      offset += 12 + length
    }
    #expect(offset == png.count)
    #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
    #expect(chunks.first?.data == [0, 0, 1, 44, 0, 0, 0, 240, 8, 2, 0, 0, 0])
    // Inflate the stored blocks and compare with the pixels, row by row after the filter byte.
    let zlib = try #require(chunks.dropFirst().first?.data)
    var raw: [UInt8] = []
    var position = 2
    var final = false
    while !final {
      final = zlib[position] & 1 == 1
      let length = Int(zlib[position + 1]) | Int(zlib[position + 2]) << 8
      let complement = Int(zlib[position + 3]) | Int(zlib[position + 4]) << 8
      #expect(length ^ complement == 0xFFFF)
      raw += zlib[position + 5..<position + 5 + length]
      position += 5 + length
    }
    #expect(zlib.count == position + 4)
    #expect(PNGEncoder.adler32(raw) == zlib[position...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    #expect(raw.count == 240 * (300 * 3 + 1))
    let pixel = image.pixels[5 * 300 + 7]
    let start = 5 * (300 * 3 + 1) + 1 + 7 * 3
    #expect(raw[start - 7 * 3 - 1] == 0)
    #expect(Array(raw[start..<start + 3]) == [pixel.red, pixel.green, pixel.blue])
  }

  @Test func theCatalogPointsEachPhotoAtItsPicture() {
    for photo in BundledPhotoService.catalog.prefix(50) {
      #expect(PhotoImage.photoID(inPath: photo.imageURL) == photo.id)
      #expect(BundledPhotoService.photo(id: photo.id) == photo)
    }
    #expect(PhotoImage.photoID(inPath: "/images/photos/12.jpg") == nil)
    #expect(PhotoImage.photoID(inPath: "https://img/1.png") == nil)
    #expect(BundledPhotoService.photo(id: 230_200_401) == nil)
    #expect(BundledPhotoService.photo(id: -7) == nil)
  }
}
