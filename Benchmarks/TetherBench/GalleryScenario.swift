import ExampleSupport
import Foundation
import Gallery

/// Seed 000's cell, built the seed's way: a `DateFormatter` created for every cell.
struct SeedCell {
  let titleText: String
  let descText: String
  let imageURL: String
  let dateText: String

  init(photo: Photo) {
    titleText = photo.name
    descText = [photo.camera, photo.description]
      .compactMap { $0?.plainText(singleLine: true) }
      .filter { !$0.isEmpty }
      .joined(separator: " - ")
    imageURL = photo.imageURL
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    dateText = formatter.string(from: photo.createdAt)
  }
}

/// S9: the Gallery pipeline, JSON bytes to cell view models. The unit is one pass over the
/// bundled catalog: 30 pages, 600 photos.
@MainActor
func runS9(_ bench: Bench) {
  let scenario = "S9 Gallery: decode + cells"
  let encoder = JSONEncoder()
  let pages: [Data]
  do {
    pages = try (1...30).map { try encoder.encode(BundledPhotoService.page($0)) }
  } catch {
    invalid("\(scenario): the catalog could not be encoded: \(error)")
  }
  let decoder = JSONDecoder()
  // Every page must decode to every photo before anything is timed; inside the timed loops a
  // failure stops the run too, so no pass can be cheaper by skipping a page.
  let photosPerPass = pages.reduce(0) { total, data in
    total + ((try? decoder.decode(PhotoPage.self, from: data))?.photos.count ?? 0)
  }
  guard photosPerPass == BundledPhotoService.catalog.count, photosPerPass > 0 else {
    invalid("\(scenario): \(photosPerPass) of \(BundledPhotoService.catalog.count) photos decode")
  }
  func decode(_ data: Data) -> PhotoPage {
    do {
      return try decoder.decode(PhotoPage.self, from: data)
    } catch {
      invalid("\(scenario): a page failed to decode: \(error)")
    }
  }
  let utc = TimeZone(identifier: "UTC") ?? .gmt

  bench.measure(
    scenario, "seed: DateFormatter per cell", baseline: true,
    note: "per pass of \(photosPerPass) photos", initialCount: 1, unit: "ns/pass"
  ) { n in
    for _ in 0..<n {
      for data in pages {
        for photo in decode(data).photos {
          bench.checksum &+= SeedCell(photo: photo).dateText.utf8.count
        }
      }
    }
  }
  let seedPerPass = bench.lastMedian

  let dates = PhotoDateFormat(timeZone: utc)
  bench.measure(
    scenario, "Gallery: one PhotoDateFormat", note: "per pass of \(photosPerPass) photos",
    initialCount: 1, unit: "ns/pass"
  ) { n in
    for _ in 0..<n {
      for data in pages {
        for photo in decode(data).photos {
          bench.checksum &+= PhotoListCellViewModel(photo: photo, dates: dates).dateText.utf8.count
        }
      }
    }
  }
  let galleryPerPass = bench.lastMedian
  print(
    String(
      format: "  S9 throughput: seed %.0f photos/s, Gallery %.0f photos/s",
      1e9 * Double(photosPerPass) / seedPerPass, 1e9 * Double(photosPerPass) / galleryPerPass))
}
