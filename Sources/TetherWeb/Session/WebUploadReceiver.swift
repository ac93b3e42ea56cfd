import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a session's uploads are written, and how much one session may receive at once
/// (``WebApp/uploads``).
public struct WebUploadLimits: Sendable, Equatable {
  /// The most bytes of files one session receives at once (the sizes offered of its files
  /// still arriving); a file past it fails at once. 64 MB by default.
  public var sessionBytes: Int
  /// The most bytes of files the whole process receives at once, all sessions together: many
  /// sessions each within its budget cannot fill the disk. 1 GB by default.
  public var processBytes: Int
  /// The folder files are written to while they arrive: a folder of this process's own
  /// under the temporary directory by default.
  public var directory: URL

  /// Limits.
  ///
  /// - Parameters:
  ///   - sessionBytes: The most bytes one session receives at once.
  ///   - processBytes: The most bytes all sessions receive at once.
  ///   - directory: Where files are written while they arrive.
  public init(
    sessionBytes: Int = 64 << 20, processBytes: Int = 1 << 30,
    directory: URL = WebUploadLimits.processDirectory
  ) {
    self.sessionBytes = max(0, sessionBytes)
    self.processBytes = max(0, processBytes)
    self.directory = directory
  }

  /// `tether-uploads/<process id>` under the temporary directory. The first time a process
  /// asks for it, the folders of processes that are no longer running are deleted with what
  /// they hold: a server killed while files arrived leaves nothing behind for long.
  public static let processDirectory: URL = {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("tether-uploads")
    removeFoldersOfEndedProcesses(in: parent, except: getpid())
    return parent.appendingPathComponent(String(getpid()))
  }()

  /// Deletes each folder in `parent` named by the id of a process that is no longer running
  /// (but `own`'s), with what it holds; any other folder is left alone.
  package static func removeFoldersOfEndedProcesses(in parent: URL, except own: Int32) {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
      guard let pid = Int32(name), pid > 0, pid != own, !isRunning(pid) else { continue }
      try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
    }
  }

  /// Whether a process with `pid` exists (one another user runs counts as running).
  private static func isRunning(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
  }
}

