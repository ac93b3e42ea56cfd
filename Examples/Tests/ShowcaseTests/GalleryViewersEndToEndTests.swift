import Foundation
import Gallery
import ShowcaseBrowser
import ShowcaseWeb
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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

    /// Presence outlives no node: two browsers on one photo with their sockets on two nodes of
    /// a cluster count each other through PostgreSQL; one browser closes and the node that held
    /// it is killed at once, before its session's grace (1 s) could end and say the viewer left.
    /// The other nodes drop the dead node's viewer within the presence timeout (6 s, plus a 2 s
    /// heartbeat).
    @Test(.enabled(if: haproxyIsInstalled, "needs haproxy"))
    func aKilledNodesViewerLeavesTheOtherNodesCount() async throws {
      let cluster = try await ClusterShowcase(arguments: ["--session-grace", "1"])
      let first = try await Browser(width: 800, height: 900)
      let second = try await Browser(width: 800, height: 900)
      do {
        let photos = BundledPhotoService.page(1).photos
        let forSale = try #require(photos.first { $0.forSale })
        let url = cluster.url + "/gallery/photo/\(forSale.id)"
        let viewers = "#screen p.viewers:not([hidden])"
        try await first.open(url)
        try await first.waitUntil("the photo") { try await first.count("#screen h2") == 1 }
        let firstNode = try await Self.nodeServing(count: 1, in: cluster)
        // The second browser's socket on another node: the balancer takes turns by request.
        var secondNode: Int?
        for _ in 0..<12 where secondNode == nil {
          try await second.open(url)
          try await second.waitUntil("the photo") { try await second.count("#screen h2") == 1 }
          let connected = try await cluster.connectedByNode()
          if connected.values.reduce(0, +) == 2, connected[firstNode] == 1 {
            secondNode = connected.first { $0.key != firstNode && $0.value == 1 }?.key
          }
          if secondNode == nil {
            _ = try await second.runAsync(
              "const done = arguments[0]; fetch('/health').then(() => done(true), () => done(false));"
            )
          }
        }
        let node = try #require(secondNode, "the second browser's socket never on another node")
        try await first.waitUntil("each counts the other", seconds: 20) {
          try await first.text(viewers) == "2 viewers now"
        }
        try await second.waitUntil("the second counts two") {
          try await second.text(viewers) == "2 viewers now"
        }

        let pid = try #require(cluster.nodes[node]?.pid)
        await second.quit()
        #expect(kill(pid, SIGKILL) == 0)
        let killed = ContinuousClock.now
        try await first.waitUntil("the killed node's viewer leaves", seconds: 20) {
          try await first.count(viewers) == 0
        }
        let seconds = (ContinuousClock.now - killed).components.seconds
        print("figure: a killed node's viewer left the other node's count after \(seconds) s")
        #expect(seconds <= 15, "within the presence timeout and a heartbeat")
      } catch {
        await first.quit()
        await second.quit()
        _ = await cluster.stop()
        throw error
      }
      await first.quit()
      #expect(await cluster.stop() == 0, "showcase-cluster exits 0 on SIGTERM")
    }

    /// The one node with `count` connected pages.
    private static func nodeServing(count: Int, in cluster: ClusterShowcase) async throws -> Int {
      let connected = try await cluster.connectedByNode()
      guard let node = connected.first(where: { $0.value == count })?.key,
        connected.values.reduce(0, +) == count
      else { throw ClusterTestError(description: "no one node serving: \(connected)") }
      return node
    }
  }
}
