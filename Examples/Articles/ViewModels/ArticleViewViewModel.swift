import ExampleSupport
import Foundation
import Tether

/// What the article screen shows (seed 003's `ArticleViewViewModel`), whatever the article's
/// source. The thumbnail arrives later, through a property the view binds to — the problem the
/// seed left open.
@MainActor
public protocol ArticleViewViewModel: AnyObject {
  /// The headline.
  var title: String { get }
  /// The text.
  var body: String { get }
  /// The date in the short style of the view model's locale.
  var date: String { get }
  /// The thumbnail: `nil` until it has loaded (or when there is none).
  var thumbnail: Property<Thumbnail?> { get }
  /// What the thumbnail slot says while there is no image: "Loading image…", "No image", or
  /// why it failed.
  var thumbnailStatus: Property<String?> { get }
  /// The screen appeared: start loading the thumbnail.
  func viewDidAppear() async
}
