import Testing
import TetherTerminal
import TetherTesting

// The compiled companion of TerminalViews.md.
enum TerminalViewsArticle {
  struct Cell: Identifiable, Equatable {
    var id: Int
    var titleText: String
    var subtitleText: String
  }

  @MainActor
  final class PhotoListViewModel {
    @Output private(set) var isLoading = false
    @Output private(set) var errorMessage: String? = nil
    @Output private(set) var rows: [Cell] = []
    @Output private(set) var statusText = "0 photos"
    private(set) var reloads = 0
    private(set) var chosen: [Int] = []

    func reloadRequested() async {
      reloads += 1
      rows = [Cell(id: 1, titleText: "Dawn", subtitleText: "2017-10-01")]
      statusText = "1 photo"
    }

    func userReached(row: Int) async {}
    func userSelected(row: Int) { chosen.append(row) }
  }

  enum Destination {
    case photoList(PhotoListViewModel)
  }

  final class PhotoListScreen: TerminalScreen {
    enum Action { case reached(Int), choose(Int), refresh }
    let photos: PhotoListViewModel
    let tick: Property<Int>
    private let refresh: () -> Void

    init(_ photos: PhotoListViewModel, tick: Property<Int>) {
      self.photos = photos
      self.tick = tick
      refresh = asyncAction { await photos.reloadRequested() }
    }

    var body: TerminalMarkup<Action> {
      vstack {
        if photos.isLoading { spinner("Loading popular photos…", tick: tick) }
        if let error = photos.errorMessage { text(error).foreground(.red) }
        list(
          photos.rows, label: "Photos", rowHeight: 2, onChoose: { .choose($0) },
          onMove: { .reached($0) }
        ) { cell in
          text(cell.titleText)
          text(cell.subtitleText).dim()
        }
        text("\(photos.statusText) · Enter open · r refresh").dim()
        button("Refresh", key: "r").onPress(.refresh)
      }
    }

    func handle(_ action: Action) {
      switch action {
      case .reached(let row): Task { await photos.userReached(row: row) }
      case .choose(let row): photos.userSelected(row: row)
      case .refresh: refresh()
      }
    }
  }

  @MainActor @Suite struct Checks {
    @Test func theViewDrawsTheViewModelAndItsKeysAreInputs() async {
      let list = PhotoListViewModel()
      let stack = ScreenStack<Destination>()
      let tick = MutableProperty(0)
      let navigator = TerminalNavigator(
        stack: stack,
        screens: { screen in
          switch screen.destination {
          case .photoList(let list): PhotoListScreen(list, tick: tick)
          }
        })
      stack.setRoot(Screen(.photoList(list), title: "Popular"))
      navigator.handle(.character("r"))
      await expectEventually { list.reloads == 1 }
      let text = navigator.render(width: 60, height: 12).text
      #expect(text.contains("Dawn"))
      #expect(text.contains("1 photo · Enter open · r refresh"))
      navigator.handle(.enter)
      #expect(list.chosen == [0])
    }
  }
}
