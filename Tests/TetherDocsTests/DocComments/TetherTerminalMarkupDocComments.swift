import Testing
import Tether
import TetherFlow
import TetherTerminal
import TetherTerminalTesting

// The compiled companion of the Swift blocks in the doc comments of TetherTerminal's markup
// and of TetherTerminalTesting (DocSnippetTests checks that each appears here). Nothing here
// runs; it must compile.
enum TetherTerminalMarkupDocComments {
  // Sources/TetherTerminal/Markup/TerminalMarkup.swift
  @MainActor final class CounterModel {
    @Output private(set) var count = 0
    func increment() { count += 1 }
  }

  final class CounterScreen: TerminalScreen {
    let model: CounterModel
    init(_ model: CounterModel) { self.model = model }

    var body: TerminalMarkup<TerminalCall> {
      text("Count: \(model.count)")
      button("Add one", key: "+").onPress(model.increment)
    }
  }

  @MainActor final class CourseDetail {
    let title = "Podcasts"
    func removeRequested() {}
    func moreRequested() {}
  }

  final class CourseDetailTerminalScreen: TerminalScreen {
    enum Action { case remove, more }
    let detail: CourseDetail

    init(_ detail: CourseDetail) { self.detail = detail }

    var body: TerminalMarkup<Action> {
      vstack {
        text(detail.title).bold()
        hstack {
          button("Remove", role: .destructive).onPress(.remove)
          button("More…").onPress(.more)
        }
      }
    }

    func handle(_ action: Action) {
      switch action {
      case .remove: detail.removeRequested()
      case .more: detail.moreRequested()
      }
    }
  }

  struct Column: Identifiable {
    let id: Int
    let title: String
  }

  @MainActor final class Board {
    let columns = [Column(id: 1, title: "To do")]
  }

  @MainActor static func columns(board: Board) -> TerminalMarkup<Never> {
    ForEach(board.columns) { column in
      text(column.title)
    }
  }

  // Sources/TetherTerminalTesting/TerminalTestPage.swift
  enum AppDestination {
    case board(Board)
  }

  final class BoardScreen: TerminalScreen {
    let board: Board
    init(_ board: Board) { self.board = board }
    var body: TerminalMarkup<Never> { text("Board") }
  }

  @MainActor final class AppFlow: FlowController {
    func start(on navigator: any Navigator<AppDestination>) -> Screen<AppDestination> {
      Screen(.board(Board()), title: "Board")
    }
  }

  @MainActor static func drive() throws {
    let stack = ScreenStack<AppDestination>()
    let page = TerminalTestPage(stack: stack, width: 60, height: 16) { screen in
      switch screen.destination {
      case .board(let board): BoardScreen(board)
      }
    }
    AppFlow().startFlow(on: stack)
    try page.press("New card")
    page.type("Write the docs")
    page.press(.enter)
    #expect(page.text.contains("Write the docs"))
  }
}
