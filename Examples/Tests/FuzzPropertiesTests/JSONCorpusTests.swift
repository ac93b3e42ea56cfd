import Foundation
import FuzzProperties
import Testing

/// The apps' JSON decoding properties over the `json` target's seed corpus
/// (`Fuzz/Corpus/json`) and every input a fuzzer ever failed on (`Fuzz/Regressions/json`), so a
/// fixed crash stays fixed in `swift test`, with no fuzzer needed. The library's targets have
/// the same tests at the root.
@Suite struct JSONCorpusTests {
  static let fuzzRoot = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Fuzz")

  static func inputs(_ folder: String) throws -> [(String, [UInt8])] {
    let directory = fuzzRoot.appending(path: folder).appending(path: "json")
    // A missing folder is an error, not an empty list: a moved or renamed folder would
    // otherwise make these tests pass having checked nothing.
    guard FileManager.default.fileExists(atPath: directory.path) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: directory.path])
    }
    return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
      .filter { !$0.hasPrefix(".") }
      .map { name in (name, Array(try Data(contentsOf: directory.appending(path: name)))) }
  }

  @Test func theSeedCorpusHolds() throws {
    let inputs = try Self.inputs("Corpus")
    #expect(inputs.count >= 5, "Fuzz/Corpus/json has \(inputs.count) seeds")
    for (name, bytes) in inputs {
      #expect(throws: Never.self, "Corpus/json/\(name)") {
        try JSONDecodingProperties.check(bytes)
      }
    }
  }

  @Test func everyInputAFuzzerFailedOnHoldsNow() throws {
    for (name, bytes) in try Self.inputs("Regressions") {
      #expect(throws: Never.self, "Regressions/json/\(name)") {
        try JSONDecodingProperties.check(bytes)
      }
    }
  }
}
