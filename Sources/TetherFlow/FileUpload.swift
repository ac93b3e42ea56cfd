import Foundation
import Tether

/// Files a person sends the app: the rules they must meet, and each file's progress as an
/// output a view shows.
///
/// A view model owns one `FileUpload` per place that takes files (a photo picker, an
/// attachment field); a view layer binds it to its own control — TetherWeb's
/// `fileInput(_:label:)` streams the bytes over the page's socket — and reports what happens
/// to each file here, so every view layer shows the same entries by the same rules.
///
/// ```swift
/// let photos = FileUpload(
///   rules: FileUploadRules(accept: ["image/jpeg", "image/png"], maximumFileSize: 5_000_000))
/// let arrivals = photos.completed.observe { entry in
///   // Read or move `entry.file`, then let the entry go.
///   photos.remove(entry.id)
/// }
/// ```
///
/// - ``entries`` lists the files offered, in order: each file refused (with why) or being
///   received (with its progress), finished, failed or cancelled.
/// - The rules are checked on the server, whatever the page checked: a file of a type not
///   accepted, over the size limit, or past the count is refused before a byte is sent.
/// - ``cancel(_:)`` is a person's gesture: the view layer stops receiving the file and deletes
///   what it had.
/// - A finished file waits at ``Entry/file`` until the view model takes it; ``remove(_:)``
///   deletes it, as does the view layer when its session ends.
@MainActor
public final class FileUpload {
  /// One file offered: its name, size and type as the person's device gave them, and where it
  /// is.
  public struct Entry: Identifiable, Equatable, Sendable {
    /// The entry's number, unique in this upload.
    public let id: Int
    /// The file's name, as the device gave it (never a path to trust).
    public let name: String
    /// The file's size in bytes, as offered.
    public let size: Int
    /// The file's type, such as `image/png`, as the device gave it; may be empty.
    public let type: String
    /// The bytes received so far.
    public internal(set) var received: Int
    /// Where the file is.
    public internal(set) var state: State

    /// The share received, from 0 to 100.
    public var percent: Int {
      guard size > 0 else { return state == .finished ? 100 : 0 }
      return Int((Double(received) / Double(size) * 100).rounded(.down))
    }

    /// Where the finished file waits for the view model, if it is finished.
    public var file: URL? {
      if case .finishedAt(let url) = storage { return url }
      return nil
    }

    var storage: Storage = .none

    enum Storage: Equatable, Sendable {
      case none
      case finishedAt(URL)
    }
  }

  /// Where an entry is.
  public enum State: Equatable, Sendable {
    /// Bytes are arriving.
    case receiving
    /// Every byte arrived: the file is at ``Entry/file``.
    case finished
    /// Refused before a byte was sent.
    case refused(FileUploadRefusal)
    /// Stopped partway: the connection was lost, or the file was not what was offered.
    case failed(String)
    /// The person cancelled it.
    case cancelled
  }

  /// The files offered, in order.
  @Output public private(set) var entries: [Entry] = []
  /// Each entry as it finishes.
  public let completed: Signal<Entry>
  /// The rules every file must meet.
  public let rules: FileUploadRules

  private let completedInput: Signal<Entry>.Emitter
  private var nextID = 1
  private weak var transport: (any FileUploadTransport)?

  /// An upload with `rules`.
  ///
  /// - Parameter rules: The types, size and count a file must meet.
  public init(rules: FileUploadRules = FileUploadRules()) {
    self.rules = rules
    (completed, completedInput) = Signal.pipe()
  }

  /// Whether an entry is still receiving bytes.
  public var isReceiving: Bool { entries.contains { $0.state == .receiving } }

  // MARK: - A person's gestures

