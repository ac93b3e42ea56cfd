import ExampleSupport
import Foundation
import Tether

/// A user as `GET {base}/user` returns it.
public struct User: Equatable, Hashable, Sendable, Codable {
  /// The user's name.
  public var name: String

  /// Creates a user.
  ///
  /// - Parameter name: The user's name.
  public init(name: String) {
    self.name = name
  }
}

/// Fetches a user (seed 004's `UserFetcher`).
public protocol UserFetcher: Sendable {
  /// Fetches a user.
  ///
  /// - Returns: The user.
  /// - Throws: A ``ServiceError``.
  func fetchUser() async throws(ServiceError) -> User
}

/// The embedded users, handed out in turn.
public actor BundledUserFetcher: UserFetcher {
  /// The users, in the order they are fetched.
  public static let users = ["Ada Lovelace", "Grace Hopper", "李娜", "Алексей", "Linus"].map(
    User.init)
  private var next = 0

  /// Creates a fetcher starting with the first user.
  public init() {}

  /// The next user, wrapping around.
  public func fetchUser() async throws(ServiceError) -> User {
    defer { next = (next + 1) % Self.users.count }
    return Self.users[next]
  }
}

/// Users from a server: `GET {base}/user`.
public struct HTTPUserFetcher: UserFetcher {
  private let client: HTTPClient

  /// Creates a fetcher for the server at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root.
  ///   - timeout: The limit for one request.
  public init(baseURL: URL, timeout: Duration = .seconds(10)) {
    client = HTTPClient(baseURL: baseURL, timeout: timeout)
  }

  /// Fetches and decodes a user.
  public func fetchUser() async throws(ServiceError) -> User {
    try await client.get("/user", as: User.self)
  }
}

/// The entry screen (seed 004's `EntryViewModel`): fetch a user, then select it.
@MainActor
public final class EntryViewModel {
  /// The screen's title.
  public let title = "Entry"

  private let _userName = MutableProperty<String?>(nil)
  /// The fetched user's name, read-only (the seed's `Property(mutableUserName)`); `nil` until a
  /// user is fetched.
  public let userName: Property<String?>
  private let _isFetching = MutableProperty(false)
  /// Whether a fetch is under way.
  public var isFetching: Property<Bool> { _isFetching }
  private let _errorMessage = MutableProperty<String?>(nil)
  /// Why the last fetch failed, or `nil`.
  public var errorMessage: Property<String?> { _errorMessage }
  /// Whether "select" can do anything: a user has been fetched.
  public let canSelect: Property<Bool>
  private let selectedPipe = Signal<String>.pipe()
  /// The selected user's name (the seed's `onUserNameSelected`), for the flow controller.
  public var onUserNameSelected: Signal<String> { selectedPipe.output }

  private let fetcher: any UserFetcher
  private let fetchedUsers = Signal<User>.pipe()

  /// Creates the screen's view model.
  ///
  /// - Parameter fetcher: Where users come from.
  public init(fetcher: any UserFetcher) {
    self.fetcher = fetcher
    userName = Property(_userName)
    canSelect = _userName.map { $0 != nil }
    // Seed 004: `mutableUserName <~ userFetcher.fetchUser().map { $0.name }`.
    _userName <~ fetchedUsers.output.map { Optional($0.name) }
  }

  /// The user tapped "fetch user".
  public func fetchUser() async {
    guard !_isFetching.value else { return }
    if _errorMessage.value != nil { _errorMessage.value = nil }
    _isFetching.value = true
    do {
      fetchedUsers.input.send(try await fetcher.fetchUser())
    } catch {
      _errorMessage.value = error.userMessage
    }
    _isFetching.value = false
  }

  /// The user tapped "select user": report the name, if one was fetched.
  public func selectUser() {
    if let name = _userName.value {
      selectedPipe.input.send(name)
    }
  }
}

/// The screen shown after a user is selected.
@MainActor
public final class GreetingViewModel {
  /// "Hello, <name>!".
  public let greeting: String
  /// The selected name.
  public let userName: String

  /// Creates the greeting for `userName`.
  ///
  /// - Parameter userName: The selected user's name.
  public init(userName: String) {
    self.userName = userName
    greeting = "Hello, \(userName)!"
  }
}

/// Where the entry flow goes next, decided from the view model's outputs (seed 004 puts this
/// in `MainFlowController.onUserNameSelected`).
public enum EntryRoute {
  /// Show the greeting for the selected user.
  case greeting(GreetingViewModel)
}

/// The navigation logic of seed 004's `MainFlowController`, without any UI: it builds the
/// entry view model, injects its fetcher, listens to its outputs and says where to go.
@MainActor
public final class EntryFlowLogic {
  /// The entry screen's view model, built and injected by this flow.
  public let entry: EntryViewModel
  private let routePipe = Signal<EntryRoute>.pipe()
  /// Navigation decisions, for a navigator to carry out.
  public var route: Signal<EntryRoute> { routePipe.output }
  private let lifetime = Lifetime()

  /// Creates the flow with `fetcher` injected into the entry view model.
  ///
  /// - Parameter fetcher: Where users come from.
  public init(fetcher: any UserFetcher) {
    entry = EntryViewModel(fetcher: fetcher)
    let routes = routePipe.input
    entry.onUserNameSelected.observe { name in
      routes.send(.greeting(GreetingViewModel(userName: name)))
    }
    .store(in: lifetime)
  }
}
