import Articles
import Courses
import Entry
import Gallery
import Profile
import ShowcaseFlows
import Tether
import TetherFlow
import TetherTerminal

private let dim = CellStyle(dim: true)
private let bold = CellStyle(bold: true)

/// Builds the terminal view for each screen the flows push, by view-model type.
@MainActor
public enum ShowcaseViewFactory {
  /// The view for `screen`.
  ///
  /// - Parameters:
  ///   - screen: The screen a flow pushed.
  ///   - tick: The spinners' animation clock.
  /// - Returns: Its view; an explanatory label for an unknown view model.
  public static func makeView(for screen: Screen, tick: Property<Int>) -> any TerminalView {
    switch screen.viewModel {
    case let home as HomeViewModel: homeView(home)
    case let list as PhotoListViewModel: photoListView(list, tick: tick)
    case let detail as PhotoDetailViewModel: photoDetailView(detail)
    case let list as CourseListViewModel: courseListView(list, tick: tick)
    case let detail as CourseDetailViewModel: courseDetailView(detail)
    case let profile as ProfileScreenViewModel: profileView(profile, tick: tick)
    case let list as ArticleListViewModel: articleListView(list, tick: tick)
    case let article as any ArticleViewViewModel: articleView(article)
    case let entry as EntryViewModel: entryView(entry, tick: tick)
    case let greeting as GreetingViewModel: greetingView(greeting)
    default: Label("No view for \(type(of: screen.viewModel))", style: CellStyle(foreground: .red))
    }
  }

  static func homeView(_ home: HomeViewModel) -> any TerminalView {
    VStack([
      Label("Five MVVM articles, one toolkit. Choose an app:", style: dim, wraps: true),
      Label(""),
      ListView(rows: home.rows, rowHeight: 2, format: { row, _ in [row.title, row.summary] }) {
        home.userSelected(row: $0)
      },
    ])
  }

  static func photoListView(_ list: PhotoListViewModel, tick: Property<Int>) -> any TerminalView {
    let footer = list.isLoadingNextPage.combineLatest(with: list.numberOfCells).map {
      loading, count in
      loading ? "Loading more photos…" : "\(count) photos · Enter open · r refresh"
    }
    return Screenful(
      VStack([
        Spinner(isActive: list.isLoading, message: "Loading popular photos…", tick: tick),
        errorRow(list.errorMessage),
        OptionalLabel(list.emptyStateMessage, style: dim),
        ListView(
          rows: list.cells, rowHeight: 2,
          format: { cell, _ in
            [
              cell.titleText,
              [cell.dateText, cell.descriptionText].filter { !$0.isEmpty }.joined(separator: " · "),
            ]
          },
          onSelectionChange: { index in Task { await list.userReached(row: index) } },
          onChoose: { list.userPressed(at: $0) }),
        Label(footer, style: dim),
      ]),
      onAppear: { Task { await list.viewDidLoad() } },
      keys: [
        .character("r"): {
          Task {
            if list.errorMessage.value != nil {
              await list.retryRequested()
            } else {
              await list.refreshRequested()
            }
          }
        }
      ])
  }

  static func photoDetailView(_ detail: PhotoDetailViewModel) -> any TerminalView {
    VStack([
      Label(detail.titleText, style: bold),
      Label(detail.photographerText),
      Label(
        "\(detail.dateText) · \(detail.availabilityText)", style: CellStyle(foreground: .green)),
      Label(detail.cameraText),
      Label(
        [detail.sizeText, detail.ratingText].compactMap { $0 }.joined(separator: " · "), style: dim),
      Label(""),
      Label(detail.descriptionText, wraps: true),
      Spacer(),
      Label(detail.imageURL, style: dim),
    ])
  }

  static func courseListView(_ list: CourseListViewModel, tick: Property<Int>) -> any TerminalView {
    Screenful(
      VStack([
        Spinner(isActive: list.isLoading, message: "Loading courses…", tick: tick),
        errorRow(list.errorMessage),
        ListView(
          rows: list.cells,
          format: { cell, width in
            let accessory = cell.accessory == .detailButton ? " ⓘ" : ""
            let right = cell.detailText + accessory
            let left = cell.titleText.truncated(toWidth: max(1, width - DisplayWidth.of(right) - 2))
            let gap = max(1, width - DisplayWidth.of(left) - DisplayWidth.of(right))
            return [left + String(repeating: " ", count: gap) + right]
          }
        ) { list.userSelected(row: $0) },
      ]),
      onAppear: { Task { await list.viewDidLoad() } },
      keys: [.character("r"): { Task { await list.viewDidLoad() } }])
  }

