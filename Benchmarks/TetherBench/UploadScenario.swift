import Foundation
import LoopbackClient
import Tether
import TetherFlow
import TetherWeb

/// W10: one file uploaded through a page's socket to a real server (a `--serve upload` child):
/// the bytes go as the page's script sends them (16,380-byte chunks, at most a window ahead of
/// the server's acknowledgement), from a blocking loopback client in this process. Measured:
/// the wall time until the server acknowledges the last byte (throughput in MB/s, the client's
/// masking included), against writing the same bytes to a file in this process in the same
/// chunks (the disk's own pace); and the child's heap while the upload is half done and once it
/// is over, against before it began.
@MainActor
func runW10(_ bench: Bench, bytes size: Int) async {
  let scenario = "W10 upload of \(size / 1_000_000) MB"
  guard procIsReadable(scenario) else { return }
  let chunk = [UInt8](repeating: 0x5A, count: ClientMessage.maximumUploadChunkSize)
  do {
    let disk = try diskWrite(size, chunk: chunk)
    bench.record(
      scenario, "file write in this process", baseline: true, samples: [disk],
      unit: "s", note: "\(megabytesPerSecond(size, disk)) MB/s")
    let child = try ChildServer(.upload)
    defer { child.stop() }
    // Each repetition a fresh page: a session of its own, its file let go once it arrived.
    var runs: [(seconds: Double, heapHalfway: Int, heapAfter: Int)] = []
    for _ in 0..<bench.repetitions {
      runs.append(try upload(size, chunk: chunk, to: child, scenario: scenario))
    }
    let seconds = runs.map(\.seconds).sorted()[runs.count / 2]
    bench.record(
      scenario, "upload through the page's socket", samples: runs.map(\.seconds), unit: "s",
      note: "\(megabytesPerSecond(size, seconds)) MB/s")
    let heap = "W10 server heap, \(size / 1_000_000) MB upload"
    bench.record(heap, "the file's size", baseline: true, samples: [Double(size)], unit: "bytes")
    bench.record(
      heap, "heap growth, half sent", samples: runs.map { Double($0.heapHalfway) },
      unit: "bytes")
    bench.record(
      heap, "heap growth, done", samples: runs.map { Double($0.heapAfter) }, unit: "bytes")
    bench.checksum &+= runs.reduce(0) { $0 &+ $1.heapHalfway }
  } catch {
    invalid("\(scenario): \(error)")
  }
}

private func megabytesPerSecond(_ bytes: Int, _ seconds: Double) -> String {
  String(format: "%.0f", Double(bytes) / 1_000_000 / max(seconds, 1e-9))
}

/// Seconds to write `size` bytes to a fresh file in `chunk`-sized writes, synced at the end as
/// the server's file is not (so the baseline is, if anything, the slower).
private func diskWrite(_ size: Int, chunk: [UInt8]) throws -> Double {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "tether-bench-\(UUID().uuidString)")
  guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
    invalid("W10: could not create \(url.path)")
  }
  defer { try? FileManager.default.removeItem(at: url) }
  let handle = try FileHandle(forWritingTo: url)
  let clock = ContinuousClock()
  let start = clock.now
  var written = 0
  while written < size {
    let count = min(chunk.count, size - written)
    try handle.write(contentsOf: chunk[0..<count])
    written += count
  }
  try handle.close()
  return seconds(clock.now - start)
}

private func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Uploads `size` bytes to the child's page as its script would.
private func upload(
  _ size: Int, chunk: [UInt8], to child: ChildServer, scenario: String
) throws -> (seconds: Double, heapHalfway: Int, heapAfter: Int) {
  let page = try OpenedPage(port: child.port)
  guard try page.socket.receiveText() != nil,
    let input = firstAttribute("id", ofTag: "input", in: page.html)
  else { invalid("\(scenario): the page has no file input") }
  let heapBefore = try child.heapBytes()
  try page.socket.sendText(
    ClientMessage.upload(
      id: input, files: [FileOffer(name: "big.bin", size: size, type: "application/octet-stream")]
    ).json)
  var reference: UInt32?
  while reference == nil {
    guard let text = try page.socket.receiveText() else {
      invalid("\(scenario): the socket closed before the file was taken")
    }
    for signal in signals(in: text) where signal.first as? String == "o" {
      reference = (signal.last as? [Int])?.first.map { UInt32(clamping: $0) }
    }
  }
  guard let reference, reference > 0 else { invalid("\(scenario): the file was refused") }
  let header = withUnsafeBytes(of: reference.bigEndian) { Array($0) }
  let clock = ContinuousClock()
  let start = clock.now
  var sent = 0
  var acknowledged = 0
  var heapHalfway: Int?
  while acknowledged < size {
    while sent < size, sent - acknowledged < ClientMessage.uploadWindow {
      let count = min(chunk.count, size - sent)
      try page.socket.send(Connection.frame(opcode: 0x2, header + chunk[0..<count]))
      sent += count
    }
    guard let text = try page.socket.receiveText() else {
      invalid("\(scenario): the socket closed at \(acknowledged) bytes")
    }
    for signal in signals(in: text) where signal.first as? String == "a" {
      if let bytes = signal.last as? Int { acknowledged = max(acknowledged, bytes) }
    }
    if heapHalfway == nil, acknowledged >= size / 2 {
      heapHalfway = try child.heapBytes() - heapBefore
    }
  }
  let elapsed = seconds(clock.now - start)
  let heapAfter = try child.heapBytes() - heapBefore
  return (elapsed, heapHalfway ?? 0, heapAfter)
}

/// The upload signals (`"u"`) of a server message.
private func signals(in text: String) -> [[Any]] {
  guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
    let message = object as? [String: Any], let signals = message["u"] as? [[Any]]
  else { return [] }
  return signals
}

// MARK: - The child's page

@MainActor
final class BenchUploadModel {
  let file = FileUpload(rules: FileUploadRules(maximumFileSize: 64_000_000))
  private var token: ObservationToken?

  init() {
    // The file is let go as it arrives: the disk holds one upload at a time.
    token = file.completed.observe { [weak self] entry in self?.file.remove(entry.id) }
  }
}

@MainActor
final class BenchUploadFlow: FlowController {
  func start(on navigator: any Navigator<BenchUploadModel>) -> Screen<BenchUploadModel> {
    Screen(BenchUploadModel(), title: "Upload", owner: self)
  }
}

@MainActor
struct BenchUploadScreen: WebScreen {
  let model: BenchUploadModel
  var body: Markup<Never> {
    fileInput(model.file, label: "A file")
  }
}

@MainActor
let benchUploadApp = WebApp(title: "Upload", rootFlow: { BenchUploadFlow() }) { screen in
  BenchUploadScreen(model: screen.destination)
}
