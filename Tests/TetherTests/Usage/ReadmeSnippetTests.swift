import Foundation
import Testing

/// The README's Swift snippets are compiled code: each one must appear, line for line, in
/// `PhotoListViewModelTests.swift` beside this file, which the compiler builds and these tests
/// run. A snippet line `// …` stands for lines left out; spacing inside a line is not compared
/// (the formatter aligns comments differently in a README).
@Suite struct ReadmeSnippetTests {
  // Resolved: `Examples/Tests/TetherTests` links to `Tests/TetherTests`.
  private static let folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent()
  private static let usageFile = folder.appendingPathComponent("PhotoListViewModelTests.swift")
  private static let readme = folder.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("README.md")

  static func normalized(_ line: Substring) -> String {
    line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
  }

  static func swiftBlocks(in markdown: String) -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.hasPrefix("```swift") {
        current = []
      } else if current != nil, line.hasPrefix("```") {
        blocks.append(current ?? [])
        current = nil
      } else if current != nil {
        current?.append(normalized(line))
      }
    }
    return blocks
  }

  @Test func everyReadmeSnippetIsCompiledCode() throws {
    let readme = try String(contentsOf: Self.readme, encoding: .utf8)
    let source = try String(contentsOf: Self.usageFile, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(Self.normalized)
    let blocks = Self.swiftBlocks(in: readme)
    #expect(blocks.count >= 2, "the README shows a view model and a test")
    for block in blocks {
      var searchFrom = 0
      // Segments between `// …` lines appear in order, each as consecutive lines.
      let segments = block.split(separator: "// …").map { Array($0).filter { !$0.isEmpty } }
      for segment in segments where !segment.isEmpty {
        let nonEmptySource = source.enumerated().filter { !$0.element.isEmpty }
        let found = nonEmptySource.indices.first { start in
          start + segment.count <= nonEmptySource.count
            && nonEmptySource[start].offset >= searchFrom
            && zip(segment, nonEmptySource[start...]).allSatisfy { $0 == $1.element }
        }
        guard let found else {
          Issue.record(
            "README snippet lines are not in the compiled example:\n\(segment.joined(separator: "\n"))"
          )
          break
        }
        searchFrom = nonEmptySource[found + segment.count - 1].offset + 1
      }
    }
  }

  @Test func snippetsAreReadWithTheirSpacingNormalized() {
    let readme = "text\n```swift\n  let  x =   1  // one\n```\n```sh\nls\n```\n"
    #expect(Self.swiftBlocks(in: readme) == [["let x = 1 // one"]])
  }
}
