import Foundation
import HeapStatistics
import Tether
import TetherFlow
@_spi(HandBuilt) import TetherWeb

/// W9: a feed streamed through a session (TetherFlow's `ListStream`, drawn by TetherWeb's
/// `stream`): the heap a session holds once 1,000 rows have passed through it, against once
/// 100,000 have, each on a fresh session; with the time and bytes a row costs. The page keeps
/// the newest 1,000 rows, and each row has a button, so the session keeps the handlers of the
/// rows the page shows.
@MainActor
func runW9(_ bench: Bench, counts: [Int]) async {
  let scenario = "W9 stream of rows"
  for (index, count) in counts.enumerated() {
    // A first, unmeasured session warms the runtime's caches.
    if index == 0 { _ = await streamRows(1_000) }
    guard let figures = await streamRows(count) else {
      invalid("\(scenario): the rows did not reach the page")
    }
    bench.record(
      scenario, "heap held after \(count) rows", baseline: index == 0,
      samples: [Double(figures.heap)], unit: "bytes", note: "limit 1,000, a button a row")
    bench.record(
      scenario, "time per row, \(count) rows", samples: [figures.nanosecondsPerRow],
      unit: "ns/op", note: "insert, render, patch, encode")
    bench.record(
      scenario, "bytes sent per row, \(count) rows", samples: [figures.bytesPerRow],
      unit: "bytes")
    bench.checksum &+= figures.heap
  }
}

private struct FeedRow: Identifiable {
  let id: Int
  let text: String
}

@MainActor
private final class FeedModel {
  let rows = ListStream<FeedRow>(limit: 1_000)
  private(set) var pinned = 0
  func pin(_ id: Int) { pinned = id }
}

@MainActor
private struct FeedScreen: WebScreen {
  let model: FeedModel

  var body: Markup<WebCall> {
    stream(model.rows, .class("feed")) { row in
      span { row.text }
      button("Pin").onClick { model.pin(row.id) }
    }
  }
}

@MainActor
private final class FeedFlow: FlowController {
  let model = FeedModel()
  func start(on navigator: any Navigator<FeedModel>) -> Screen<FeedModel> {
    Screen(model, title: "Feed", owner: self)
  }
}

/// Streams `count` rows through a fresh session with a page attached; `nil` when the page was
/// not sent them all.
@MainActor
private func streamRows(
  _ count: Int
) async -> (heap: Int, nanosecondsPerRow: Double, bytesPerRow: Double)? {
  let flow = FeedFlow()
  let app = WebApp(title: "Feed", rootFlow: { flow }) { FeedScreen(model: $0.destination) }
  let registry = WebSessionRegistry(app: app, firstRender: .held, appearanceWait: .zero)
  defer { registry.closeAll() }
  guard case .page(_, let id) = await registry.page(for: "/") else { return nil }
  final class Sink {
    var bytes = 0
    var last = ""
  }
  let sink = Sink()
  _ = registry.attach(id, resync: false) { message in
    sink.bytes &+= message.utf8.count
    sink.last = message
  }
  await Task.yield()
  let before = heap_statistics_bytes_in_use()
  let clock = ContinuousClock()
  let start = clock.now
  for row in 0..<count {
    flow.model.rows.insert(FeedRow(id: row, text: "Row \(row): a line of the feed, as a log has"))
    // A feed's rows arrive over time: the session sends what came in each turn.
    if row % 100 == 99 { await Task.yield() }
  }
  for _ in 0..<10 { await Task.yield() }
  let elapsed = clock.now - start
  let heap = Int(heap_statistics_bytes_in_use() - before)
  // The last row went out: the page was sent every row, not only kept in a buffer.
  guard sink.last.contains("Row \(count - 1):") else { return nil }
  let nanoseconds =
    Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
  return (heap, nanoseconds / Double(count), Double(sink.bytes) / Double(count))
}
