import Foundation
import Testing

/// Every Swift block of the README and of every DocC article is compiled code.
///
/// Each article `Name.md` with Swift blocks has a companion, `Articles/Name.swift` in this
/// target, which the compiler builds against the real API; each block must appear in it, line
/// for line. A block line `// …` stands for lines left out; spacing and line breaks are not
/// compared (the formatter wraps and aligns differently in the compiled file). The README's
/// companions are `Articles/README.swift` (its first screen) and
/// `Tests/TetherTests/Usage/PhotoListViewModelTests.swift`. An article whose blocks together
/// are a complete program is built as one by CI instead (`.ci/run` names it): its blocks need
/// no companion.
@Suite struct DocSnippetTests {
  private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  private static let companions = root.appendingPathComponent("Tests/TetherDocsTests/Articles")

  /// Articles CI builds as programs: their Swift blocks, in order, are a `main.swift`.
  static let builtAsPrograms: Set<String> = [
    "GettingStartedWithTheWebLayer", "TerminalApp", "Forms",
  ]

  /// Articles whose blocks repeat lines of an article CI builds as a program (a call that
  /// needs the `WebServer` trait, which this target is built without).
  static let blocksCompiledElsewhere: [String: String] = [
    "TetherWebHummingbird": "Sources/TetherWeb/Documentation.docc/GettingStartedWithTheWebLayer.md"
  ]

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

  /// The lines of `block` that are not in `source` in order, or `nil` when all are.
  ///
  /// Whitespace and line breaks are not compared (the formatter may wrap a call differently in
  /// the compiled file than in an article's narrower block): each segment, its spaces and line
  /// breaks dropped, must appear in the source with its own dropped, after the previous one.
  static func missingSegment(of block: [String], in source: [String]) -> [String]? {
    let compact = { (text: String) in
      String(text.unicodeScalars.filter { !$0.properties.isWhitespace })
    }
    let haystack = compact(source.joined())
    var searchFrom = haystack.startIndex
    // Segments between `// …` lines appear in order.
    let segments = block.split(separator: "// …").map { Array($0).filter { !$0.isEmpty } }
    for segment in segments where !segment.isEmpty {
      let needle = compact(segment.joined())
      guard let found = haystack[searchFrom...].range(of: needle) else { return segment }
      searchFrom = found.upperBound
    }
    return nil
  }