  static func courseDetailView(_ detail: CourseDetailViewModel) -> any TerminalView {
    VStack([
      Label(detail.titleText, style: bold), Label(detail.lessonsText),
      Label(detail.linkText, style: dim),
    ])
  }

  static let profileLogins = ["octocat", "tether-dev", "li-na", "newcomer"]

  static func profileView(_ screen: ProfileScreenViewModel, tick: Property<Int>) -> any TerminalView
  {
    let styles = ProfileScreenViewModel.Style.allCases
    var loginIndex = 0
    let styleLine = screen.style.map { current in
      "Binding style: "
        + styles.enumerated().map { index, style in
          style == current ? "[\(index + 1) \(style.rawValue)]" : "\(index + 1) \(style.rawValue)"
        }.joined(separator: "  ")
    }
    let header = screen.display.map { display -> String in
      guard let display else { return "" }
      return [
        "@\(display.nickname)",
        display.bio,
        "",
        [display.followers, display.repositories, display.following]
          .map { $0.title.replacingOccurrences(of: " \n", with: " ") }.joined(separator: "   "),
        "Avatar: \(display.avatarURL.absoluteString)",
      ].joined(separator: "\n")
    }
    var keys: [Key: () -> Void] = [:]
    for (index, style) in styles.enumerated() {
      keys[.character(Character("\(index + 1)"))] = { screen.userSelected(style: style) }
    }
    keys[.character("n")] = {
      loginIndex = (loginIndex + 1) % profileLogins.count
      let login = profileLogins[loginIndex]
      Task { await screen.load(login: login) }
    }
    keys[.character("r")] = { Task { await screen.load(login: profileLogins[loginIndex]) } }
    return Screenful(
      VStack([
        Label(styleLine, style: dim),
        Label(
          "1-4 switch style · n next profile · every style renders the same header", style: dim),
        Label(""),
        Spinner(isActive: screen.isLoading, message: "Loading profile…", tick: tick),
        errorRow(screen.errorMessage),
        Label(header, wraps: true),
      ]),
      onAppear: { Task { await screen.load(login: profileLogins[0]) } },
      keys: keys)
  }

  static func articleListView(_ list: ArticleListViewModel, tick: Property<Int>) -> any TerminalView
  {
    Screenful(
      VStack([
        Spinner(isActive: list.isLoading, message: "Loading articles…", tick: tick),
        errorRow(list.errorMessage),
        ListView(rows: list.rows, rowHeight: 2, format: { row, _ in [row.title, row.date] }) {
          list.userSelected(row: $0)
        },
      ]),
      onAppear: { Task { await list.viewDidLoad() } },
      keys: [.character("r"): { Task { await list.viewDidLoad() } }])
  }

  static func articleView(_ article: any ArticleViewViewModel) -> any TerminalView {
    Screenful(
      VStack([
        Label(article.title, style: bold),
        Label(article.date, style: dim),
        Label(""),
        ThumbnailView(image: article.thumbnail, status: article.thumbnailStatus),
        Label(""),
        Label(article.body, wraps: true),
      ]),
      onAppear: { Task { await article.viewDidAppear() } })
  }

  static func entryView(_ entry: EntryViewModel, tick: Property<Int>) -> any TerminalView {
    VStack([
      Label(entry.userName.map { "User: \($0 ?? "—")" }, style: bold),
      Spinner(isActive: entry.isFetching, message: "Fetching a user…", tick: tick),
      errorRow(entry.errorMessage, retryKey: "f"),
      Label(""),
      Button("Fetch user", key: "f") { Task { await entry.fetchUser() } },
      Button("Select user", key: "s", isEnabled: entry.canSelect) { entry.selectUser() },
    ])
  }

  static func greetingView(_ greeting: GreetingViewModel) -> any TerminalView {
    VStack([
      Label(""), Label(greeting.greeting, style: CellStyle(bold: true, foreground: .magenta)),
    ])
  }
}
