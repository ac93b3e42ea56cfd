import Foundation
import Synchronization
import Tether
import TetherFlow

/// What a terminal offers for sending a file: a path the person types or pastes (a file
/// dragged onto most terminals is pasted as its path). The file at it is offered to a view
/// model's `FileUpload` under the same rules a browser's file input meets, then copied in
/// chunks, with progress, into a file the view model takes as it takes one from a page.
///
/// ```swift
/// final class AddPhotoScreen: TerminalScreen {
///   enum Action { case pathEntered }
///   let model: AddPhotoModel
///   private let reader = TerminalFileReader()
///
///   init(_ model: AddPhotoModel) { self.model = model }
///
///   var body: TerminalMarkup<Action> {
///     textField(model.pathText, placeholder: "Path to a photo").onSubmit(.pathEntered)
///   }
///
///   func handle(_ action: Action) { reader.offer(path: model.pathText.value, to: model.files) }
/// }
/// ```
///
/// A path may be quoted, start with `~`, be a `file://` URL, or escape its spaces with `\`
/// as a shell does. A path with no readable file at it is refused with a sentence saying so.
@MainActor
public final class TerminalFileReader: FileUploadTransport {
  private let directory: URL
  private let chunkSize: Int
  private var copies: [Int: Copy] = [:]

  /// A reader copying into `directory`.
  ///
  /// - Parameters:
  ///   - directory: Where copies are written; the process's temporary directory by default.
  ///   - chunkSize: The bytes read between progress reports.
  public init(
    directory: URL = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tether-uploads"),
    chunkSize: Int = 65_536
  ) {
    self.directory = directory
    self.chunkSize = max(1, chunkSize)
  }

  /// Offers the file at `path` to `upload`, and copies it if the upload's rules take it.
  ///
  /// - Parameters:
  ///   - path: The path as typed or pasted.
  ///   - upload: The view model's upload.
  /// - Returns: The entry the file got: receiving, or refused with why.
  @discardableResult
  public func offer(path: String, to upload: FileUpload) -> FileUpload.Entry {
    let cleaned = Self.cleaned(path)
    let name = URL(fileURLWithPath: cleaned).lastPathComponent
    guard !cleaned.isEmpty else {
      return upload.refuse(name: path, .unreadable("Type the path of a file."))
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: cleaned, isDirectory: &isFolder) else {
      return upload.refuse(name: name, .unreadable("No file at \(cleaned)."))
    }
    guard !isFolder.boolValue else {
      return upload.refuse(name: name, .unreadable("\(cleaned) is a folder."))
    }
    guard FileManager.default.isReadableFile(atPath: cleaned),
      let attributes = try? FileManager.default.attributesOfItem(atPath: cleaned),
      let size = (attributes[.size] as? NSNumber)?.intValue
    else {
      return upload.refuse(name: name, .unreadable("\(cleaned) cannot be read."))
    }
    let offer = FileOffer(name: name, size: size, type: Self.type(ofName: name))
    guard let entry = upload.offer([offer], via: self).first else {
      return upload.refuse(name: name, .unreadable("\(cleaned) cannot be read."))
    }
    if entry.state == .receiving { copy(cleaned, size: size, as: entry.id, for: upload) }
    return entry
  }

  /// Stops copying the entry `id`; what was copied is deleted.
  public func stop(_ id: Int) {
    copies.removeValue(forKey: id)?.cancel()
  }

  /// Deletes the copy of the entry `id`.
  public func release(_ id: Int, file: URL) {
    try? FileManager.default.removeItem(at: file)
  }

  private func copy(_ path: String, size: Int, as id: Int, for upload: FileUpload) {
    let target = directory.appendingPathComponent(UUID().uuidString + ".upload")
    let stopped = Copy.Flag()
    let chunkSize = self.chunkSize
    let directory = self.directory
    let reported = Copy.Progress()
    let task = Task.detached { [weak upload, weak self] in
      let outcome = Self.copy(
        path, to: target, in: directory, size: size, chunkSize: chunkSize, stopped: stopped
      ) { copied in
        // One report waits on the main actor at a time, and it reads the newest count.
        guard reported.update(copied) else { return }
        Task { @MainActor in upload?.received(id, bytes: reported.take()) }
      }
      await MainActor.run {
        self?.copies[id] = nil
        switch outcome {
        case .copied: upload?.finished(id, at: target)
        case .failed(let reason): upload?.failed(id, reason: reason)
        case .stopped: break
        }
      }
    }
    copies[id] = Copy(task: task, stopped: stopped)
  }

