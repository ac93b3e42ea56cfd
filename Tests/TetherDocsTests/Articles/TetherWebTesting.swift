import Testing
import Tether
import TetherFlow
import TetherWeb
import TetherWebTesting

// The compiled companion of TetherWebTesting.md.
enum TetherWebTestingArticle {
  @MainActor
  final class ArchiveModel {
    @Output private(set) var archived = false
    weak var navigator: (any Navigator<ArchiveModel>)?

    func archiveTapped() {
      let archive = ScreenAlert.Button("Archive", role: .destructive)
      navigator?.present(
        ScreenAlert(
          title: "Archive?", message: "It leaves the list.",
          buttons: [ScreenAlert.Button("Cancel", role: .cancel), archive])
      ) { [weak self] button in
        if button == archive { self?.archived = true }
      }
    }
  }

  @MainActor
  final class ArchiveFlow: FlowController {
    func start(on navigator: any Navigator<ArchiveModel>) -> Screen<ArchiveModel> {
      let model = ArchiveModel()
      model.navigator = navigator
      return Screen(model, title: "Box", owner: self)
    }
  }

  @MainActor
  final class ArchiveScreen: WebScreen {
    enum Action { case archive }
    let model: ArchiveModel
    init(_ model: ArchiveModel) { self.model = model }

    var body: Markup<Action> {
      vstack {
        button("Archive").onClick(.archive)
        p(.class("state")) { model.archived ? "Archived" : "Kept" }
      }
    }

    func handle(_ action: Action) { model.archiveTapped() }
  }

  @MainActor
  struct Checks {
    @Test func aScopedNameFindsTheDialogsButtonNotTheScreens() async throws {
      let app = WebApp(title: "Box", rootFlow: { ArchiveFlow() }) { ArchiveScreen($0.destination) }
      let page = try await WebTestPage(app: app)
      defer { page.close() }
      try await page.click(named: "Archive")
      try await page.waitFor("dialog[open]")
      try await page.click(named: "Archive", within: "dialog")
      try await page.waitUntil("archived") { try page.text(".state") == "Archived" }
      #expect(page.divergence == nil)
    }
  }
}
