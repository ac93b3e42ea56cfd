import Foundation
import Gallery
import Testing
import TetherFlow

/// What receives the files in these tests: nothing, but it is told what is let go.
@MainActor
private final class Receiver: FileUploadTransport {
  var released: [URL] = []
  func stop(_ id: Int) {}
  func release(_ id: Int, file: URL) { released.append(file) }
}

@MainActor
@Suite struct PhotoUploadTests {
  private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

  private func arrive(
    _ bytes: [UInt8], name: String, type: String, in added: PhotoUploadViewModel,
    via receiver: Receiver
  ) throws -> URL {
    let entry = try #require(
      added.files.offer([FileOffer(name: name, size: bytes.count, type: type)], via: receiver)
        .first)
    #expect(entry.state == .receiving)
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try Data(bytes).write(to: url)
    added.files.finished(entry.id, at: url)
    return url
  }

  @Test func anImageThatArrivesIsShownFirstAndItsFileLetGo() throws {
    let added = PhotoUploadViewModel()
    let receiver = Receiver()
    let first = try arrive(Self.png, name: "a.png", type: "image/png", in: added, via: receiver)
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2]
    _ = try arrive(jpeg, name: "b.jpg", type: "image/jpeg", in: added, via: receiver)
    #expect(added.photos.map(\.name) == ["b.jpg", "a.png"])
    #expect(
      added.photos[1].imageSource == "data:image/png;base64,\(Data(Self.png).base64EncodedString())"
    )
    #expect(added.files.entries.isEmpty)
    #expect(receiver.released.first == first)
    #expect(added.problem == nil)
  }

  @Test func aFileWhoseBytesAreNotTheImageItClaimsIsNotShown() throws {
    let added = PhotoUploadViewModel()
    let receiver = Receiver()
    _ = try arrive(
      Array("<svg onload=alert(1)>".utf8), name: "x.png", type: "image/png", in: added,
      via: receiver)
    #expect(added.photos.isEmpty)
    #expect(added.problem == "x.png is not the image it says it is.")
    #expect(added.files.entries.isEmpty)
    #expect(receiver.released.count == 1)
  }

  @Test func theRulesTakeImagesUpTo2MBThreeAtATime() {
    let added = PhotoUploadViewModel()
    let receiver = Receiver()
    let states = added.files.offer(
      [
        FileOffer(name: "a.svg", size: 10, type: "image/svg+xml"),
        FileOffer(name: "b.png", size: 2_000_001, type: "image/png"),
        FileOffer(name: "c.webp", size: 10, type: "image/webp"),
        FileOffer(name: "d.gif", size: 10, type: "image/gif"),
        FileOffer(name: "e.jpg", size: 10, type: "image/jpeg"),
        FileOffer(name: "f.jpg", size: 10, type: "image/jpeg"),
      ], via: receiver
    ).map(\.state)
    #expect(
      states == [
        .refused(.type("image/svg+xml")), .refused(.tooLarge(size: 2_000_001, limit: 2_000_000)),
        .receiving, .receiving, .receiving, .refused(.tooMany(limit: 3)),
      ])
  }

  @Test func aTerminalsPathIsTakenOnEnterAndTheEntriesAreOneLine() throws {
    let added = PhotoUploadViewModel()
    let receiver = Receiver()
    #expect(added.entryLines.value == nil && added.addedLine.value == nil)
    added.addRequested()
    #expect(added.isTypingPath)
    added.pathText.value = "~/cat.png"
    #expect(added.pathEntered() == "~/cat.png")
    #expect(added.pathText.value == "" && !added.isTypingPath)
    added.addRequested()
    added.pathText.value = "half typed"
    added.pathCancelled()
    #expect(added.pathText.value == "" && !added.isTypingPath)

    let entries = added.files.offer(
      [
        FileOffer(name: "a.png", size: 1_000, type: "image/png"),
        FileOffer(name: "b.txt", size: 10, type: "text/plain"),
      ], via: receiver)
    added.files.received(entries[0].id, bytes: 450)
    #expect(added.entryLines.value == "a.png 45% · b.txt: text/plain files are not accepted.")
    _ = try arrive(Self.png, name: "c.png", type: "image/png", in: added, via: receiver)
    #expect(added.addedLine.value == "Added: c.png")
  }
}
