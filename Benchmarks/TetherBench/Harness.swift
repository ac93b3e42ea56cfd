import Foundation
import HeapStatistics

/// Timing results of one competitor in one scenario, in nanoseconds per operation.
struct Result: Codable {
  var scenario: String
  var competitor: String
  var isBaseline: Bool
  var minimum: Double
  var median: Double
  var maximum: Double
  var unit: String
  /// `median / baseline median` for the same scenario, measured in the same run.
  var ratio: Double?
  var note: String?
}

/// Collects results and prints them as a table.
@MainActor
final class Bench {
  private(set) var results: [Result] = []
  let repetitions: Int
  let minimumDuration: Duration
  /// When set, every measurement performs exactly this many operations per repetition instead
  /// of calibrating to `minimumDuration`: fixed work for instruction counting under callgrind.
  var fixedIterations: Int?
  /// Sums every observed value so no competitor's work can be optimized away; printed at the end.
  var checksum = 0

  init(repetitions: Int, minimumDuration: Duration) {
    self.repetitions = repetitions
    self.minimumDuration = minimumDuration
  }

  /// Measures `body(n)`, which performs `n` operations, and records nanoseconds per operation.
  ///
  /// `n` is calibrated so one repetition lasts at least `minimumDuration`; the figure is the
  /// median of `repetitions` repetitions.
  func measure(
    _ scenario: String, _ competitor: String, baseline: Bool = false, note: String? = nil,
    initialCount: Int = 16, unit: String = "ns/op", _ body: (Int) -> Void
  ) {
    let clock = ContinuousClock()
    var n = fixedIterations ?? initialCount
    while fixedIterations == nil {
      let elapsed = clock.measure { body(n) }
      if elapsed >= minimumDuration / 10 {
        let scale = Double(minimumDuration / elapsed) * 1.1
        n = max(n, Int(Double(n) * scale))
        break
      }
      n *= 4
    }
    var samples: [Double] = []
    for _ in 0..<repetitions {
      let elapsed = clock.measure { body(n) }
      samples.append(nanoseconds(elapsed) / Double(n))
    }
    record(scenario, competitor, baseline: baseline, samples: samples, unit: unit, note: note)
  }

  /// Async form, for work that needs the actor to turn (the `observe { }` re-run).
  ///
  /// `body(n)` performs `n` rounds of `perRound` operations each; the figure is per operation.
  func measureAsync(
    _ scenario: String, _ competitor: String, baseline: Bool = false, note: String? = nil,
    perRound: Int = 1, _ body: (Int) async -> Void
  ) async {
    let clock = ContinuousClock()
    var n = fixedIterations ?? 16
    while fixedIterations == nil {
      let start = clock.now
      await body(n)
      let elapsed = clock.now - start
      if elapsed >= minimumDuration / 10 {
        n = max(n, Int(Double(n) * Double(minimumDuration / elapsed) * 1.1))
        break
      }
      n *= 4
    }
    var samples: [Double] = []
    for _ in 0..<repetitions {
      let start = clock.now
      await body(n)
      samples.append(nanoseconds(clock.now - start) / Double(n * perRound))
    }
    record(scenario, competitor, baseline: baseline, samples: samples, unit: "ns/op", note: note)
  }

  /// The median of the most recent result, in its unit.
  var lastMedian: Double { results.last?.median ?? 0 }

  /// Records a figure measured some other way (bytes per subscription).
  func record(
    _ scenario: String, _ competitor: String, baseline: Bool = false, samples: [Double],
    unit: String, note: String? = nil
  ) {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    var result = Result(
      scenario: scenario, competitor: competitor, isBaseline: baseline,
      minimum: sorted.first ?? median, median: median, maximum: sorted.last ?? median, unit: unit,
      ratio: nil, note: note)
    if baseline {
      result.ratio = 1
    } else if let base = results.last(where: { $0.scenario == scenario && $0.isBaseline }) {
      result.ratio = median / base.median
    }
    results.append(result)
    printRow(result)
  }

  func printHeader() {
    print(
      pad("scenario", 34) + pad("competitor", 34) + lpad("min", 11) + lpad("median", 11)
        + lpad("max", 11) + "  unit    " + lpad("ratio", 8))
    print(String(repeating: "-", count: 34 + 34 + 33 + 10 + 8))
  }

  private func printRow(_ result: Result) {
    let ratio = result.ratio.map { String(format: "%.2fx", $0) } ?? "-"
    print(
      pad(result.scenario, 34) + pad(result.competitor, 34) + lpad(format(result.minimum), 11)
        + lpad(format(result.median), 11) + lpad(format(result.maximum), 11) + "  "
        + pad(result.unit, 8) + lpad(ratio, 8) + (result.note.map { "  (\($0))" } ?? ""))
  }

  func writeJSON(to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(results).write(to: URL(fileURLWithPath: path))
  }
}

func nanoseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

private func format(_ value: Double) -> String {
  value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
}

private func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

private func lpad(_ text: String, _ width: Int) -> String {
  text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
}

/// Bytes the allocator has handed out and not taken back (glibc), for memory-per-subscription.
func allocatedBytes() -> Int? {
  let bytes = heap_statistics_bytes_in_use()
  return bytes < 0 ? nil : Int(bytes)
}
