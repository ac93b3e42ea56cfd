import Foundation
import Gallery
import Testing
import TetherTesting

/// Search as you type, debounced on the screen's clock.
@MainActor
@Suite struct PhotoSearchTests {
  private func loaded(_ clock: TestClock<Duration>) async -> PhotoListViewModel {
    let list = PhotoListViewModel(
      service: StubPhotoService.catalog, timeZone: utc, searchClock: clock)
    await list.viewDidLoad()
    return list
  }

  @Test func theListFiltersOnceTypingPausesIgnoringCaseAndAccents() async throws {
    let clock = TestClock()
    let list = await loaded(clock)
    let photos = BundledPhotoService.page(1).photos
    let word = try #require(photos.first?.name.split(separator: " ").first).lowercased()
    let expected = photos.filter {
      $0.name.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }
    #expect(!expected.isEmpty && expected.count < photos.count)
    for (index, _) in word.enumerated() {
      list.searchText.value = String(word.prefix(index + 1))
      await clock.advance(by: .milliseconds(50))
    }
    #expect(list.rows.count == 20, "still typing: nothing filtered yet")
    await clock.advance(by: PhotoListViewModel.searchDelay)
    await expectEventually { list.rows.map(\.id) == expected.map(\.id) }
    #expect(list.statusText == "\(expected.count) photo\(expected.count == 1 ? "" : "s")")
  }

  @Test func choosingARowOpensTheFilteredPhotoAndClearingShowsAll() async throws {
    let clock = TestClock()
    let list = await loaded(clock)
    let photos = BundledPhotoService.page(1).photos
    // A title no other title contains: the search finds it alone.
    let target = try #require(
      photos.last { photo in
        !photo.name.isEmpty
          && photos.filter {
            $0.name.range(of: photo.name, options: [.caseInsensitive, .diacriticInsensitive])
              != nil
          }.count == 1
      })
    var alerts: [PhotoListViewModel.Alert] = []
    var routes = 0
    let alertToken = list.alert.observe { alerts.append($0) }
    let routeToken = list.route.observe { _ in routes += 1 }
    list.searchText.value = target.name
    await clock.advance(by: PhotoListViewModel.searchDelay)
    await expectEventually { list.rows.map(\.id) == [target.id] }
    list.userSelected(row: 0)
    #expect(
      alerts == (target.forSale ? [] : [.notForSale(photoName: target.name)])
        && routes == (target.forSale ? 1 : 0), "row 0 is the filtered photo")
    list.searchCancelled()
    #expect(list.rows.count == 20 && list.searchText.value == "")
    _ = (alertToken, routeToken)
  }

  @Test func noMatchSaysSoAndTheSearchFieldFocusIsState() async {
    let clock = TestClock()
    let list = await loaded(clock)
    list.searchRequested()
    #expect(list.isSearching)
    list.searchText.value = "zzzz no such title"
    await clock.advance(by: PhotoListViewModel.searchDelay)
    await expectEventually { list.rows.isEmpty }
    #expect(list.emptyStateMessage == "No photo title contains “zzzz no such title”")
    list.searchEnded()
    #expect(!list.isSearching && list.rows.isEmpty, "Enter keeps the search")
    list.searchCancelled()
    #expect(list.emptyStateMessage == nil && list.rows.count == 20)
  }
}
