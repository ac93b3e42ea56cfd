import Entry
import Tether
import TetherFlow

/// The Entry: seed 004's flow. The entry view model routes to a greeting once a fetched user
/// is selected; this flow shows it, and the greeting's salutation picker as a sheet whose
/// choice it awaits.
///
/// Paths: `entry`, then `greeting/<name>`, then `salutation` while the picker is open.
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

  /// `greeting/<name>` greets that name; `greeting/<name>/salutation` opens its picker too.
  public func restore(_ path: ArraySlice<String>, on navigator: ShowcaseNavigator)
    async throws(NavigationError)
  {
    guard let first = path.first else { return }
    let rest = Array(path.dropFirst())
    guard first == "greeting", let name = rest.first, !name.isEmpty,
      rest.count == 1 || rest == [name, "salutation"]
    else {
      throw .unknownComponent(path.joined(separator: "/"))
    }
    let greeting = GreetingViewModel(userName: name)
    show(greeting, on: navigator)
    if rest.count == 2 { greeting.changeSalutationRequested() }
  }

  private func show(_ greeting: GreetingViewModel, on navigator: ShowcaseNavigator?) {
    greeting.route.observe { [weak self, weak greeting, weak navigator] route in
      switch route {
      case .salutations(let picker):
        guard let greeting, let navigator else { return }
        self?.pick(with: picker, for: greeting, on: navigator)
      }
    }
    .store(in: lifetime)
    navigator?.push(
      Screen(.greeting(greeting), title: greeting.title, path: ["greeting", greeting.userName]))
  }

  /// Shows the picker as a sheet and gives its choice to the greeting; closed without a
  /// choice, it changes nothing.
  private func pick(
    with picker: SalutationPickerViewModel, for greeting: GreetingViewModel,
    on navigator: ShowcaseNavigator
  ) {
    let sheet = Screen(
      ShowcaseDestination.salutations(picker), title: picker.title, path: ["salutation"])
    // Shown at once, so a restored path that ends at the sheet shows it when restore returns.
    navigator.presentSheet(sheet, until: picker.chosen) { [weak greeting] chosen in
      if let chosen { greeting?.use(chosen) }
    }
  }
}
