import ExampleSupport
import Foundation
import Tether
import TetherPubSub

/// What the detail screen of a for-sale photo shows.
@MainActor
public final class PhotoDetailViewModel {
  /// The photo shown.
  public let photo: Photo
  /// The title.
  public let titleText: String
  /// "by <photographer>", or "Photographer unknown".
  public let photographerText: String
  /// The description with HTML removed, line breaks kept; "No description" when empty.
  public let descriptionText: String
  /// "Camera: <model>", or "Camera unknown".
  public let cameraText: String
  /// "Uploaded <yyyy-MM-dd>".
  public let dateText: String
  /// "<width> × <height> px", or `nil` when the size is unknown.
  public let sizeText: String?
  /// "Rating <n>", or `nil` when unknown.
  public let ratingText: String?
  /// "For sale".
  public let availabilityText = "For sale"
  /// The image's address.
  public let imageURL: String
  /// The upload date and the availability on one line.
  public let availabilityLine: String
  /// The size and rating on one line, whichever are known.
  public let detailsLine: String
  /// A small copy of the picture, for views that draw pixels themselves (a terminal's shaded
  /// cells); `nil` when the picture is not one the catalog draws.
  public let preview: PhotoImage?
  /// The preview's size in pixels.
  public static let previewWidth = 48
  /// The preview's size in pixels.
  public static let previewHeight = 16
  /// "3 viewers now" while the photo is open in more than one tab or browser, on any node
  /// (presence, with a `PubSub`); `nil` otherwise.
  @Output public private(set) var viewersText: String? = nil
  /// Ends this screen's presence with it.
  public let lifetime = Lifetime()
  private let pubsub: PubSub?
  private var viewers: Property<[PresenceEntry<PhotoViewer>]>?
  private var viewersToken: ObservationToken?

  /// Formats `photo` for the detail screen.
  ///
  /// - Parameters:
  ///   - photo: The photo to show.
  ///   - dates: The date format shared with the list.
  ///   - pubsub: Where the screen says it shows the photo, and counts who else does; none
  ///     unless given.
  public init(photo: Photo, dates: PhotoDateFormat, pubsub: PubSub? = nil) {
    self.photo = photo
    self.pubsub = pubsub
    titleText = photo.name
    photographerText = photo.photographer.map { "by \($0)" } ?? "Photographer unknown"
    let description = photo.description?.plainText(singleLine: false) ?? ""
    descriptionText = description.isEmpty ? "No description" : description
    let camera = photo.camera?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    cameraText = camera.isEmpty ? "Camera unknown" : "Camera: \(camera)"
    dateText = "Uploaded \(dates.string(from: photo.createdAt))"
    if let width = photo.width, let height = photo.height {
      sizeText = "\(width) × \(height) px"
    } else {
      sizeText = nil
    }
    ratingText = photo.rating.map { String(format: "Rating %.1f", $0) }
    imageURL = photo.imageURL
    availabilityLine = "\(dateText) · \(availabilityText)"
    detailsLine = [sizeText, ratingText].compactMap { $0 }.joined(separator: " · ")
    // The bundled catalog's pictures are drawn from the id; any other URL has no preview here.
    preview =
      PhotoImage.photoID(inPath: photo.imageURL) == photo.id
      ? PhotoImage(photoID: photo.id, width: Self.previewWidth, height: Self.previewHeight) : nil
  }

  /// The screen appeared: say it shows the photo, and count who does.
  public func viewDidLoad() async {
    guard let pubsub, viewers == nil else { return }
    let topic = PresenceTopic<PhotoViewer>("gallery.photo.\(photo.id).viewers")
    let viewers = pubsub.presence(on: topic)
    self.viewers = viewers
    viewersToken = viewers.observe { [weak self] entries in
      self?.viewersText = entries.count > 1 ? "\(entries.count) viewers now" : nil
    }
    // The count is a courtesy: a node whose transport is down shows none.
    try? await pubsub.track(UUID().uuidString, meta: PhotoViewer(), on: topic, owner: self)
  }
}

extension PhotoDetailViewModel: @MainActor LifetimeProvider {}

/// What a screen showing a photo says of itself on the photo's presence topic: nothing but
/// that it is there.
public struct PhotoViewer: Codable, Sendable, Equatable {
  /// A viewer.
  public init() {}
}
