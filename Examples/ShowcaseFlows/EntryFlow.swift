import Entry
import Tether
import TetherFlow

/// The Entry: seed 004's flow. The entry view model routes to a greeting once a fetched user
/// is selected; this flow shows it.
///
/// Paths: `entry`, then `greeting/<name>`.
@MainActor
public final class EntryFlow: FlowController {
  private let services: ShowcaseServices
  private let lifetime = Lifetime()

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the entry screen; a selected user opens the greeting.
  public func start(on navigator: ShowcaseNavigator) -> ShowcaseScreen {
    let entry = EntryViewModel(fetcher: services.users)
    entry.route.observe { [weak self, weak navigator] route in
      switch route {
      case .greeting(let greeting): self?.show(greeting, on: navigator)
      }
    }
    .store(in: lifetime)
    return Screen(.entry(entry), title: entry.title, path: ["entry"], owner: self)
  }

  /// `greeting/<name>` greets that name.
  public func restore(_ path: ArraySlice<String>, on navigator: ShowcaseNavigator)
    async throws(NavigationError)
  {
    guard let first = path.first else { return }
    guard first == "greeting", path.count == 2, let name = path.last, !name.isEmpty else {
      throw .unknownComponent(path.joined(separator: "/"))
    }
    show(GreetingViewModel(userName: name), on: navigator)
  }

  private func show(_ greeting: GreetingViewModel, on navigator: ShowcaseNavigator?) {
    navigator?.push(
      Screen(.greeting(greeting), title: greeting.title, path: ["greeting", greeting.userName]))
  }
}
