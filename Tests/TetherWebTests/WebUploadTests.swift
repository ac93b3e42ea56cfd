import Foundation
import Testing
import Tether
import TetherFlow
import TetherTesting
import TetherWebTesting

@_spi(HandBuilt) @testable import TetherWeb

/// A screen that takes up to two images of at most 1 MB, and keeps each one's bytes once
/// it arrives.
@MainActor
final class AlbumModel {
  let photos = FileUpload(
    rules: FileUploadRules(
      accept: ["image/png", "image/jpeg"], maximumFileSize: 1_000_000, maximumCount: 2))
  @Output private(set) var kept: [String: [UInt8]] = [:]
  private var token: ObservationToken?

  init() {
    token = photos.completed.observe { [unowned self] entry in
      guard let file = entry.file, let data = FileManager.default.contents(atPath: file.path)
      else { return }
      kept[entry.name] = Array(data)
      photos.remove(entry.id)
    }
  }
}

@MainActor
final class AlbumScreen: WebScreen {
  let model: AlbumModel
  init(_ model: AlbumModel) { self.model = model }
  var body: Markup<Never> {
    section {
      fileInput(model.photos, label: "Add photos", .class("album"))
    }
  }
}

@MainActor
final class AlbumFlow: FlowController {
  let model = AlbumModel()
  func start(on navigator: any Navigator<AlbumModel>) -> Screen<AlbumModel> {
    Screen(model, title: "Album", owner: self)
  }
}

@MainActor
@Suite struct WebUploadTests {
  private func page(_ flow: AlbumFlow) async throws -> WebTestPage {
    let app = WebApp(title: "Album", rootFlow: { flow }) { AlbumScreen($0.destination) }
    return try await WebTestPage(app: app, path: "/")
  }

  private static func png(_ name: String, size: Int) -> TestFile {
    TestFile(name: name, type: "image/png", size: size)
  }

  @Test func theInputSaysWhatItTakesAndAFileArrivesInChunksWithItsBytes() async throws {
    let flow = AlbumFlow()
    let page = try await page(flow)
    defer { page.close() }
    let input = try page.element(".album input[type=file]")
    #expect(input[attribute: "accept"] == "image/png,image/jpeg")
    #expect(input[attribute: "multiple"] != nil)
    #expect(try page.element(".album label")[attribute: "data-drop"] == input.id)

    // Larger than the window: the page waits for the session's acknowledgements.
    let file = Self.png("cat.png", size: WebUploadReceiver.window + 70_000)
    let references = try await page.upload([file], to: ".album")
    #expect(references.count == 1 && references[0] > 0)
    try await page.waitUntil("the file to be kept") { flow.model.kept["cat.png"] != nil }
    #expect(flow.model.kept["cat.png"] == file.bytes)
    #expect(try page.texts(".album li").isEmpty, "the model took the file off the list")
    #expect(page.session.uploadReceiver.reserved == 0)
  }

  @Test func progressIsShownWhileAFileArrivesAndCancelDeletesIt() async throws {
    let flow = AlbumFlow()
    let page = try await page(flow)
    defer { page.close() }
    let references = try await page.upload(
      [Self.png("half.png", size: 200_000)], to: ".album", sendingAtMost: 100_000)
    try await page.waitUntil("the progress to show") {
      try page.element(".album progress")[attribute: "value"] == "50"
    }
    #expect(try page.element(".album progress")[attribute: "aria-label"] == "half.png")
    #expect(flow.model.photos.entries.first?.received == 100_000)

    try await page.click(".album li button")
    #expect(flow.model.photos.entries.first?.state == .cancelled)
    #expect(try page.text(".album .upload-status") == "Cancelled")
    #expect(page.session.uploadReceiver.reserved == 0)
    // The page is told to stop; a chunk already on its way is dropped at no charge, and a
    // window's worth past that is refused.
    #expect(page.sent.contains { $0.contains(#"["x",\#(references[0])]"#) })
    let chunk =
      withUnsafeBytes(of: references[0].bigEndian) { Array($0) }
      + [UInt8](
        repeating: 1, count: WebUploadReceiver.maximumChunkSize)
    for _ in 0..<(WebUploadReceiver.window / WebUploadReceiver.maximumChunkSize) {
      #expect(page.session.uploadReceiver.write(chunk) == .dropped)
    }
    #expect(page.session.uploadReceiver.write(chunk) != .dropped)
    try await page.click(".album li button")
    #expect(flow.model.photos.entries.isEmpty)
  }

