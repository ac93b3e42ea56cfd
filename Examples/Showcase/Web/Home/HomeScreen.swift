import ShowcaseFlows
import TetherWeb

/// The home menu: one row per app.
@MainActor
enum HomeScreen {
  static func view(_ home: HomeViewModel) -> any WebView {
    VStack([
      Label("Five MVVM articles, one toolkit. Choose an app:", className: "dim"),
      ListView(rows: home.rows, format: { [$0.title, $0.summary] }) { home.userSelected(row: $0) },
    ])
  }
}
