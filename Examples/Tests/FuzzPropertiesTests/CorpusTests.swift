import Foundation
import Testing
import TetherFuzzProperties

/// Every library fuzz target's properties over its seed corpus (`Fuzz/Corpus/<target>`) and over every
/// input a fuzzer ever failed on (`Fuzz/Regressions/<target>`), so a fixed crash stays fixed
/// in `swift test`, with no fuzzer needed.
@Suite struct CorpusTests {
  static let fuzzRoot = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Fuzz")

  static func inputs(_ folder: String, _ target: FuzzTarget) throws -> [(String, [UInt8])] {
    let directory = fuzzRoot.appending(path: folder).appending(path: target.rawValue)
    // A missing folder is an error, not an empty list: a moved or renamed folder would
    // otherwise make these tests pass having checked nothing.
    guard FileManager.default.fileExists(atPath: directory.path) else {
      throw MissingFolder(path: directory.path)
    }
    // Dot files (`.gitkeep` keeps a target's empty folder in git) are not inputs.
    return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
      .filter { !$0.hasPrefix(".") }
      .map { name in (name, Array(try Data(contentsOf: directory.appending(path: name)))) }
  }

  struct MissingFolder: Error, CustomStringConvertible {
    let path: String
    var description: String { "no folder at \(path)" }
  }

  @Test("the seed corpus holds", arguments: FuzzTarget.allCases)
  func seedCorpus(target: FuzzTarget) throws {
    let inputs = try Self.inputs("Corpus", target)
    #expect(inputs.count >= 5, "Fuzz/Corpus/\(target.rawValue) has \(inputs.count) seeds")
    for (name, bytes) in inputs {
      #expect(throws: Never.self, "Corpus/\(target.rawValue)/\(name)") {
        try target.check(bytes)
      }
    }
  }

  @Test("every input a fuzzer failed on holds now", arguments: FuzzTarget.allCases)
  func regressions(target: FuzzTarget) throws {
    for (name, bytes) in try Self.inputs("Regressions", target) {
      #expect(throws: Never.self, "Regressions/\(target.rawValue)/\(name)") {
        try target.check(bytes)
      }
    }
  }
}