  @Test func aRefusedTypeATooLargeFileAndOnePastTheCountSendNothing() async throws {
    let flow = AlbumFlow()
    let page = try await page(flow)
    defer { page.close() }
    let references = try await page.upload(
      [
        TestFile(name: "notes.txt", type: "text/plain", size: 10),
        Self.png("huge.png", size: 1_000_001),
        Self.png("a.png", size: 10), Self.png("b.png", size: 10), Self.png("c.png", size: 10),
      ], to: ".album")
    #expect(references.map { $0 > 0 } == [false, false, true, true, false])
    #expect(
      try page.texts(".album .upload-refused") == [
        "text/plain files are not accepted.", "Larger than 1 MB, the most accepted.",
        "At most 2 files.",
      ])
    try await page.waitUntil("both images to be kept") { flow.model.kept.count == 2 }
    #expect(flow.model.kept.keys.sorted() == ["a.png", "b.png"])
  }

  /// The page's socket drops while a file arrives: the file fails and is deleted, and the page
  /// does not send it again.
  @Test func aLostConnectionFailsAFileStillArrivingAndDeletesIt() async throws {
    let flow = AlbumFlow()
    let page = try await page(flow)
    defer { page.close() }
    let references = try await page.upload(
      [Self.png("away.png", size: 200_000)], to: ".album", sendingAtMost: 65_536)
    let directory = WebUploadLimits.processDirectory.path
    let before = try FileManager.default.contentsOfDirectory(atPath: directory).count
    page.session.detach()
    #expect(
      flow.model.photos.entries.first?.state
        == .failed("The connection was lost before the file arrived."))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == before - 1)
    let chunk = withUnsafeBytes(of: references[0].bigEndian) { Array($0) } + [1, 2, 3]
    #expect(
      page.session.uploadReceiver.write(chunk) == .refused("a chunk of no file being received"))
  }

  /// Hostile chunks: one for no file, one past the file's size, one too short, one too long.
  @Test func aChunkOfNoFileOrPastItsSizeIsRefusedAndThePastOneFailsTheFile() async throws {
    let flow = AlbumFlow()
    let page = try await page(flow)
    defer { page.close() }
    let receiver = page.session.uploadReceiver
    #expect(receiver.write([0, 0, 0, 99, 1]) == .refused("a chunk of no file being received"))
    #expect(receiver.write([0, 0, 0]) == .refused("a chunk of 3 bytes"))
    #expect(
      receiver.write([UInt8](repeating: 0, count: 5 + WebUploadReceiver.maximumChunkSize))
        == .refused("a chunk of \(5 + WebUploadReceiver.maximumChunkSize) bytes"))
    let references = try await page.upload(
      [Self.png("small.png", size: 10)], to: ".album", sendingAtMost: 4)
    let header = withUnsafeBytes(of: references[0].bigEndian) { Array($0) }
    #expect(
      receiver.write(header + [UInt8](repeating: 0, count: 7))
        == .refused("a chunk past its file's size"))
    try await page.waitUntil("the file to fail") {
      flow.model.photos.entries.first?.state
        == .failed("The file sent was larger than the file chosen.")
    }
    #expect(receiver.reserved == 0)
    #expect(flow.model.kept.isEmpty)
  }

  @Test func aSessionTakesNoMoreThanItsByteBudgetAtOnce() async throws {
    let receiver = WebUploadReceiver(
      directory: WebUploadLimits.processDirectory, budget: 1_000, changed: {})
    defer { receiver.close() }
    let first = try #require(receiver.open(size: 600))
    #expect(receiver.open(size: 401) == nil)
    let second = try #require(receiver.open(size: 400))
    #expect(receiver.reserved == 1_000)
    receiver.stop(first)
    #expect(receiver.reserved == 400)
    #expect(receiver.open(size: 600) != nil)
    #expect(first != second)
  }

  /// Many sessions, each within its budget, together within the process's.
  @Test func theProcessTakesNoMoreThanItsByteBudgetAcrossSessions() throws {
    let ledger = WebUploadReceiver.Ledger()
    let receivers = (0..<3).map { _ in
      WebUploadReceiver(
        directory: WebUploadLimits.processDirectory, budget: 1_000, processBudget: 1_500,
        ledger: ledger, changed: {})
    }
    defer { for receiver in receivers { receiver.close() } }
    let first = try #require(receivers[0].open(size: 1_000))
    #expect(receivers[1].open(size: 600) == nil, "past the process's budget")
    #expect(receivers[1].open(size: 500) != nil)
    receivers[0].stop(first)
    #expect(receivers[2].open(size: 1_000) != nil, "given back when a file is stopped")
  }

  /// A page that reconnects on a new socket sends nothing more of the files the old one was
  /// sending: they fail, rather than wait for bytes that will not come.
  @Test func aNewSocketFailsTheFilesTheOldOneWasSending() async throws {
    let flow = AlbumFlow()
    let page = try await page(flow)
    defer { page.close() }
    try await page.upload([Self.png("away.png", size: 50_000)], to: ".album", sendingAtMost: 20_000)
    page.session.attach({ _ in }, resync: true)
    #expect(
      flow.model.photos.entries.first?.state
        == .failed("The connection was lost before the file arrived."))
    #expect(page.session.uploadReceiver.reserved == 0)
  }

  @Test func anUploadMessageIsParsedWithItsBounds() throws {
    let message = ClientMessage.upload(
      id: "s1.0.file",
      files: [FileOffer(name: "a \"b\" ✓.png", size: 12, type: "image/png")])
    #expect(try ClientMessage(decoding: message.json) == message)
    let name = String(repeating: "n", count: 256)
    let many = Array(repeating: #"{"name":"a","size":1}"#, count: 33).joined(separator: ",")
    for text in [
      #"{"type":"upload","id":"f"}"#, #"{"type":"upload","id":"f","files":[]}"#,
      #"{"type":"upload","id":"f","files":[{"name":"a","size":-1}]}"#,
      #"{"type":"upload","id":"f","files":[{"name":"a","size":1e300}]}"#,
      #"{"type":"upload","id":"f","files":[{"name":"a","size":\#(FileOffer.maximumSize + 1)}]}"#,
      #"{"type":"upload","id":"f","files":[{"name":"","size":1}]}"#,
      #"{"type":"upload","id":"f","files":[{"name":"\#(name)","size":1}]}"#,
      #"{"type":"upload","id":"f","files":[\#(many)]}"#,
    ] {
      #expect(throws: WebSessionError.self) { try ClientMessage(decoding: text) }
    }
  }

  @Test func filesOfferedToNoInputAreRefused() async throws {
    let flow = AlbumFlow()
    let page = try await page(flow)
    defer { page.close() }
    let refusal = await page.session.receive(
      ClientMessage.upload(id: "nowhere", files: [FileOffer(name: "a", size: 1, type: "")]).json)
    #expect(refusal == .noHandler(id: "nowhere"))
    #expect(flow.model.photos.entries.isEmpty)
  }

  /// A server killed while files arrived leaves their folder behind: the next process to
  /// receive files deletes it.
  @Test func theFoldersOfEndedProcessesAreDeletedAndNoOther() throws {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tether-sweep-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: parent) }
    // The highest process id Linux hands out is 4,194,304: this one is never running.
    let folders = ["4194303", String(getpid()), "1", "notes"]
    for name in folders {
      let folder = parent.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data([1, 2, 3]).write(to: folder.appendingPathComponent("half.upload"))
    }
    WebUploadLimits.removeFoldersOfEndedProcesses(in: parent, except: getpid())
    let left = try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
    #expect(left == [String(getpid()), "1", "notes"].sorted())
    #expect(WebUploadLimits().directory.lastPathComponent == String(getpid()))
  }

  /// An app's limits reach its sessions: a file past the session's budget fails at once.
  @Test func anAppsByteBudgetIsItsSessions() async throws {
    let flow = AlbumFlow()
    var app = WebApp(title: "Album", rootFlow: { flow }) { AlbumScreen($0.destination) }
    app.uploads = WebUploadLimits(sessionBytes: 1_000)
    let page = try await WebTestPage(app: app, path: "/")
    defer { page.close() }
    let references = try await page.upload(
      [Self.png("a.png", size: 600), Self.png("b.png", size: 600)], to: ".album",
      sendingAtMost: 0)
    #expect(references[0] > 0 && references[1] == 0)
    #expect(
      flow.model.photos.entries.map(\.state) == [
        .receiving, .failed("The server is receiving too many files now; try again later."),
      ])
  }
}
