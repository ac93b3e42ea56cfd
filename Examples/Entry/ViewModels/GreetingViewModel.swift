import ExampleSupport
import Foundation
import Tether

/// The greeting screen: "Hello, <name>!", and a sheet to pick another salutation.
@MainActor
public final class GreetingViewModel {
  /// Where the greeting screen leads.
  public enum Route {
    /// The sheet that picks a salutation; the flow awaits its choice.
    case salutations(SalutationPickerViewModel)
  }

  private let _salutation: MutableProperty<String>
  /// "Hello, <name>!", or the salutation picked instead of "Hello".
  public let greeting: Property<String>
  /// The greeted user's name.
  public let userName: String
  /// The screen's title.
  public let title = "Greeting"
  /// The sheet to show when the person asks to change the salutation.
  @Event public var route: Signal<Route>

  /// Creates the greeting.
  ///
  /// - Parameters:
  ///   - userName: Who to greet.
  ///   - salutation: The salutation, "Hello" unless the path restored another.
  public init(userName: String, salutation: String = "Hello") {
    self.userName = userName
    _salutation = MutableProperty(salutation)
    greeting = _salutation.map { "\($0), \(userName)!" }
  }

  /// The salutation in use.
  public var salutation: String { _salutation.value }

  /// The person asked to change the salutation: the picker opens on the one in use.
  public func changeSalutationRequested() {
    _route.send(.salutations(SalutationPickerViewModel(current: _salutation.value)))
  }

  /// The flow hands over the salutation picked in the sheet.
  ///
  /// - Parameter salutation: One of ``SalutationPickerViewModel/salutations``.
  public func use(_ salutation: String) {
    guard SalutationPickerViewModel.salutations.contains(salutation) else { return }
    _salutation.value = salutation
  }
}

/// The salutation picker, shown in a sheet: one row per salutation; choosing one is the
/// sheet's result (``chosen``).
@MainActor
public final class SalutationPickerViewModel {
  /// One salutation a row offers.
  public struct Row: Identifiable, Equatable, Sendable {
    /// The salutation, which is also its id.
    public var id: String { text }
    /// The salutation.
    public let text: String
    /// Whether it is the one in use.
    public let isCurrent: Bool
  }

  /// Every salutation offered.
  public static let salutations = ["Hello", "Good morning", "Welcome back", "Howdy"]

  /// The sheet's title.
  public let title = "Salutation"
  /// The rows, the salutation in use marked.
  public let rows: Property<[Row]>
  /// The salutation chosen: the sheet's result.
  @Event public var chosen: Signal<String>

  /// Creates the picker.
  ///
  /// - Parameter current: The salutation in use.
  public init(current: String) {
    rows = Property(
      value: Self.salutations.map { Row(text: $0, isCurrent: $0 == current) })
  }

  /// The person chose the row at `index`; an index out of range chooses nothing.
  public func choose(at index: Int) {
    let rows = rows.value
    guard rows.indices.contains(index) else { return }
    _chosen.send(rows[index].text)
  }
}
