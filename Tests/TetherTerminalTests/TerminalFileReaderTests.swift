import Foundation
import Testing
import Tether
import TetherFlow
import TetherTerminal

@MainActor
@Suite struct TerminalFileReaderTests {
  private func temporaryFile(_ name: String, bytes: [UInt8]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tether-reader-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url
  }

  @Test func aPathsFileIsCopiedInWithProgressAndItsBytes() async throws {
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let source = try temporaryFile("cat photo.png", bytes: bytes)
    let upload = FileUpload(rules: FileUploadRules(accept: ["image/png"]))
    var progress: [Int] = []
    let watching = upload.$entries.observe { progress.append($0.first?.received ?? -1) }
    defer { watching.cancel() }
    let reader = TerminalFileReader(chunkSize: 50_000)
    // Quoted and with its space escaped, as a terminal pastes a dragged file.
    let typed = "  '" + source.path.replacingOccurrences(of: " ", with: "\\ ") + "'  "
    var arrivals = upload.completed.values.makeAsyncIterator()
    let entry = reader.offer(path: typed, to: upload)
    #expect(entry.name == "cat photo.png")
    #expect(entry.type == "image/png")
    #expect(entry.state == .receiving)
    let done = try #require(await arrivals.next())
    let file = try #require(done.file)
    #expect(try Data(contentsOf: file) == Data(bytes))
    #expect(progress.last == 200_000)
    upload.remove(done.id)
    #expect(!FileManager.default.fileExists(atPath: file.path), "let go with its entry")
  }

  @Test func aPathWithNoFileAFolderOrAFileTheRulesRefuseSendsNothing() throws {
    let upload = FileUpload(rules: FileUploadRules(accept: ["image/*"], maximumFileSize: 10))
    let reader = TerminalFileReader()
    let folder = try temporaryFile("notes.txt", bytes: Array("notes".utf8))
    let big = try temporaryFile("big.png", bytes: [UInt8](repeating: 1, count: 11))
    let states = [
      reader.offer(path: "/no/such/file.png", to: upload),
      reader.offer(path: folder.deletingLastPathComponent().path, to: upload),
      reader.offer(path: folder.path, to: upload),
      reader.offer(path: big.path, to: upload),
      reader.offer(path: "   ", to: upload),
    ].map(\.state)
    #expect(
      states == [
        .refused(.unreadable("No file at /no/such/file.png.")),
        .refused(.unreadable("\(folder.deletingLastPathComponent().path) is a folder.")),
        .refused(.type("text/plain")),
        .refused(.tooLarge(size: 11, limit: 10)),
        .refused(.unreadable("Type the path of a file.")),
      ])
    #expect(!upload.isReceiving)
  }

  @Test func pathsAreReadAsAShellReadsThem() {
    let home = FileManager.default.homeDirectoryForCurrentUser.path
    #expect(TerminalFileReader.cleaned("~/a b.png") == home + "/a b.png")
    #expect(TerminalFileReader.cleaned("\"/tmp/a.png\"") == "/tmp/a.png")
    #expect(TerminalFileReader.cleaned("file:///tmp/a%20b.png") == "/tmp/a b.png")
    #expect(TerminalFileReader.cleaned("/tmp/a\\ b.png\n") == "/tmp/a b.png")
    #expect(TerminalFileReader.type(ofName: "A.JPEG") == "image/jpeg")
    #expect(TerminalFileReader.type(ofName: "png") == "")
    #expect(TerminalFileReader.type(ofName: "a.unknown") == "")
  }
}
