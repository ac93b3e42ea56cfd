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

  @MainActor
  static func view(_ list: PhotoListViewModel, tick: Property<Int>) -> any TerminalView {
    VStack([
      Spinner(isActive: list.$isLoading, message: "Loading popular photos…", tick: tick),
      OptionalLabel(list.$errorMessage, style: CellStyle(foreground: .red)),
      ListView(
        rows: list.$rows, rowHeight: 2,
        format: { cell, _ in [cell.titleText, cell.subtitleText] },
        onSelectionChange: { row in Task { await list.userReached(row: row) } },
        onChoose: { list.userSelected(row: $0) }),
      Label(list.$statusText.map { "\($0) · Enter open · r refresh" }, style: CellStyle(dim: true)),
      Button("Refresh", key: "r", action: asyncAction { await list.reloadRequested() }),
    ])
  }

  @MainActor @Suite struct Checks {
    @Test func theViewDrawsTheViewModelAndItsKeysAreInputs() async {
      let list = PhotoListViewModel()
      let stack = ScreenStack<Destination>()
      let tick = MutableProperty(0)
      let navigator = TerminalNavigator(stack: stack) { screen in
        switch screen.destination {
        case .photoList(let list): TerminalViewsArticle.view(list, tick: tick)
        }
      }
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
