import Foundation
import Gallery
import Testing
import TetherPubSub
import TetherTesting

/// A photo's detail counts who else shows it, on any node: presence through TetherPubSub.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PhotoViewersTests {
  private let dates = PhotoDateFormat(timeZone: TimeZone(identifier: "UTC") ?? .current)

  @Test func twoScreensOfOnePhotoOnTwoNodesCountEachOtherAndOneLeaving() async throws {
    let bus = InProcessPubSub()
    let first = PubSub(transport: bus.transport(), node: "a")
    let second = PubSub(transport: bus.transport(), node: "b")
    try await first.start()
    try await second.start()
    let here = PhotoDetailViewModel(photo: photo(id: 7, forSale: true), dates: dates, pubsub: first)
    var there: PhotoDetailViewModel? = PhotoDetailViewModel(
      photo: photo(id: 7, forSale: true), dates: dates, pubsub: second)
    let elsewhere = PhotoDetailViewModel(
      photo: photo(id: 8, forSale: true), dates: dates, pubsub: second)
    await here.viewDidLoad()
    await there?.viewDidLoad()
    await elsewhere.viewDidLoad()
    // Each screen hears of the other in its own time: both are waited for.
    await expectEventually {
      here.viewersText == "2 viewers now" && there?.viewersText == "2 viewers now"
    }
    #expect(elsewhere.viewersText == nil, "another photo's viewers are not counted")
    there = nil  // the screen is gone: its entry leaves with it
    await expectEventually { here.viewersText == nil }
    await first.shutdown()
    await second.shutdown()
  }

  @Test func withoutPubSubNoOneIsCounted() async {
    let detail = PhotoDetailViewModel(photo: photo(id: 7, forSale: true), dates: dates)
    await detail.viewDidLoad()
    #expect(detail.viewersText == nil)
  }
}
