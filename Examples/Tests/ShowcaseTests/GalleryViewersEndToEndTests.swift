import Foundation
import Gallery
import ShowcaseBrowser
import Testing

/// Presence across browsers: two separate Chromium instances (two browsers, no shared cookie)
/// open the same photo, each is told the other is there, and when one goes the other's count
/// goes with it.
extension EndToEnd {
  @Suite(.serialized, .enabled(if: browserIsInstalled, "needs chromium and chromedriver"))
  struct GalleryViewersEndToEndTests {
    @Test func twoBrowsersOnOnePhotoSeeEachOtherJoinAndLeave() async throws {
      // A closed page's session is let go after a second, and its presence with it.
      let showcase = try await WebShowcase(arguments: ["--session-grace", "1"])
      let first = try await Browser(width: 800, height: 900)
      let second = try await Browser(width: 800, height: 900)
      do {
        let photos = BundledPhotoService.page(1).photos
        let forSale = try #require(photos.first { $0.forSale })
        let other = try #require(photos.last { $0.forSale && $0.id != forSale.id })
        let viewers = "#screen p.viewers:not([hidden])"
        try await first.open(showcase.url + "/gallery/photo/\(forSale.id)")
        try await first.waitUntil("the photo") { try await first.count("#screen h2") == 1 }
        #expect(try await first.count(viewers) == 0, "alone: no count")

        try await second.open(showcase.url + "/gallery/photo/\(forSale.id)")
        try await first.waitUntil("the first browser counts two") {
          try await first.text(viewers) == "2 viewers now"
        }
        try await second.waitUntil("the second browser counts two") {
          try await second.text(viewers) == "2 viewers now"
        }

        // Another photo is another topic: the second browser moves there.
        try await second.open(showcase.url + "/gallery/photo/\(other.id)")
        try await second.waitUntil("the other photo") {
          try await second.text("#screen h2") == other.name
        }
        #expect(try await second.count(viewers) == 0)
        try await first.waitUntil("the first browser alone again") {
          try await first.count(viewers) == 0
        }

        try await second.open(showcase.url + "/gallery/photo/\(forSale.id)")
        try await first.waitUntil("two again") { try await first.text(viewers) == "2 viewers now" }
        await second.quit()
        try await first.waitUntil("the closed browser leaves") {
          try await first.count(viewers) == 0
        }
      } catch {
        await first.quit()
        await second.quit()
        _ = await showcase.stop()
        throw error
      }
      await first.quit()
      _ = await showcase.stop()
    }
  }
}
