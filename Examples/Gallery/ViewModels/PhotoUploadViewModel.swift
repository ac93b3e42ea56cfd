import Foundation
import Tether
import TetherFlow

/// Photos a person adds to the gallery from their device: the files taken (TetherFlow's
/// `FileUpload`: JPEG, PNG, GIF or WebP, up to 2 MB, three at a time) and, once one arrives and
/// its bytes are an image of the type it claimed, the photo shown under the list.
///
/// ```swift
/// let added = PhotoUploadViewModel()
/// added.$photos.observe { photos in … }   // each photo's name and an inline image address
/// ```
///
/// The photos are kept for the screen's life, in memory (a showcase has no photo store of its
/// own): a session rebuilt on another server after a node's death shows none.
@MainActor
public final class PhotoUploadViewModel {
  /// A photo added from the device.
  public struct AddedPhoto: Identifiable, Equatable, Sendable {
    /// Its number, in the order added.
    public let id: Int
    /// The file's name.
    public let name: String
    /// The image as an inline address (`data:image/png;base64,…`).
    public let imageSource: String
  }

  /// The files offered, with their progress.
  public let files = FileUpload(
    rules: FileUploadRules(
      accept: ImageKind.allCases.map(\.mimeType), maximumFileSize: 2_000_000, maximumCount: 3))
  /// The photos added, newest first.
  @Output public private(set) var photos: [AddedPhoto] = []
  /// Why the last file that arrived is not shown, if it is not.
  @Output public private(set) var problem: String?
  /// What the input says it takes.
  public let inputLabel = "Add a photo (JPEG, PNG, GIF or WebP, up to 2 MB)"
  /// A terminal's path to a photo, as typed.
  public let pathText = MutableProperty("")
  /// Whether a terminal's path field has the keys (`a` gives it; Enter or Escape ends it).
  @Output public private(set) var isTypingPath = false
  /// The files offered, on one line: each one's name and progress, or why it was refused or
  /// failed; `nil` while there are none.
  public private(set) lazy var entryLines: Property<String?> = files.$entries.map { entries in
    entries.isEmpty
      ? nil : entries.map(PhotoUploadViewModel.line).joined(separator: " · ")
  }
  /// The photos added, on one line: "Added: a.png, b.png"; `nil` while there are none.
  public private(set) lazy var addedLine: Property<String?> = $photos.map { photos in
    photos.isEmpty ? nil : "Added: " + photos.map(\.name).joined(separator: ", ")
  }

  private var nextID = 1
  private var token: ObservationToken?

  /// Creates an empty set of added photos.
  public init() {
    token = files.completed.observe { [weak self] entry in self?.arrived(entry) }
  }

  /// `a` in a terminal: the path field takes the keys.
  public func addRequested() {
    if !isTypingPath { isTypingPath = true }
  }

  /// Enter in the path field: the path to offer, and the field is cleared and let go.
  ///
  /// - Returns: The path as typed.
  public func pathEntered() -> String {
    let path = pathText.value
    pathText.value = ""
    isTypingPath = false
    return path
  }

  /// Escape in the path field: nothing is offered.
  public func pathCancelled() {
    pathText.value = ""
    isTypingPath = false
  }

  private nonisolated static func line(_ entry: FileUpload.Entry) -> String {
    switch entry.state {
    case .receiving: "\(entry.name) \(entry.percent)%"
    case .finished: "\(entry.name) received"
    case .refused(let refusal): "\(entry.name): \(refusal)"
    case .failed(let reason): "\(entry.name): \(reason)"
    case .cancelled: "\(entry.name): cancelled"
    }
  }

  private func arrived(_ entry: FileUpload.Entry) {
    defer { files.remove(entry.id) }
    guard let file = entry.file, let data = FileManager.default.contents(atPath: file.path) else {
      problem = "\(entry.name) could not be read."
      return
    }
    // The type the device claimed is only a claim: the bytes must open as that image.
    guard let kind = ImageKind(mimeType: entry.type), kind.matches(data) else {
      problem = "\(entry.name) is not the image it says it is."
      return
    }
    problem = nil
    photos.insert(
      AddedPhoto(
        id: nextID, name: entry.name,
        imageSource: "data:\(kind.mimeType);base64,\(data.base64EncodedString())"),
      at: 0)
    nextID += 1
  }
}

/// The raster images a page may show inline, each known by its first bytes.
enum ImageKind: CaseIterable {
  case jpeg, png, gif, webp

  init?(mimeType: String) {
    guard let kind = Self.allCases.first(where: { $0.mimeType == mimeType.lowercased() }) else {
      return nil
    }
    self = kind
  }

  var mimeType: String {
    switch self {
    case .jpeg: "image/jpeg"
    case .png: "image/png"
    case .gif: "image/gif"
    case .webp: "image/webp"
    }
  }

  /// Whether `data` starts as this kind of image does.
  func matches(_ data: Data) -> Bool {
    let bytes = [UInt8](data.prefix(12))
    switch self {
    case .jpeg: return bytes.starts(with: [0xFF, 0xD8, 0xFF])
    case .png: return bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    case .gif: return bytes.starts(with: Array("GIF8".utf8))
    case .webp:
      return bytes.count == 12 && bytes.starts(with: Array("RIFF".utf8))
        && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }
  }
}