  static func lines(of url: URL) throws -> [String] {
    try String(contentsOf: url, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(normalized)
  }

  static func articles() throws -> [URL] {
    let sources = root.appendingPathComponent("Sources")
    var found: [URL] = []
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
      let catalog = sources.appendingPathComponent(module).appendingPathComponent(
        "Documentation.docc")
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: catalog.path)
      else { continue }
      for name in names.sorted() where name.hasSuffix(".md") {
        found.append(catalog.appendingPathComponent(name))
      }
    }
    return found
  }

  @Test func everyReadmeBlockIsCompiledCode() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    // The first screen's view model and its faces, then the gallery's view model and tests.
    let sources = try [
      "Tests/TetherDocsTests/Articles/README.swift",
      "Tests/TetherTests/Usage/PhotoListViewModelTests.swift",
    ].map { try Self.lines(of: Self.root.appendingPathComponent($0)) }
    let blocks = Self.swiftBlocks(in: readme)
    #expect(blocks.count >= 6, "the README shows a view model, its three faces, and a test")
    for block in blocks {
      let missing = sources.map { Self.missingSegment(of: block, in: $0) }
      if missing.allSatisfy({ $0 != nil }), let missing = missing.first ?? nil {
        Issue.record(
          "README block lines are not in the compiled example:\n\(missing.joined(separator: "\n"))")
      }
    }
  }

  /// The Swift blocks of the doc comments (`/// ```swift`) of every file under `Sources`.
  static func docCommentBlocks() throws -> [(file: String, line: Int, lines: [String])] {
    let sources = root.appendingPathComponent("Sources")
    guard let files = FileManager.default.enumerator(atPath: sources.path) else { return [] }
    var blocks: [(file: String, line: Int, lines: [String])] = []
    for case let path as String in files where path.hasSuffix(".swift") {
      let text = try String(
        contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
      var current: (line: Int, lines: [String])?
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("///") else {
          current = nil
          continue
        }
        var body = trimmed.dropFirst(3)
        if body.hasPrefix(" ") { body = body.dropFirst() }
        if current == nil, body.hasPrefix("```swift") {
          current = (number + 1, [])
        } else if let block = current, body.hasPrefix("```") {
          blocks.append(("Sources/" + path, block.line, block.lines))
          current = nil
        } else if current != nil {
          current?.lines.append(normalized(body))
        }
      }
    }
    return blocks
  }

  /// Every doc comment's Swift block is compiled: it appears, line for line, in a companion —
  /// `Tests/TetherDocsTests/DocComments/`, or for the `WebServer` trait's module
  /// `Tests/TetherWebHummingbirdTests/DocComments.swift`, built with the trait.
  @Test func everyDocCommentBlockIsCompiledCode() throws {
    let blocks = try Self.docCommentBlocks()
    #expect(blocks.count >= 80, "the doc comments' blocks were not found")
    let folder = Self.root.appendingPathComponent("Tests/TetherDocsTests/DocComments")
    var companions = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0) }
    companions.append(
      Self.root.appendingPathComponent("Tests/TetherWebHummingbirdTests/DocComments.swift"))
    let source = try companions.flatMap { try Self.lines(of: $0) }
    for block in blocks {
      if let missing = Self.missingSegment(of: block.lines, in: source) {
        Issue.record(
          """
          \(block.file):\(block.line): a doc comment's block is not in a compiled companion:
          \(missing.joined(separator: "\n"))
          """)
      }
    }
  }

  @Test func everyArticleBlockIsCompiledCode() throws {
    let articles = try Self.articles()
    #expect(articles.count >= 12, "the catalogs' articles were not found")
    var checked = 0
    for article in articles {
      let name = article.deletingPathExtension().lastPathComponent
      let blocks = Self.swiftBlocks(in: try String(contentsOf: article, encoding: .utf8))
      guard !blocks.isEmpty else { continue }
      if Self.builtAsPrograms.contains(name) {
        let ci = try String(
          contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("Documentation.docc/\(name).md"), "CI does not build \(name).md")
        continue
      }
      if let article = Self.blocksCompiledElsewhere[name] {
        // Its blocks are lines of another article that CI builds as a program.
        let program = Self.swiftBlocks(
          in: try String(contentsOf: Self.root.appendingPathComponent(article), encoding: .utf8)
        ).flatMap { $0 }
        for block in blocks {
          checked += 1
          if let missing = Self.missingSegment(of: block, in: program) {
            let lines = missing.joined(separator: "\n")
            Issue.record("\(name).md: block lines are not in \(article):\n\(lines)")
          }
        }
        continue
      }
      let companion = Self.companions.appendingPathComponent("\(name).swift")
      guard FileManager.default.fileExists(atPath: companion.path) else {
        Issue.record(
          "\(name).md has Swift blocks but no compiled companion, Articles/\(name).swift")
        continue
      }
      let source = try Self.lines(of: companion)
      for block in blocks {
        checked += 1
        if let missing = Self.missingSegment(of: block, in: source) {
          let lines = missing.joined(separator: "\n")
          Issue.record("\(name).md: block lines are not in Articles/\(name).swift:\n\(lines)")
        }
      }
    }
    #expect(checked >= 15, "only \(checked) article blocks were checked")
  }

  @Test func blocksAreReadWithTheirSpacingNormalized() {
    let markdown = "text\n```swift\n  let  x =   1  // one\n```\n```sh\nls\n```\n"
    #expect(Self.swiftBlocks(in: markdown) == [["let x = 1 // one"]])
  }

  @Test func aBlockIsFoundOnlyInOrderAndWhole() {
    let source = ["let a = 1", "", "let b = 2", "let c = 3"]
    #expect(Self.missingSegment(of: ["let b = 2", "let c = 3"], in: source) == nil)
    #expect(Self.missingSegment(of: ["let a = 1", "// …", "let c = 3"], in: source) == nil)
    #expect(
      Self.missingSegment(of: ["let c = 3", "// …", "let a = 1"], in: source) == ["let a = 1"])
    #expect(
      Self.missingSegment(of: ["let a = 1", "let c = 3"], in: source) == ["let a = 1", "let c = 3"])
  }
}