  /// Cancels the entry `id` if it is still receiving: the view layer stops taking its bytes
  /// and deletes what it had.
  ///
  /// - Parameter id: The entry.
  public func cancel(_ id: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }),
      entries[index].state == .receiving
    else { return }
    entries[index].state = .cancelled
    transport?.stop(id)
  }

  /// Takes the entry `id` off the list; a finished file waiting for the view model is
  /// deleted, and one still receiving is cancelled.
  ///
  /// - Parameter id: The entry.
  public func remove(_ id: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    let entry = entries.remove(at: index)
    if entry.state == .receiving { transport?.stop(id) }
    if let file = entry.file { transport?.release(id, file: file) }
  }

  // MARK: - What a view layer reports

  /// Files offered by a person (chosen or dropped): each is checked against the rules and
  /// added as an entry, receiving or refused.
  ///
  /// - Parameters:
  ///   - files: The files, as the device describes them.
  ///   - transport: What receives their bytes: told when an entry is cancelled or let go.
  /// - Returns: The entries added, in the order of `files`.
  @discardableResult
  public func offer(_ files: [FileOffer], via transport: any FileUploadTransport) -> [Entry] {
    self.transport = transport
    var taking = entries.filter { $0.state == .receiving || $0.state == .finished }.count
    var added: [Entry] = []
    for file in files {
      var refusal = rules.refusal(of: file)
      if refusal == nil, taking >= rules.maximumCount {
        refusal = .tooMany(limit: rules.maximumCount)
      }
      let entry = Entry(
        id: nextID, name: file.name, size: file.size, type: file.type, received: 0,
        state: refusal.map(State.refused) ?? .receiving)
      nextID += 1
      if refusal == nil { taking += 1 }
      added.append(entry)
    }
    entries += added
    return added
  }

  /// A file that could not even be offered — a path with no file at it, a folder, a file that
  /// cannot be read — added as an entry refused with `refusal`.
  ///
  /// - Parameters:
  ///   - name: The file's name, as the person gave it.
  ///   - refusal: Why it is refused.
  /// - Returns: The entry.
  @discardableResult
  public func refuse(name: String, _ refusal: FileUploadRefusal) -> Entry {
    let entry = Entry(
      id: nextID, name: name, size: 0, type: "", received: 0, state: .refused(refusal))
    nextID += 1
    entries.append(entry)
    return entry
  }

  /// `bytes` of the entry `id` have arrived so far.
  ///
  /// - Parameters:
  ///   - id: The entry.
  ///   - bytes: The bytes received, all told.
  public func received(_ id: Int, bytes: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }),
      entries[index].state == .receiving, entries[index].received != bytes
    else { return }
    entries[index].received = min(max(0, bytes), entries[index].size)
  }

  /// Every byte of the entry `id` arrived, and the file is at `file`. ``completed`` sends the
  /// entry.
  ///
  /// - Parameters:
  ///   - id: The entry.
  ///   - file: Where the file is: the view model's until it removes the entry.
  public func finished(_ id: Int, at file: URL) {
    guard let index = entries.firstIndex(where: { $0.id == id }),
      entries[index].state == .receiving
    else {
      // Cancelled or removed meanwhile: the file is no one's.
      transport?.release(id, file: file)
      return
    }
    entries[index].received = entries[index].size
    entries[index].state = .finished
    entries[index].storage = .finishedAt(file)
    completedInput.send(entries[index])
  }

  /// The entry `id` stopped partway, for `reason` (a sentence for the person).
  ///
  /// - Parameters:
  ///   - id: The entry.
  ///   - reason: Why, such as "The connection was lost."
  public func failed(_ id: Int, reason: String) {
    guard let index = entries.firstIndex(where: { $0.id == id }),
      entries[index].state == .receiving
    else { return }
    entries[index].state = .failed(reason)
  }
}

/// What receives an upload's bytes, for the upload to stop or let go of a file.
@MainActor
public protocol FileUploadTransport: AnyObject {
  /// Stops receiving the entry `id` and deletes what was received.
  func stop(_ id: Int)
  /// Deletes the finished file of the entry `id`.
  func release(_ id: Int, file: URL)
}