/// The files one session is receiving over its page's socket, written to disk as their chunks
/// arrive: what the socket's reader calls for each binary message, off the main actor.
///
/// A chunk is one binary WebSocket message: the file's reference (4 bytes, big-endian), then
/// up to ``maximumChunkSize`` bytes of the file, in order. The page sends at most ``window``
/// bytes of a file ahead of what the session has acknowledged (``UploadSignal/received(reference:bytes:)``),
/// and the socket is read no faster than the chunks are written: the page's upload is paced by
/// the disk and the session, never buffered in memory.
///
/// Every file is bounded by the size it was offered with, and a session's files together by
/// its byte budget (``init(directory:budget:changed:)``): a chunk past either, or for a file
/// the session never offered, is refused and charged to the socket's budget, which closes a
/// socket that keeps sending them. Chunks already on their way when a file was stopped are
/// dropped at no charge, up to one window.
package final class WebUploadReceiver: Sendable {
  /// The most bytes of a file one chunk carries (``ClientMessage/maximumUploadChunkSize``).
  package static let maximumChunkSize = ClientMessage.maximumUploadChunkSize
  /// The most bytes of a file the page sends ahead of the session's acknowledgement
  /// (``ClientMessage/uploadWindow``).
  package static let window = ClientMessage.uploadWindow

  /// What a chunk did.
  package enum Outcome: Equatable, Sendable {
    /// Written.
    case written
    /// Dropped at no charge: its file was stopped while it was on its way.
    case dropped
    /// Refused: no such file, or more than it was offered with. Its bytes are charged.
    case refused(String)
  }

  /// A file's progress, for the session.
  package struct Progress: Equatable, Sendable {
    package let reference: UInt32
    package let received: Int
    /// Where the file is, once every byte arrived.
    package let finished: URL?
    /// Why it failed, if it did.
    package let failure: String?
  }

  private struct File {
    let url: URL
    let handle: FileHandle
    let size: Int
    var received = 0
  }

  private struct State {
    var files: [UInt32: File] = [:]
    /// Files stopped: the bytes still allowed to arrive for each at no charge.
    var stopped: [UInt32: Int] = [:]
    /// Files finished and not yet let go: deleted when the session ends.
    var finished: [URL] = []
    var changed: [UInt32: Progress] = [:]
    var notifying = false
    var reserved = 0
    var nextReference: UInt32 = 1
    var closed = false
  }

  private let state = Mutex(State())
  private let directory: URL
  /// The most bytes of files the session receives at once.
  package let budget: Int
  /// The most bytes of files every session of the process receives at once.
  private let processBudget: Int
  private let ledger: Ledger
  /// Called, from any thread, when progress waits to be taken (``takeProgress()``); not again
  /// until it has been taken.
  private let changed: @Sendable () -> Void

  /// A receiver writing into `directory`.
  ///
  /// - Parameters:
  ///   - directory: Where files are written while they arrive.
  ///   - budget: The most bytes of the files being received at once.
  ///   - processBudget: The most bytes all the receivers sharing `ledger` take at once.
  ///   - ledger: The bytes reserved by every receiver of the process (a test's own).
  ///   - changed: Told when progress waits to be taken.
  package init(
    directory: URL, budget: Int, processBudget: Int = 1 << 30,
    ledger: Ledger = .process, changed: @escaping @Sendable () -> Void
  ) {
    self.directory = directory
    self.budget = max(0, budget)
    self.processBudget = max(0, processBudget)
    self.ledger = ledger
    self.changed = changed
  }

  /// The bytes reserved by the receivers that share it.
  package final class Ledger: Sendable {
    /// The process's own.
    package static let process = Ledger()
    private let reserved = Mutex(0)

    package init() {}

    /// Takes `bytes` (or gives them back, when negative); whether they fit within `limit`.
    @discardableResult
    func reserve(_ bytes: Int, within limit: Int) -> Bool {
      reserved.withLock { reserved in
        guard bytes <= 0 || bytes <= limit - reserved else { return false }
        reserved += bytes
        return true
      }
    }
  }

  /// Starts receiving a file of `size` bytes.
  ///
  /// - Parameter size: The size the file was offered with.
  /// - Returns: The file's reference, or `nil` when the budget has no room for it or its file
  ///   cannot be created.
  package func open(size: Int) -> UInt32? {
    state.withLock { state -> UInt32? in
      guard !state.closed, size >= 0, size <= budget - state.reserved,
        ledger.reserve(size, within: processBudget)
      else { return nil }
      let url = directory.appendingPathComponent(UUID().uuidString + ".upload")
      guard
        (try? FileManager.default.createDirectory(
          at: directory, withIntermediateDirectories: true)) != nil,
        FileManager.default.createFile(atPath: url.path, contents: nil),
        let handle = try? FileHandle(forWritingTo: url)
      else {
        ledger.reserve(-size, within: .max)
        return nil
      }
      let reference = state.nextReference
      state.nextReference = state.nextReference == UInt32.max ? 1 : state.nextReference + 1
      state.reserved += size
      state.files[reference] = File(url: url, handle: handle, size: size)
      if size == 0 { finish(reference, in: &state) }
      return reference
    }.map { reference in
      notify()
      return reference
    }
  }

  /// Writes one chunk the page sent.
  ///
  /// - Parameter chunk: The file's reference (4 bytes, big-endian), then its next bytes.
  /// - Returns: What became of it.
  package func write(_ chunk: [UInt8]) -> Outcome {
    guard chunk.count > 4, chunk.count <= 4 + Self.maximumChunkSize else {
      return .refused("a chunk of \(chunk.count) bytes")
    }
    let reference = chunk[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let bytes = chunk.count - 4
    let outcome = state.withLock { state -> Outcome in
      guard var file = state.files[reference] else {
        if let allowed = state.stopped[reference], allowed >= bytes {
          state.stopped[reference] = allowed - bytes
          return .dropped
        }
        return .refused("a chunk of no file being received")
      }
      guard bytes <= file.size - file.received else {
        fail(reference, "The file sent was larger than the file chosen.", in: &state)
        return .refused("a chunk past its file's size")
      }
      do {
        try file.handle.write(contentsOf: chunk[4...])
      } catch {
        fail(reference, "The server could not store the file.", in: &state)
        return .dropped
      }
      file.received += bytes
      state.files[reference] = file
      if file.received == file.size {
        finish(reference, in: &state)
      } else {
        state.changed[reference] = Progress(
          reference: reference, received: file.received, finished: nil, failure: nil)
      }
      return .written
    }
    notify()
    return outcome
  }

  /// The progress of every file that changed since the last call, and lets ``changed`` be
  /// called again.
  package func takeProgress() -> [Progress] {
    state.withLock { state in
      state.notifying = false
      defer { state.changed = [:] }
      return state.changed.values.sorted { $0.reference < $1.reference }
    }
  }

  /// Stops receiving the file `reference` and deletes what arrived.
  package func stop(_ reference: UInt32) {
    state.withLock { state in
      guard let file = state.files.removeValue(forKey: reference) else { return }
      discard(file, in: &state)
      state.changed[reference] = nil
      // A page that cancels and cancels again keeps a few windows' grace, not one per file
      // it ever sent.
      if state.stopped.count >= 16, let oldest = state.stopped.keys.min() {
        state.stopped[oldest] = nil
      }
      state.stopped[reference] = Self.window
    }
  }

  /// Deletes a finished file the session let go of.
  package func release(_ url: URL) {
    state.withLock { state in
      guard let index = state.finished.firstIndex(of: url) else { return }
      state.finished.remove(at: index)
      try? FileManager.default.removeItem(at: url)
    }
  }

  /// The page's socket ended: every file still arriving is deleted.
  ///
  /// - Returns: The references of the files that were still arriving.
  package func socketEnded() -> [UInt32] {
    state.withLock { state in
      let references = Array(state.files.keys).sorted()
      for reference in references {
        if let file = state.files.removeValue(forKey: reference) { discard(file, in: &state) }
        state.changed[reference] = nil
      }
      state.stopped = [:]
      return references
    }
  }

  /// The session ended: every file, arriving or finished, is deleted, and nothing more is
  /// received.
  package func close() {
    _ = socketEnded()
    state.withLock { state in
      state.closed = true
      for url in state.finished { try? FileManager.default.removeItem(at: url) }
      state.finished = []
    }
  }

  /// The bytes of the files being received, as offered.
  package var reserved: Int { state.withLock { $0.reserved } }

  private func notify() {
    let due = state.withLock { state -> Bool in
      guard !state.changed.isEmpty, !state.notifying else { return false }
      state.notifying = true
      return true
    }
    if due { changed() }
  }

  private func finish(_ reference: UInt32, in state: inout State) {
    guard let file = state.files.removeValue(forKey: reference) else { return }
    try? file.handle.close()
    state.reserved -= file.size
    ledger.reserve(-file.size, within: .max)
    state.finished.append(file.url)
    state.changed[reference] = Progress(
      reference: reference, received: file.size, finished: file.url, failure: nil)
  }

  private func fail(_ reference: UInt32, _ reason: String, in state: inout State) {
    guard let file = state.files.removeValue(forKey: reference) else { return }
    discard(file, in: &state)
    state.changed[reference] = Progress(
      reference: reference, received: file.received, finished: nil, failure: reason)
  }

  private func discard(_ file: File, in state: inout State) {
    try? file.handle.close()
    try? FileManager.default.removeItem(at: file.url)
    state.reserved -= file.size
    ledger.reserve(-file.size, within: .max)
  }
}
