import ExampleSupport
import Foundation
import Gallery
import Testing

@Suite struct PhotoDecodingTests {
  @Test(.enabled(if: fixtureIsPresent, "needs ../shared/fixtures beside the checkout"))
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

  @Test(.enabled(if: fixtureIsPresent, "needs ../shared/fixtures beside the checkout"))
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

  @Test(.enabled(if: fixtureIsPresent, "needs ../shared/fixtures beside the checkout"))
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
