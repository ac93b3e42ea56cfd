import ExampleSupport
import Foundation
import Tether

/// Seed 004's entry screen: fetch a user, then select them to be greeted.
@MainActor
public final class EntryViewModel {
  /// Where the entry screen leads.
  public enum Route {
    /// The greeting for the selected user.
    case greeting(GreetingViewModel)
  }

  /// The screen's title.
  public let title = "Entry"

  private let _userName = MutableProperty<String?>(nil)
  /// The fetched user's name, or `nil` before the first fetch.
  public let userName: Property<String?>
  private let load = LoadCycle()
  /// The user line: "User: <name>", or "User: —" before the first fetch.
  public let userText: Property<String>
  /// Whether a fetch is running.
  public let isFetching: Property<Bool>
  /// Why the last fetch failed, or `nil`.
  public let errorMessage: Property<String?>
  /// Whether there is a user to select.
  public let canSelect: Property<Bool>
  /// The greeting to show once the user selects the fetched user.
  @Event public var route: Signal<Route>

  private let fetcher: any UserFetcher
  private let fetchedUsers = Signal<User>.pipe()

  /// Creates the entry view model.
  ///
  /// - Parameter fetcher: Where users come from.
  public init(fetcher: any UserFetcher) {
    isFetching = load.isLoading
    errorMessage = load.errorMessage
    self.fetcher = fetcher
    userName = Property(_userName)
    canSelect = _userName.map { $0 != nil }
    userText = _userName.map { "User: \($0 ?? "—")" }
    // Seed 004: `mutableUserName <~ userFetcher.fetchUser().map { $0.name }`.
    _userName <~ fetchedUsers.output.map { Optional($0.name) }
  }

  /// The user asked to fetch a user (again, after an error).
  public func fetchRequested() async {
    await load.run { [self] () async throws(ServiceError) in
      fetchedUsers.input.send(try await fetcher.fetchUser())
    }
  }

  /// The user selected the fetched user: route to their greeting. Nothing happens before a
  /// user is fetched.
  public func selectRequested() {
    guard let name = _userName.value else { return }
    _route.send(.greeting(GreetingViewModel(userName: name)))
  }
}
