import Foundation
import Synchronization

/// What every client of a load run saw, gathered from their threads.
final class LoadRecorder: Sendable {
  struct State {
    var sessionsStarted = 0
    var sessionsCompleted = 0
    var requests = 0
    var latencies: [Double] = []  // milliseconds
    var errors: [String] = []
    var isolationViolations: [String] = []
    var badClientRuns: [String: Int] = [:]
    var badClientFailures: [String] = []
    /// Milliseconds from a broken socket to the whole app back, per reconnect.
    var reconnects: [Double] = []
    /// Gestures sent again after a reconnect (the one retry a client is allowed).
    var retriedGestures = 0
    /// Gestures that failed even after that retry.
    var lostGestures = 0
    /// Misbehaving clients whose socket a node kill cut before they could be judged.
    var badClientRunsCutByKill = 0
    /// Nodes killed during the run.
    var kills = 0
  }

  private let state = Mutex(State())

  func update(_ change: (inout State) -> Void) {
    state.withLock { change(&$0) }
  }

  var snapshot: State { state.withLock { $0 } }
}

/// One `/stats` reading.
struct ServerStats: Sendable {
  var sessions: Int
  var liveViewModels: Int
  var heapBytes: Int

  /// Reads `/stats` from the server on `port`.
  static func read(port: Int) throws -> ServerStats {
    let (status, body) = try Connection(port: port).get("/stats", port: port)
    guard status == 200,
      let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
      let sessions = object["sessions"] as? Int,
      let viewModels = object["liveViewModels"] as? Int,
      let heap = object["heapBytes"] as? Int
    else { throw ConnectionError("unexpected /stats answer \(status): \(body.prefix(120))") }
    return ServerStats(sessions: sessions, liveViewModels: viewModels, heapBytes: heap)
  }
}

/// The `p`-th percentile (0...100) of `values`, nearest rank.
func percentile(_ values: [Double], _ p: Double) -> Double {
  guard !values.isEmpty else { return 0 }
  let sorted = values.sorted()
  let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}
