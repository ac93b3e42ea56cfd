import Foundation
import Testing
import TetherTerminal
import TetherTerminalTesting
import TetherTesting

// The compiled companion of TerminalScreensAsMarkup.md: a board of three columns with a sheet, and a
// test that drives it with keys only.
enum TerminalMarkupArticle {
  struct Card: Identifiable, Equatable {
    let id: Int
    var title: String
  }

  /// The board: three columns of cards. It decides everything the screens show.
  @MainActor
  final class BoardViewModel {
    static let titles = ["To do", "Doing", "Done"]
    @Output private(set) var columns: [[Card]] = [[], [], []]
    /// Asks the flow for the new-card sheet, for a column.
    let newCardRequests: Signal<Int>
    private let requests: Signal<Int>.Emitter
    private var lastID = 0

    init() {
      (newCardRequests, requests) = Signal.pipe()
    }

    func newCardRequested(in column: Int) { requests.send(column) }

    func add(_ title: String, to column: Int) {
      lastID += 1
      columns[column].append(Card(id: lastID, title: title))
    }

    /// Moves the card at `row` of `column` one column on, if there is one.
    func advance(row: Int, in column: Int) {
      guard columns.indices.contains(column + 1), columns[column].indices.contains(row) else {
        return
      }
      columns[column + 1].append(columns[column].remove(at: row))
    }
  }

  /// The new card's title, typed in a sheet.
  @MainActor
  final class NewCardViewModel {
    let title = MutableProperty("")
    let created: Signal<String>
    private let creations: Signal<String>.Emitter

    init() {
      (created, creations) = Signal.pipe()
    }

    func submit() {
      let title = title.value.trimmingCharacters(in: .whitespaces)
      if !title.isEmpty { creations.send(title) }
    }
  }

  enum Destination {
    case board(BoardViewModel)
    case newCard(NewCardViewModel)
  }

  @MainActor
  final class BoardFlow: FlowController {
    func start(on navigator: any Navigator<Destination>) -> Screen<Destination> {
      let board = BoardViewModel()
      board.newCardRequests.observe { [weak navigator, weak board] column in
        let newCard = NewCardViewModel()
        let sheet = Screen(Destination.newCard(newCard), title: "New card")
        navigator?.presentSheet(sheet, until: newCard.created) { title in
          if let title { board?.add(title, to: column) }
        }
      }
      .store(in: lifetime)
      return Screen(.board(board), title: "Board", owner: self)
    }

    private let lifetime = Lifetime()
  }

  final class BoardScreen: TerminalScreen {
    enum Action { case newCard(Int), advance(row: Int, column: Int) }
    let board: BoardViewModel

    init(_ board: BoardViewModel) { self.board = board }

    var body: TerminalMarkup<Action> {
      hstack {
        for (column, cards) in board.columns.enumerated() {
          box("\(BoardViewModel.titles[column]) (\(cards.count))") {
            list(
              cards, label: BoardViewModel.titles[column],
              onChoose: { .advance(row: $0, column: column) }
            ) { card in
              text(card.title)
            }
            if cards.isEmpty { text("No cards").dim() }
            button("New card").onPress(.newCard(column))
          }
        }
      }
      .onKey("n", .newCard(0))
    }

    func handle(_ action: Action) {
      switch action {
      case .newCard(let column): board.newCardRequested(in: column)
      case .advance(let row, let column): board.advance(row: row, in: column)
      }
    }
  }

  final class NewCardScreen: TerminalScreen {
    enum Action { case submit }
    let newCard: NewCardViewModel

    init(_ newCard: NewCardViewModel) { self.newCard = newCard }

    var body: TerminalMarkup<Action> {
      vstack(spacing: 1) {
        textField(newCard.title, placeholder: "Title", label: "Title").onSubmit(.submit)
        text("Enter adds the card · Esc closes").dim()
      }
    }

    func handle(_ action: Action) { newCard.submit() }
  }

  @MainActor @Suite struct Checks {
    @Test func theBoardIsDrivenByKeysAlone() throws {
      let stack = ScreenStack<Destination>()
      let page = TerminalTestPage(stack: stack, width: 72, height: 16) { screen in
        switch screen.destination {
        case .board(let board): BoardScreen(board)
        case .newCard(let newCard): NewCardScreen(newCard)
        }
      }
      BoardFlow().startFlow(on: stack)
      #expect(page.shows("To do (0)") && page.shows("Doing (0)") && page.shows("Done (0)"))
      page.press(.character("n"))
      #expect(page.shows("New card") && page.focusedLabel == "Title")
      page.type("Write the docs")
      page.press(.enter)
      #expect(page.shows("To do (1)") && page.shows("Write the docs"))
      // Enter on the card moves it on: one `›` on the board, in the focused column only.
      try page.focus("To do")
      #expect(page.lines(containing: "›").count == 1)
      page.press(.enter)
      #expect(page.shows("To do (0)") && page.shows("Doing (1)"))
      try page.focus("Doing")
      #expect(page.lines(containing: "› Write the docs").count == 1)
    }
  }
}
