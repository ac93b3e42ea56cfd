import ExampleSupport
import Foundation
import Gallery

/// The captured 500px response in `shared/fixtures`, found in the nearest folder above this
/// file that has it (the checkout's parent in CI and on a developer's machine), so moving this
/// file to another depth cannot make the tests below skip unnoticed.
let fixtureURL: URL = {
  let relative = "shared/fixtures/500px/popular-page1.json"
  var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  while folder.path != "/" {
    let candidate = folder.appendingPathComponent(relative)
    if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
    folder.deleteLastPathComponent()
  }
  return URL(fileURLWithPath: "/").appendingPathComponent(relative)
}()

/// Whether the fixture tests run: always in CI (`CI` set), where a missing fixture must fail
/// them rather than skip them; elsewhere only when the fixture is present.
let fixtureTestsRun =
  ProcessInfo.processInfo.environment["CI"] != nil
  || FileManager.default.fileExists(atPath: fixtureURL.path)

let utc = TimeZone(identifier: "UTC") ?? .gmt

/// Records which pages were requested.
actor RequestLog {
  private(set) var pages: [Int] = []
  func record(_ page: Int) { pages.append(page) }
}

/// A service answering from a closure, recording every request.
struct StubPhotoService: PhotoService {
  let log = RequestLog()
  let respond: @Sendable (Int) async throws(ServiceError) -> PhotoPage

  func popularPhotos(page: Int) async throws(ServiceError) -> PhotoPage {
    await log.record(page)
    return try await respond(page)
  }

  /// The photo with `id` among the pages `respond` answers, searched from page 1.
  func photo(id: Int) async throws(ServiceError) -> Photo {
    var page = 1
    while true {
      let answer = try await respond(page)
      if let photo = answer.photos.first(where: { $0.id == id }) { return photo }
      guard answer.hasNextPage else { throw .unexpectedStatus(404) }
      page += 1
    }
  }

  /// Pages of the bundled catalog.
  static var catalog: StubPhotoService {
    StubPhotoService { page throws(ServiceError) in BundledPhotoService.page(page) }
  }

  /// Fails every request with `error`.
  static func failing(_ error: ServiceError) -> StubPhotoService {
    StubPhotoService { _ throws(ServiceError) in throw error }
  }
}

func photo(
  id: Int, name: String = "Title", description: String? = nil, camera: String? = nil,
  forSale: Bool = false
) -> Photo {
  Photo(
    id: id, name: name, description: description, camera: camera,
    createdAt: Date(timeIntervalSince1970: 1_506_867_811), createdAtUTCOffset: -14_400,
    imageURL: "https://img.example.org/\(id).jpg", forSale: forSale)
}
