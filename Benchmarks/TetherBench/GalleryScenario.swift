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

/// S9: the Gallery pipeline, JSON bytes to cell view models, per photo.
@MainActor
func runS9(_ bench: Bench) {
  let scenario = "S9 Gallery: decode + cells"
  let pages = (1...30).compactMap { try? JSONEncoder().encode(BundledPhotoService.page($0)) }
  let photosPerPass = BundledPhotoService.catalog.count
  guard pages.count == 30 else {
    print("\(scenario): skipped (the catalog could not be encoded)")
    return
  }
  let decoder = JSONDecoder()
  let utc = TimeZone(identifier: "UTC") ?? .gmt

  bench.measure(
    scenario, "seed: DateFormatter per cell", baseline: true,
    note: "per photo; \(photosPerPass) photos a pass", initialCount: 1
  ) { n in
    for _ in 0..<n {
      for data in pages {
        guard let page = try? decoder.decode(PhotoPage.self, from: data) else { continue }
        for photo in page.photos { bench.checksum &+= SeedCell(photo: photo).dateText.utf8.count }
      }
    }
  }
  let seedPerPhoto = bench.lastMedian / Double(photosPerPass)

  let dates = PhotoDateFormat(timeZone: utc)
  bench.measure(scenario, "Gallery: one PhotoDateFormat", initialCount: 1) { n in
    for _ in 0..<n {
      for data in pages {
        guard let page = try? decoder.decode(PhotoPage.self, from: data) else { continue }
        for photo in page.photos {
          bench.checksum &+= PhotoListCellViewModel(photo: photo, dates: dates).dateText.utf8.count
        }
      }
    }
  }
  let galleryPerPhoto = bench.lastMedian / Double(photosPerPass)
  print(
    String(
      format: "  S9 throughput: seed %.0f photos/s, Gallery %.0f photos/s",
      1e9 / seedPerPhoto, 1e9 / galleryPerPhoto))
}
