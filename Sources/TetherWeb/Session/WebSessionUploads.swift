import Foundation
import TetherFlow

/// A session's uploads on the main actor: the files the page offered, checked against their
/// upload's rules (TetherFlow's `FileUpload`), their bytes received off the main actor by
/// ``WebUploadReceiver``, and their progress reported to their uploads and acknowledged to the
/// page in the session's next message.
@MainActor
final class WebSessionUploads {
  /// The directory and the byte budget: set by the registry before the page connects.
  var limits = WebUploadLimits()
  /// Receives the chunks, off the main actor: made with ``limits`` when first asked for.
  var receiver: WebUploadReceiver {
    if let made { return made }
    // Called off the main actor; the uploads are main-actor isolated, so sendable, and held
    // weakly (the receiver outlives them in a socket's reader for a moment).
    let receiver = WebUploadReceiver(
      directory: limits.directory, budget: limits.sessionBytes,
      processBudget: limits.processBytes
    ) { [weak self] in
      Task { @MainActor in self?.progressArrived() }
    }
    made = receiver
    return receiver
  }
  private var made: WebUploadReceiver?
  /// Told when signals wait for the page.
  var onSignals: () -> Void = {}
  /// Whether the session has a send of the waiting signals scheduled.
  var sendScheduled = false

  private var signals: [UploadSignal] = []
  private var bindings: [ObjectIdentifier: Binding] = [:]
  private var files: [UInt32: (binding: Binding, entry: Int)] = [:]

  /// The page offered `files` on `input` for `upload`: each checked and added as an entry;
  /// the page is told where to send each taken one.
  func offer(_ files: [FileOffer], on input: String, to upload: FileUpload) {
    let binding = self.binding(for: upload)
    var references: [UInt32] = []
    for entry in upload.offer(files, via: binding) {
      guard entry.state == .receiving else {
        references.append(0)
        continue
      }
      guard let reference = receiver.open(size: entry.size) else {
        upload.failed(
          entry.id, reason: "The server is receiving too many files now; try again later.")
        references.append(0)
        continue
      }
      binding.references[entry.id] = reference
      self.files[reference] = (binding, entry.id)
      references.append(reference)
    }
    signal(.offered(id: input, references: references))
  }

  /// The signals waiting for the page, which it then forgets.
  func takeSignals() -> [UploadSignal] {
    defer { signals = [] }
    return signals
  }

  /// The page's socket ended: what was still arriving failed (the page sends nothing of it
  /// again; a person chooses the file anew).
  func socketEnded() {
    guard let made else { return }
    for reference in made.socketEnded() {
      guard let (binding, entry) = files.removeValue(forKey: reference) else { continue }
      binding.upload?.failed(entry, reason: "The connection was lost before the file arrived.")
    }
    signals = []
  }

  /// The session ended: every file is deleted.
  func close() {
    made?.close()
    files = [:]
    bindings = [:]
    signals = []
  }

  private func binding(for upload: FileUpload) -> Binding {
    bindings = bindings.filter { $0.value.upload != nil }
    if let binding = bindings[ObjectIdentifier(upload)] { return binding }
    let binding = Binding(upload: upload, owner: self)
    bindings[ObjectIdentifier(upload)] = binding
    return binding
  }

  private func signal(_ signal: UploadSignal) {
    signals.append(signal)
    onSignals()
  }

  private func progressArrived() {
    guard let made else { return }
    var acknowledged: [UploadSignal] = []
    for progress in made.takeProgress() {
      guard let (binding, entry) = files[progress.reference] else { continue }
      if let url = progress.finished {
        files[progress.reference] = nil
        acknowledged.append(.received(reference: progress.reference, bytes: progress.received))
        if let upload = binding.upload {
          upload.finished(entry, at: url)
        } else {
          receiver.release(url)
        }
      } else if let failure = progress.failure {
        files[progress.reference] = nil
        binding.upload?.failed(entry, reason: failure)
        acknowledged.append(.stop(reference: progress.reference))
      } else {
        binding.upload?.received(entry, bytes: progress.received)
        acknowledged.append(.received(reference: progress.reference, bytes: progress.received))
      }
    }
    guard !acknowledged.isEmpty else { return }
    signals += acknowledged
    onSignals()
  }

  fileprivate func stop(_ reference: UInt32) {
    guard files.removeValue(forKey: reference) != nil else { return }
    receiver.stop(reference)
    signal(.stop(reference: reference))
  }

  /// One upload's files: what its entries are called on the wire.
  @MainActor
  private final class Binding: FileUploadTransport {
    weak var upload: FileUpload?
    weak var owner: WebSessionUploads?
    var references: [Int: UInt32] = [:]

    init(upload: FileUpload, owner: WebSessionUploads) {
      self.upload = upload
      self.owner = owner
    }

    func stop(_ id: Int) {
      guard let reference = references.removeValue(forKey: id) else { return }
      owner?.stop(reference)
    }

    func release(_ id: Int, file: URL) {
      references[id] = nil
      owner?.receiver.release(file)
    }
  }
}
