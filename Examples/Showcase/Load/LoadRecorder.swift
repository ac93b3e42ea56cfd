import Foundation
import LoopbackClient
import ShowcaseWeb
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
    /// TodoMVC: milliseconds from a gesture in one tab to the patch showing it in the
    /// browser's other tab.
    var livePatches: [Double] = []
    /// TodoMVC: milliseconds from the write's acknowledgement (committed) to that patch.
    var commitToPatch: [Double] = []
    /// TodoMVC: changes the other tab first saw in the redraw after its own node died.
    var liveAfterReconnect = 0
    /// TodoMVC: changes the other tab never saw as a patch before the run ended.
    var liveNeverSeen = 0
    /// TodoMVC: changes to an item that a later change to it replaced before the other tab
    /// saw them.
    var liveReplaced = 0
    /// TodoMVC: what the changes never seen would have shown.
    var liveUnseen: [String] = []
  }

  private let state = Mutex(State())

  func update(_ change: (inout State) -> Void) {
    state.withLock { change(&$0) }
  }

  var snapshot: State { state.withLock { $0 } }
}

extension WebServerStats {
  /// Reads `/stats` from the server on `port`; a server that cannot measure its heap fails
  /// the read (the load run checks the heap).
  static func read(port: Int) throws -> WebServerStats {
    let (status, body) = try Connection(port: port).get("/stats", port: port)
    guard status == 200, let stats = try? WebServerStats(json: body), stats.heapBytes != nil
    else {
      throw ConnectionError.unexpectedStatus(
        request: "GET /stats", status: status, body: String(body.prefix(120)))
    }
    return stats
  }

  /// The heap in use, 0 if unknown (``read(port:)`` refuses that).
  var heap: Int { heapBytes ?? 0 }
}

/// The `p`-th percentile (0...100) of `values`, nearest rank.
func percentile(_ values: [Double], _ p: Double) -> Double {
  guard !values.isEmpty else { return 0 }
  let sorted = values.sorted()
  let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}
