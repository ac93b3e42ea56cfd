import Foundation
import Testing
import Tether
import TetherFlow

/// What a view layer receiving an upload's bytes is told.
@MainActor
private final class RecordingTransport: FileUploadTransport {
  var stopped: [Int] = []
  var released: [(Int, URL)] = []
  func stop(_ id: Int) { stopped.append(id) }
  func release(_ id: Int, file: URL) { released.append((id, file)) }
}

@MainActor
@Suite struct FileUploadTests {
  private let photo = FileOffer(name: "cat.jpg", size: 1_000, type: "image/jpeg")

  @Test func theRulesRefuseByTypeSizeAndEmptinessWithASentenceForThePerson() {
    let rules = FileUploadRules(
      accept: ["image/*", ".md"], maximumFileSize: 2_000_000, maximumCount: 3)
    #expect(rules.refusal(of: photo) == nil)
    #expect(rules.refusal(of: FileOffer(name: "notes.MD", size: 10, type: "")) == nil)
    // An extension alone is no name.
    #expect(rules.refusal(of: FileOffer(name: ".md", size: 10, type: "")) == .type(""))
    #expect(
      rules.refusal(of: FileOffer(name: "a.pdf", size: 10, type: "application/pdf"))
        == .type("application/pdf"))
    #expect(
      rules.refusal(of: FileOffer(name: "big.png", size: 2_000_001, type: "image/png"))
        == .tooLarge(size: 2_000_001, limit: 2_000_000))
    #expect(rules.refusal(of: FileOffer(name: "e.png", size: 0, type: "image/png")) == .empty)
    #expect(
      FileUploadRefusal.type("application/pdf").description
        == "application/pdf files are not accepted.")
    #expect(
      FileUploadRefusal.tooLarge(size: 3, limit: 2_000_000).description
        == "Larger than 2 MB, the most accepted.")
    #expect(
      FileUploadRefusal.tooLarge(size: 3, limit: 1_500_000).description
        == "Larger than 1.5 MB, the most accepted.")
    #expect(FileUploadRefusal.tooMany(limit: 1).description == "Only one file at a time.")
  }

  @Test func anOfferAddsEntriesRefusingPastTheCount() {
    let upload = FileUpload(rules: FileUploadRules(accept: ["image/jpeg"], maximumCount: 2))
    let transport = RecordingTransport()
    let entries = upload.offer(
      [photo, FileOffer(name: "a.txt", size: 5, type: "text/plain"), photo, photo],
      via: transport)
    #expect(
      entries.map(\.state) == [
        .receiving, .refused(.type("text/plain")), .receiving, .refused(.tooMany(limit: 2)),
      ])
    #expect(upload.entries == entries)
    #expect(Set(entries.map(\.id)).count == 4)
    // Refused entries do not count: removing one frees no place, removing a taken one does.
    upload.remove(entries[1].id)
    #expect(upload.offer([photo], via: transport).map(\.state) == [.refused(.tooMany(limit: 2))])
    upload.remove(entries[0].id)
    #expect(transport.stopped == [entries[0].id], "a file still arriving is stopped")
    #expect(upload.offer([photo], via: transport).map(\.state) == [.receiving])
  }

  @Test func progressThenFinishingSendsTheEntryWithItsFile() {
    let upload = FileUpload(rules: FileUploadRules(maximumFileSize: 10_000))
    let transport = RecordingTransport()
    let id = upload.offer([photo], via: transport)[0].id
    var percents: [Int] = []
    let observation = upload.$entries.observe { entries in
      percents.append(entries.first?.percent ?? -1)
    }
    defer { observation.cancel() }
    upload.received(id, bytes: 250)
    upload.received(id, bytes: 250)  // no change, no update
    upload.received(id, bytes: 999)
    #expect(percents == [0, 25, 99])
    var completed: [FileUpload.Entry] = []
    let done = upload.completed.observe { completed.append($0) }
    defer { done.cancel() }
    let file = URL(fileURLWithPath: "/tmp/upload-1")
    upload.finished(id, at: file)
    #expect(completed.map(\.id) == [id])
    #expect(completed.first?.file == file)
    #expect(upload.entries[0].state == .finished)
    #expect(upload.entries[0].percent == 100)
    upload.remove(id)
    #expect(transport.released.map(\.0) == [id])
    #expect(transport.released.map(\.1) == [file])
    #expect(upload.entries.isEmpty)
  }

  @Test func aCancelledEntryStopsItsTransportAndAFileFinishedAfterIsLetGo() {
    let upload = FileUpload()
    let transport = RecordingTransport()
    let id = upload.offer([photo], via: transport)[0].id
    upload.cancel(id)
    upload.cancel(id)  // once
    #expect(transport.stopped == [id])
    #expect(upload.entries[0].state == .cancelled)
    #expect(!upload.isReceiving)
    // A finish that crossed the cancel: nobody's file, deleted, nothing completed.
    var completed = 0
    let done = upload.completed.observe { _ in completed += 1 }
    defer { done.cancel() }
    let file = URL(fileURLWithPath: "/tmp/upload-2")
    upload.finished(id, at: file)
    #expect(completed == 0)
    #expect(transport.released.map(\.1) == [file])
    upload.received(id, bytes: 10)
    #expect(upload.entries[0].received == 0)
  }

  @Test func aFailureIsShownOnlyForAnEntryStillArriving() {
    let upload = FileUpload()
    let transport = RecordingTransport()
    let id = upload.offer([photo], via: transport)[0].id
    upload.failed(id, reason: "The connection was lost.")
    #expect(upload.entries[0].state == .failed("The connection was lost."))
    upload.failed(id, reason: "again")
    #expect(upload.entries[0].state == .failed("The connection was lost."))
    upload.cancel(id)
    #expect(transport.stopped.isEmpty, "a failed file is no longer arriving")
  }
}