/// A file a person offers, as the device describes it.
public struct FileOffer: Equatable, Sendable {
  /// The file's name.
  public var name: String
  /// Its size in bytes.
  public var size: Int
  /// Its type, such as `image/png`; may be empty.
  public var type: String

  /// The largest size a file may say it has: 2⁵⁰ bytes, far past any upload's rules, so sums
  /// of sizes never overflow.
  public static let maximumSize = 1 << 50

  /// A file offered.
  ///
  /// - Parameters:
  ///   - name: The file's name.
  ///   - size: Its size in bytes.
  ///   - type: Its type; may be empty.
  public init(name: String, size: Int, type: String) {
    self.name = name
    self.size = size
    self.type = type
  }
}

/// The types, size and count an upload's files must meet.
public struct FileUploadRules: Equatable, Sendable {
  /// The types taken: `image/png`, `image/*`, or a name's extension such as `.md`; empty
  /// takes any.
  public var accept: [String]
  /// The largest file taken, in bytes.
  public var maximumFileSize: Int
  /// The most files taken at once (receiving or finished and not yet removed).
  public var maximumCount: Int

  /// Rules.
  ///
  /// - Parameters:
  ///   - accept: The types taken; empty takes any.
  ///   - maximumFileSize: The largest file taken, in bytes.
  ///   - maximumCount: The most files at once.
  public init(accept: [String] = [], maximumFileSize: Int = 8_000_000, maximumCount: Int = 1) {
    self.accept = accept
    self.maximumFileSize = max(0, maximumFileSize)
    self.maximumCount = max(1, maximumCount)
  }

  /// Why `file` is refused by its type or size, or `nil` if these rules take it.
  ///
  /// - Parameter file: The file offered.
  /// - Returns: The refusal, if any.
  public func refusal(of file: FileOffer) -> FileUploadRefusal? {
    guard file.size > 0 else { return .empty }
    guard file.size <= maximumFileSize else {
      return .tooLarge(size: file.size, limit: maximumFileSize)
    }
    guard accepts(file) else { return .type(file.type) }
    return nil
  }

  private func accepts(_ file: FileOffer) -> Bool {
    guard !accept.isEmpty else { return true }
    let type = file.type.lowercased()
    let name = file.name.lowercased()
    return accept.contains { pattern in
      let pattern = pattern.lowercased()
      if pattern.hasPrefix(".") { return name.hasSuffix(pattern) && name.count > pattern.count }
      if pattern.hasSuffix("/*") { return type.hasPrefix(pattern.dropLast()) }
      return type == pattern
    }
  }
}

/// Why a file was refused before a byte was sent.
public enum FileUploadRefusal: Equatable, Sendable, CustomStringConvertible {
  /// Its type is not one the rules accept.
  case type(String)
  /// It is larger than the rules allow.
  case tooLarge(size: Int, limit: Int)
  /// The upload holds as many files as the rules allow.
  case tooMany(limit: Int)
  /// It is empty.
  case empty
  /// It could not be read: the sentence says why ("No file at photo.png.").
  case unreadable(String)

  /// A sentence for the person.
  public var description: String {
    switch self {
    case .type(let type):
      type.isEmpty ? "This kind of file is not accepted." : "\(type) files are not accepted."
    case .tooLarge(_, let limit): "Larger than \(Self.size(limit)), the most accepted."
    case .tooMany(let limit): limit == 1 ? "Only one file at a time." : "At most \(limit) files."
    case .empty: "The file is empty."
    case .unreadable(let reason): reason
    }
  }

  /// `bytes` as a person reads it: `512 bytes`, `40 KB`, `5 MB`.
  static func size(_ bytes: Int) -> String {
    if bytes < 1_000 { return "\(bytes) bytes" }
    if bytes < 1_000_000 { return "\(bytes / 1_000) KB" }
    let megabytes = Double(bytes) / 1_000_000
    return megabytes == megabytes.rounded()
      ? "\(Int(megabytes)) MB" : "\((megabytes * 10).rounded() / 10) MB"
  }
}
