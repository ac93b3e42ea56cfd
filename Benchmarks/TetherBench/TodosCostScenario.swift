import Foundation
import HeapStatistics
import ShowcaseFlows
import ShowcaseWeb
import Tether
import TetherFlow
@_spi(HandBuilt) import TetherWeb
import Todos

/// W8: what TodoMVC costs the server per gesture as its list grows, in process: a keystroke in
/// the new-todo field and a toggle of the first row (ticked and unticked in turn), each with 10
/// and with 1,000 items in the list. Each figure is a session's whole `receive` — decode,
/// handle, render, diff, encode — on a fresh session of a fresh store, with what it sends
/// counted. The baseline is TodoMVC's web screen as it was written before markup
/// (`HandBuiltTodosScreen`: a hand-built tree with a row cache), on the same view model and
/// session, in the same run.
@MainActor
func runW8(_ bench: Bench) async {
  let scenario = "W8 TodoMVC gesture by list size"
  for (handBuilt, name) in [(true, "hand-built (before)"), (false, "markup")] {
    for items in [10, 1_000] {
      guard let tab = await todosTab(items: items, handBuilt: handBuilt) else {
        invalid("\(scenario): no TodoMVC page with \(items) items")
      }
      var edit = 0
      await bench.measureAsync(
        scenario, "\(name), keystroke, \(items) items", baseline: handBuilt && items == 10,
        note: "new-todo field, one character"
      ) { n in
        for _ in 0..<n {
          edit += 1
          let text = String(repeating: "x", count: edit % 20 + 1)
          let refusal = await tab.registry.receive(
            tab.id, ClientMessage.input(id: tab.field, value: text, sequence: edit).json)
          if let refusal { invalid("\(scenario): \(refusal)") }
        }
      }
      bench.checksum &+= tab.sentBytes.value
      do {
        var ticked = false
        var gesture = 0
        guard let box = tab.firstToggle()?.id else { invalid("\(scenario): no toggle") }
        await bench.measureAsync(
          scenario, "\(name), toggle, \(items) items", note: "the first row, ticked and unticked"
        ) { n in
          for _ in 0..<n {
            ticked.toggle()
            gesture += 1
            // No version: the tick is not checked against the value the box showed (which
            // moves with every tick), so finding it costs the measurement nothing.
            let message = ClientMessage.check(
              id: box, checked: ticked, sequence: gesture, version: nil)
            let refusal = await tab.registry.receive(tab.id, message.json)
            if let refusal { invalid("\(scenario): \(refusal)") }
          }
        }
      }
      tab.registry.closeAll()
    }
  }
  await w8Heap(bench, scenario: scenario)
}

/// W8's memory: the heap each tab adds showing a 600-item list of 3 KB titles (1,000
/// three-byte characters, the longest a store keeps), five tabs of one browser on one store,
/// for each view.
@MainActor
private func w8Heap(_ bench: Bench, scenario: String) async {
  let tabs = 5
  for (handBuilt, name) in [(true, "hand-built (before)"), (false, "markup")] {
    let title = String(repeating: "漢", count: 990)
    guard let services = await filledServices(items: 600, title: { "\($0) " + title }) else {
      invalid("\(scenario): could not fill the store")
    }
    var open: [TodosTab] = []
    let before = heap_statistics_bytes_in_use()
    for _ in 0..<tabs {
      guard let tab = await openTab(services: services, handBuilt: handBuilt, items: 600) else {
        invalid("\(scenario): no TodoMVC page with 600 items")
      }
      open.append(tab)
    }
    let perTab = Double(heap_statistics_bytes_in_use() - before) / Double(tabs)
    bench.record(
      scenario, "\(name), heap per tab, 600 items", baseline: false, samples: [perTab],
      unit: "bytes", note: "3 KB titles, \(tabs) tabs of one browser")
    for tab in open { tab.registry.closeAll() }
  }
}

/// A TodoMVC tab on a fresh in-memory store whose list holds `items` items.
@MainActor
private final class TodosTab {
  let registry: WebSessionRegistry
  let id: String
  let field: String
  let sentBytes = Counter()

  final class Counter { var value = 0 }

  init(registry: WebSessionRegistry, id: String, field: String) {
    self.registry = registry
    self.id = id
    self.field = field
  }

  /// The first row's checkbox: its id and the version it shows.
  func firstToggle() -> (id: String, version: Int?)? {
    guard let html = registry.session(id)?.document(script: "", style: ""),
      let match = html.firstMatch(
        of: #/<input id="([^"]+)" type="checkbox"[^>]*class="toggle"[^>]*>/#)
    else { return nil }
    let version = match.0.firstMatch(of: #/data-version="(\d+)"/#).flatMap { Int($0.1) }
    return (String(match.1), version)
  }
}

private let w8Client = WebClient(id: "0123456789abcdef0123456789abcdef")

/// A fresh in-memory store whose list (of ``w8Client``) holds `items` items.
@MainActor
private func filledServices(
  items: Int, title: (Int) -> String = { "Item \($0): something to do" }
) async -> ShowcaseServices? {
  let services = ShowcaseServices.bundled(thumbnailDelay: .zero)
  for index in 0..<items {
    let todo = Todo(id: "item-\(index)", title: title(index))
    guard (try? await services.todos.apply(.add(todo), to: w8Client.id ?? "")) != nil else {
      return nil
    }
  }
  return services
}

@MainActor
private func todosTab(items: Int, handBuilt: Bool) async -> TodosTab? {
  guard let services = await filledServices(items: items) else { return nil }
  return await openTab(services: services, handBuilt: handBuilt, items: items)
}

@MainActor
private func openTab(services: ShowcaseServices, handBuilt: Bool, items: Int) async -> TodosTab? {
  let client = w8Client
  let app =
    handBuilt
    ? WebApp(
      title: "Tether showcase",
      rootFlowFor: { client in
        MainFlowController(services: services, todoList: client.id ?? "anonymous")
      },
      makeWebView: { screen in
        if case .todos(let todos) = screen.destination { return HandBuiltTodosScreen(todos) }
        return webView(for: ShowcaseWebViews.makeView(for: screen))
      })
    : WebApp.showcase(services: services)
  let registry = WebSessionRegistry(app: app, firstRender: .held, appearanceWait: .seconds(5))
  guard case .page(let html, let id) = await registry.page(for: "/todos", client: client),
    let field = html.firstMatch(of: #/<input id="([^"]+)"[^>]*class="new-todo"/#)?.1,
    html.contains(">\(items)</strong>")
  else { return nil }
  let tab = TodosTab(registry: registry, id: id, field: String(field))
  _ = registry.attach(id, resync: false) { [counter = tab.sentBytes] in
    counter.value &+= $0.utf8.count
  }
  return tab
}
