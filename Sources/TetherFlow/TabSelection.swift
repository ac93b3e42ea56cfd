import Tether

/// Tabs as state: which of a screen's tabs is selected, kept in the stack's path, so a deep
/// link, a browser's Back and Forward, and a resumed session all land on the tab that was shown.
///
/// A flow makes one for a screen and gives its ``pathTail`` to the screen
/// (`Screen(…, pathTail: tabs.pathTail)`): the tab selected first is the screen's own path
/// (`/profile`), each other tab adds its component (`/profile/streams`). The view layers draw
/// the tabs and call ``select(_:)``; the terminal's and the web's keys move with
/// ``selectNext()`` and ``selectPrevious()`` (they wrap).
///
/// ```swift
/// // In the view model: the binding styles, the one shown first being the path's own.
/// let styleTabs = TabSelection(Style.allCases, selected: .viewModel) { $0.pathComponent }
/// // …
/// // In the flow: the screen's path follows the tab.
/// return Screen(.profile(model), title: "Profile", path: ["profile"],
///               pathTail: model.styleTabs.pathTail)
/// ```
@MainActor
public final class TabSelection<Tab: Equatable> {
  /// The tabs, in order.
  public let tabs: [Tab]
  /// The tab shown.
  @Output public private(set) var selected: Tab
  /// The position of the tab shown in ``tabs``.
  public var selectedIndex: Int { tabs.firstIndex(of: self.selected) ?? 0 }
  /// The selected tab's path component, empty for the ``defaultTab``: give it to the screen
  /// (``Screen/pathTail``). A browser's Back or Forward sets it, and the tab follows; a
  /// component no tab has changes nothing.
  public let pathTail: MutableProperty<[String]>

  /// The tab selected first: the one the screen's own path shows, with no component.
  public let defaultTab: Tab
  private let component: (Tab) -> String
  private var tailToken: ObservationToken?

  /// Creates the tabs.
  ///
  /// - Parameters:
  ///   - tabs: The tabs, in order; none means `selected` alone.
  ///   - selected: The tab shown first, the ``defaultTab``; the first tab if it is not one of
  ///     them.
  ///   - pathComponent: A tab's component of the path: distinct for each tab.
  public init(
    _ tabs: [Tab], selected: Tab, pathComponent: @escaping (Tab) -> String
  ) {
    let tabs = tabs.isEmpty ? [selected] : tabs
    self.tabs = tabs
    component = pathComponent
    let first = tabs.contains(selected) ? selected : tabs[0]
    defaultTab = first
    _selected = Output(wrappedValue: first)
    pathTail = MutableProperty([])
    tailToken = pathTail.observe { [weak self] tail in
      guard let self, let tab = self.tab(forPathTail: tail) else { return }
      if tab != self.selected { self.selected = tab }
    }
  }

  /// The tab a path tail names: the ``defaultTab`` for none, `nil` for a component no tab has.
  ///
  /// - Parameter tail: What follows the screen's own path components.
  /// - Returns: The tab, or `nil`.
  public func tab(forPathTail tail: [String]) -> Tab? {
    switch tail.count {
    case 0: defaultTab
    case 1: tabs.first { $0 != defaultTab && component($0) == tail[0] }
    default: nil
    }
  }

  /// Shows `tab`; a tab not among ``tabs`` changes nothing.
  ///
  /// - Parameter tab: The tab.
  public func select(_ tab: Tab) {
    guard tabs.contains(tab), tab != self.selected else { return }
    self.selected = tab
    let tail = tab == defaultTab ? [] : [component(tab)]
    if pathTail.value != tail { pathTail.value = tail }
  }

  /// Shows the tab at `index`; an index out of range changes nothing.
  ///
  /// - Parameter index: The tab's position.
  public func select(at index: Int) {
    guard tabs.indices.contains(index) else { return }
    select(tabs[index])
  }

  /// Shows the next tab, the first after the last.
  public func selectNext() {
    select(at: (selectedIndex + 1) % tabs.count)
  }

  /// Shows the previous tab, the last before the first.
  public func selectPrevious() {
    select(at: (selectedIndex + tabs.count - 1) % tabs.count)
  }
}