  private enum Outcome: Sendable {
    case copied, stopped
    case failed(String)
  }

  /// Copies the file, off the main actor; deletes the copy unless it is whole.
  private nonisolated static func copy(
    _ path: String, to target: URL, in directory: URL, size: Int, chunkSize: Int,
    stopped: Copy.Flag, progress: (Int) -> Void
  ) -> Outcome {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      guard FileManager.default.createFile(atPath: target.path, contents: nil) else {
        return .failed("The file could not be stored.")
      }
      let source = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      let sink = try FileHandle(forWritingTo: target)
      defer {
        try? source.close()
        try? sink.close()
      }
      var copied = 0
      while let data = try source.read(upToCount: chunkSize), !data.isEmpty {
        guard !stopped.isSet else {
          try? FileManager.default.removeItem(at: target)
          return .stopped
        }
        copied += data.count
        // A file that grew since it was offered is not the file offered.
        guard copied <= size else {
          try? FileManager.default.removeItem(at: target)
          return .failed("The file changed while it was read.")
        }
        try sink.write(contentsOf: data)
        progress(copied)
      }
      guard copied == size else {
        try? FileManager.default.removeItem(at: target)
        return .failed("The file changed while it was read.")
      }
      return .copied
    } catch {
      try? FileManager.default.removeItem(at: target)
      return .failed("The file could not be read.")
    }
  }

  /// The path as a shell would read it: surrounding spaces and one pair of quotes dropped, a
  /// `file://` URL as its path, `\ ` as a space, and a leading `~` as the home folder.
  ///
  /// - Parameter path: The path as typed or pasted.
  /// - Returns: The path.
  public nonisolated static func cleaned(_ path: String) -> String {
    var text = path.trimmingCharacters(in: .whitespacesAndNewlines)
    for quote in ["\"", "'"] where text.count >= 2 && text.hasPrefix(quote) && text.hasSuffix(quote)
    {
      text = String(text.dropFirst().dropLast())
    }
    if text.hasPrefix("file://"), let url = URL(string: text), url.isFileURL {
      return url.path
    }
    text = text.replacingOccurrences(of: "\\ ", with: " ")
    if text == "~" || text.hasPrefix("~/") {
      text = FileManager.default.homeDirectoryForCurrentUser.path + text.dropFirst()
    }
    return text
  }

  /// The type a file's name says it has, as a browser would give it; empty for a name it
  /// does not know.
  ///
  /// - Parameter name: The file's name.
  /// - Returns: A type such as `image/png`, or "".
  public nonisolated static func type(ofName name: String) -> String {
    let types = [
      "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
      "webp": "image/webp", "svg": "image/svg+xml", "txt": "text/plain", "md": "text/markdown",
      "csv": "text/csv", "html": "text/html", "json": "application/json",
      "pdf": "application/pdf", "zip": "application/zip",
    ]
    let suffix = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
    return name.contains(".") ? types[suffix] ?? "" : ""
  }

  /// A copy under way.
  private struct Copy {
    let task: Task<Void, Never>
    let stopped: Flag

    func cancel() {
      stopped.set()
    }

    /// The newest count copied, and whether a report of it waits on the main actor.
    final class Progress: Sendable {
      private let copied = Atomic(0)
      private let waiting = Atomic(false)

      /// Records `bytes`; whether a report must be scheduled (none waits).
      func update(_ bytes: Int) -> Bool {
        copied.store(bytes, ordering: .releasing)
        return !waiting.exchange(true, ordering: .acquiringAndReleasing)
      }

      /// The newest count, letting the next update schedule a report.
      func take() -> Int {
        waiting.store(false, ordering: .releasing)
        return copied.load(ordering: .acquiring)
      }
    }

    /// Set once, read from the copying thread.
    final class Flag: Sendable {
      private let value = Atomic(false)
      var isSet: Bool { value.load(ordering: .relaxed) }
      func set() { value.store(true, ordering: .relaxed) }
    }
  }
}
