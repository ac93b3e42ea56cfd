import Foundation

// tether-bench: Tether side by side with hand-written closures, OpenCombine and Observation,
// in one process. Run with
// `swift run --package-path Benchmarks -c release tether-bench [--json PATH] [--filter S1,S3] [--quick]`.

var arguments = CommandLine.arguments.dropFirst()
var jsonPath: String?
var filter: Set<String>?
var quick = false
var iterations: Int?
while let argument = arguments.popFirst() {
  switch argument {
  case "--json":
    guard let path = arguments.popFirst() else {
      FileHandle.standardError.write(Data("error: --json needs a file path\n".utf8))
      exit(2)
    }
    jsonPath = path
  case "--filter":
    guard let list = arguments.popFirst() else {
      FileHandle.standardError.write(Data("error: --filter needs a list like S1,S3\n".utf8))
      exit(2)
    }
    filter = Set(list.split(separator: ",").map { $0.uppercased() })
  case "--quick":
    quick = true
  case "--iterations":
    guard let text = arguments.popFirst(), let count = Int(text), count > 0 else {
      FileHandle.standardError.write(Data("error: --iterations needs a positive count\n".utf8))
      exit(2)
    }
    iterations = count
  case "--serve":
    // The child server of W6 and W7 (see ServerScenario.swift).
    guard let name = arguments.popFirst(), let kind = ServedKind(rawValue: name) else {
      FileHandle.standardError.write(
        Data(
          "error: --serve needs counter, counter-scale, showcase, hummingbird, nio, nio-hop or upload\n"
            .utf8))
      exit(2)
    }
    do {
      try await serve(kind)
    } catch {
      FileHandle.standardError.write(Data("error: the \(name) server stopped: \(error)\n".utf8))
      exit(1)
    }
  case "--help", "-h":
    print(
      """
      usage: tether-bench [--json PATH] [--filter S1,S2,...] [--quick] [--iterations N]
        --json PATH    also write the results as JSON to PATH
        --filter LIST  run only these scenarios (S1 to S10, W1 to W10, W6P)
        --quick        3 repetitions of 50 ms instead of 5 of 200 ms (smoke test, not figures)
        --iterations N exactly N operations per repetition, no calibration: fixed work for
                       `valgrind --tool=callgrind` instruction counts
      """)
    exit(0)
  default:
    FileHandle.standardError.write(
      Data("error: unknown argument '\(argument)' (see --help)\n".utf8))
    exit(2)
  }
}

@MainActor
func wants(_ scenario: String) -> Bool {
  filter.map { $0.contains(scenario) } ?? true
}

let bench = Bench(
  repetitions: quick ? 3 : 5, minimumDuration: quick ? .milliseconds(50) : .milliseconds(200))
bench.fixedIterations = iterations
#if DEBUG
  print("warning: this is a debug build; figures are meaningless. Use `swift run -c release`.")
#endif
print(
  "tether-bench: median of \(bench.repetitions) repetitions of >= \(bench.minimumDuration) each;"
    + " ratio = median / the scenario's baseline in this run\n")
bench.printHeader()
if wants("S1") { runS1(bench) }
if wants("S2") {
  runS2(bench, observers: 10)
  runS2(bench, observers: 1_000)
}
if wants("S3") {
  runS3(bench, existing: 0)
  runS3(bench, existing: 10_000)
}
if wants("S4") { runS4(bench) }
if wants("S5") { runS5(bench) }
if wants("S6") { runS6(bench) }
if wants("S7") { await runS7(bench) }
if wants("S8") {
  for count in [10_000, 100_000] {
    for percent in [1, 10] { runS8(bench, count: count, percent: percent) }
  }
}
if wants("S9") { runS9(bench) }
if wants("S10") { await runS10(bench) }
if wants("W1") { await runW1(bench) }
if wants("W2") {
  await runW2(bench)
  await runW2Parts(bench)
}
if wants("W3") { runW3(bench) }
if wants("W4") { await runW4(bench, keys: quick ? 40 : 200) }
if wants("W5") { await runW5(bench, trials: quick ? 20 : 100) }
if wants("W6") { await runW6(bench, gestures: quick ? 300 : 3_000) }
if wants("W6P") { await runW6Paced(bench, gestures: quick ? 40 : 200) }
if wants("W7") { await runW7(bench) }
if wants("W8") { await runW8(bench) }
if wants("W9") {
  await runW9(bench, counts: quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 300_000])
}
if wants("W10") { await runW10(bench, bytes: quick ? 5_000_000 : 50_000_000) }
print("\nchecksum \(bench.checksum)")
if let jsonPath {
  do {
    try bench.writeJSON(to: jsonPath)
    print("wrote \(jsonPath)")
  } catch {
    FileHandle.standardError.write(Data("error: could not write \(jsonPath): \(error)\n".utf8))
    exit(1)
  }
}
