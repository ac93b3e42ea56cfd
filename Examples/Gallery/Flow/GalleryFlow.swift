import Gallery
import Tether
import TetherFlow

/// The Gallery: a for-sale photo opens its detail; any other shows seed 000's alert.
///
/// Paths: `gallery`, then `photo/<id>` for a detail.
@MainActor
public final class GalleryFlow: FlowController {
  private let services: ShowcaseServices
  private let lifetime = Lifetime()
  private weak var list: PhotoListViewModel?

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the photo list and wires its routes and alerts.
  public func start(on navigator: ShowcaseNavigator) -> ShowcaseScreen {
    let list = PhotoListViewModel(
      service: services.photos, timeZone: services.timeZone, pubsub: services.pubsub)
    self.list = list
    list.route.observe { [weak navigator] route in
      switch route {
      case .detail(let detail):
        navigator?.push(
          Screen(
            .photoDetail(detail), title: detail.titleText, path: ["photo", "\(detail.photo.id)"],
            onAppear: { [weak detail] in await detail?.viewDidLoad() }))
      }
    }
    .store(in: lifetime)
    list.alert.observe { [weak navigator] alert in
      navigator?.present(ScreenAlert(title: alert.title, message: alert.message))
    }
    .store(in: lifetime)
    return Screen(
      .photoList(list), title: list.title, path: ["gallery"], owner: self,
      onAppear: { [weak list] in await list?.viewDidLoad() })
  }

  /// `photo/<id>` opens the photo as choosing it would: its detail, or the not-for-sale alert.
  public func restore(_ path: ArraySlice<String>, on navigator: ShowcaseNavigator)
    async throws(NavigationError)
  {
    guard !path.isEmpty else { return }
    let id = try path.identifier(named: "photo")
    guard let list else { throw .unavailable("photo/\(id)", reason: "The list is gone.") }
    do {
      try await list.openRequested(id: id)
    } catch {
      throw .unavailable("photo/\(id)", reason: error.reason(for: "photo \(id)"))
    }
  }
}
