import Foundation
import Gallery
import Hummingbird
import Logging
import ShowcaseBrowser
import ShowcaseFlows
import ShowcaseWeb
import ShowcaseWebServer
import TetherFlow
@_spi(HandBuilt) import TetherWeb
import TetherWebHummingbird

/// W1: what one gesture costs on the wire. A Gallery session at `/gallery` with its 20 photos
/// loaded gets ArrowDown (the selection moves one row); the figure is the one message it sends,
/// framed as the server sends it (a WebSocket text frame: 2 header bytes up to 125 bytes of
/// payload, 4 up to 65,535). The baseline is the whole page sent again.
@MainActor
func runW1(_ bench: Bench) async {
  let scenario = "W1 one-row change on the wire"
  let (page, message) = await oneRowChange(signer: nil, scenario: scenario)
  let pageBytes = webSocketFrameSize(payload: page.utf8.count)
  let messageBytes = webSocketFrameSize(payload: message.utf8.count)
  bench.record(
    scenario, "the Gallery page sent again", baseline: true, samples: [Double(pageBytes)],
    unit: "bytes", note: "\(page.utf8.count) B of HTML")
  bench.record(
    scenario, "Tether patches", samples: [Double(messageBytes)], unit: "bytes",
    note: "\(message.utf8.count) B of JSON + \(messageBytes - message.utf8.count) B header; "
      + String(format: "%.2f %% of the page", 100 * Double(messageBytes) / Double(pageBytes)))
  // Behind a cluster, the same move also carries the session's new signed resume token.
  guard
    let key = try? WebResumeKey.hmacSHA256(Array("tether-bench's cluster key, 32 bytes+".utf8)),
    let signer = WebResumeSigner(keys: [key])
  else {
    invalid("\(scenario): no signer")
  }
  let (_, resumable) = await oneRowChange(signer: signer, scenario: scenario)
  guard resumable.contains("\"r\":\"") else { invalid("\(scenario): no resume token sent") }
  let resumableBytes = webSocketFrameSize(payload: resumable.utf8.count)
  bench.record(
    scenario, "Tether patches + resume token", samples: [Double(resumableBytes)], unit: "bytes",
    note: "showcase-cluster; "
      + String(format: "%.2f %% of the page", 100 * Double(resumableBytes) / Double(pageBytes)))
}

/// A Gallery page and the one message an ArrowDown sends, on a fresh registry.
@MainActor
private func oneRowChange(
  signer: WebResumeSigner?, scenario: String
) async -> (page: String, message: String) {
  let registry = WebSessionRegistry(
    services: .bundled(thumbnailDelay: .zero), firstRender: .held, resumeSigner: signer)
  defer { registry.closeAll() }
  let (id, page) = await openGallery(registry, scenario: scenario)
  var sent: [String] = []
  _ = registry.attach(id, resync: false) { sent.append($0) }
  sent.removeAll()
  if let error = await registry.receive(id, ClientMessage.key(.arrowDown).json) {
    invalid("\(scenario): the key was refused: \(error)")
  }
  guard sent.count == 1, let message = sent.first, message.contains("aria-selected") else {
    invalid("\(scenario): expected one selection message, got \(sent)")
  }
  return (page, message)
}

/// W2: the heap an idle, connected session holds. Each repetition opens 200 Gallery sessions
/// on a fresh registry, each attached to a socket that discards what it is sent, with its
/// photos loaded; the figure is the heap growth divided by 200. Closing them all must give the
/// heap back (within 3 s, for work in flight when they closed), or the run stops.
@MainActor
func runW2(_ bench: Bench, sessions count: Int = 200) async {
  let scenario = "W2 heap per idle session, \(count)"
  guard allocatedBytes() != nil else {
    print("\(scenario): not measured (needs glibc mallinfo2)")
    return
  }
  var samples: [Double] = []
  var leftovers: [Int] = []
  // Six more rounds than measured, first: the first use of catalogs, formatters and the
  // runtime's caches (the task allocator's among them) grows the heap, most in the first
  // round and less in each after it — left after each of 13 rounds of 200 sessions: 462, 56,
  // 36, 47, 43, 48, 13, 13, 21, -22, 2, -2 and 2 KB — and is no session's cost.
  let warmUps = 6
  for round in 0..<(warmUps + bench.repetitions) {
    let before = allocatedBytes() ?? 0
    do {
      let registry = WebSessionRegistry(
        services: .bundled(thumbnailDelay: .zero), capacity: count, firstRender: .held)
      for _ in 0..<count {
        let (id, _) = await openGallery(registry, scenario: scenario)
        guard registry.attach(id, resync: false, send: { _ in }) != nil else {
          invalid("\(scenario): a session could not be attached")
        }
      }
      let open = allocatedBytes() ?? 0
      guard registry.count == count else {
        invalid("\(scenario): \(registry.count) of \(count) sessions open")
      }
      if round >= warmUps { samples.append(Double(open - before) / Double(count)) }
      registry.closeAll()
    }
    // Sessions are served once their first load lands, so closing them can catch work in
    // flight (a load's last task, a page's cancelled timeout): give it up to 3 s to finish.
    for _ in 0..<100 { await Task.yield() }
    var waited = 0
    while (allocatedBytes() ?? 0) - before > 256 * count, waited < 30 {
      try? await Task.sleep(for: .milliseconds(100))
      waited += 1
    }
    if round >= warmUps { leftovers.append((allocatedBytes() ?? 0) - before) }
  }
  // Everything a session held must be freed when it closes: at most 256 bytes a session may
  // stay behind (allocator bookkeeping), or the run stops. A session that leaks leaks in every
  // round, so the round that kept least is judged: what the caches still grow by after the
  // warm-up rounds shrinks from round to round.
  let fewest = leftovers.min() ?? 0
  let worst = leftovers.max() ?? 0
  guard fewest <= 256 * count else {
    invalid("\(scenario): \(fewest) bytes stayed allocated after every session closed")
  }
  bench.record(
    scenario, "Tether WebSession (Gallery, connected)", samples: samples, unit: "bytes",
    note: "after closing all: \(fewest / 1024) to \(worst / 1024) KiB left")
  // What a page costs before its socket connects: the default first render closes the page's
  // session once the page is drawn (the socket rebuilds it from the page's token).
  var pages: [Double] = []
  for round in 0..<(2 + bench.repetitions) {
    let registry = WebSessionRegistry(
      services: .bundled(thumbnailDelay: .zero), capacity: count, signing: .hmacSHA256)
    let before = allocatedBytes() ?? 0
    var served = 0
    for _ in 0..<count {
      guard case .page(let html, _) = await registry.page(for: "/gallery") else {
        invalid("\(scenario): no stateless Gallery page")
      }
      served += html.utf8.count  // the answer is sent and dropped, as a server does
    }
    // The closed sessions' last tasks (a load's, a cancelled wait's) end within moments.
    try? await Task.sleep(for: .milliseconds(500))
    let after = allocatedBytes() ?? 0
    guard registry.count == 0 else { invalid("\(scenario): a stateless page held its session") }
    bench.checksum &+= served
    if round >= 2 { pages.append(Double(after - before) / Double(count)) }
  }
  bench.record(
    scenario, "a page served, no socket yet (stateless)", samples: pages, unit: "bytes",
    note: "0.5 s after the last; 0 sessions held")
}

/// W2's parts: where an idle Gallery session's heap goes. Each part is measured on 200 fresh
/// objects of its own, after two warm-up rounds: a session at `/` (the home menu under every
/// app, with the session, stack, flow and page of its own), the Gallery's list view model with
/// its 20 photos loaded, that screen's web view, the page tree the session keeps to diff the
/// next render against, and the click handlers the render registered.
@MainActor
func runW2Parts(_ bench: Bench, count: Int = 200) async {
  let scenario = "W2 parts, one Gallery session"
  guard allocatedBytes() != nil else { return }
  var home: [Double] = []
  var viewModel: [Double] = []
  var view: [Double] = []
  var tree: [Double] = []
  var handlers: [Double] = []
  var htmlBytes = 0
  for round in 0..<(2 + bench.repetitions) {
    let measured = round >= 2
    do {
      let before = allocatedBytes() ?? 0
      let registry = WebSessionRegistry(
        services: .bundled(thumbnailDelay: .zero), capacity: count, firstRender: .held)
      for _ in 0..<count {
        guard case .page = await registry.page(for: "/") else {
          invalid("\(scenario): no home page")
        }
      }
      if measured { home.append(Double((allocatedBytes() ?? 0) - before) / Double(count)) }
      registry.closeAll()
    }
    for _ in 0..<100 { await Task.yield() }
    let start = allocatedBytes() ?? 0
    var lists: [PhotoListViewModel] = []
    for _ in 0..<count {
      let list = PhotoListViewModel(service: BundledPhotoService())
      await list.viewDidLoad()
      guard list.rows.count == 20 else { invalid("\(scenario): the photos did not load") }
      lists.append(list)
    }
    let loaded = allocatedBytes() ?? 0
    let views = lists.map { list in
      webView(for: ShowcaseWebViews.makeView(for: Screen(.photoList(list), title: list.title)))
    }
    let viewed = allocatedBytes() ?? 0
    var contexts: [WebRenderContext] = []
    var trees: [HTMLNode] = []
    for view in views {
      let context = WebRenderContext()
      trees.append(view.render(id: "s1", in: context))
      contexts.append(context)
    }
    let rendered = allocatedBytes() ?? 0
    htmlBytes = trees.first?.html.utf8.count ?? 0
    contexts.removeAll()
    let withoutHandlers = allocatedBytes() ?? 0
    if measured {
      viewModel.append(Double(loaded - start) / Double(count))
      view.append(Double(viewed - loaded) / Double(count))
      tree.append(Double(withoutHandlers - viewed) / Double(count))
      handlers.append(Double(rendered - withoutHandlers) / Double(count))
    }
    bench.checksum &+= trees.count + views.count + lists.count
  }
  bench.record(scenario, "a session at / (home menu)", samples: home, unit: "bytes")
  bench.record(
    scenario, "PhotoListViewModel, 20 photos loaded", samples: viewModel, unit: "bytes")
  bench.record(scenario, "its web view", samples: view, unit: "bytes")
  bench.record(
    scenario, "its page tree, kept for diffing", samples: tree, unit: "bytes",
    note: "\(htmlBytes) B of HTML")
  bench.record(scenario, "its click handlers", samples: handlers, unit: "bytes")
}

/// W3: the client runtime a browser downloads, gzip-compressed (`gzip -9`, as a server would
/// send it).
@MainActor
func runW3(_ bench: Bench) {
  let scenario = "W3 client runtime, gzipped"
  let script = Array(WebAssets.script.utf8)
  let compressed: Int
  do {
    compressed = try gzipSize(of: script)
  } catch {
    invalid("\(scenario): \(error)")
  }
  bench.record(
    scenario, "TetherWeb script", samples: [Double(compressed)], unit: "bytes",
    note: "\(script.count) B before compression")
}

/// W4: input to DOM updated, in headless Chromium. The showcase's web server runs in this
/// process on a free loopback port; the browser opens the Gallery and presses ArrowDown and
/// ArrowUp in turn, `count` times, 5 ms apart, timing each from the key event to the patches
/// applied (the client's `tether:applied` event), with `performance.now()` in the page.
@MainActor
func runW4(_ bench: Bench, keys count: Int) async {
  let scenario = "W4 input to DOM, Chromium"
  guard browserIsInstalled else {
    // A figure that cannot be measured is said so, and in CI it fails the run.
    if ProcessInfo.processInfo.environment["CI"] != nil {
      invalid("\(scenario): needs chromium and chromedriver (.ci/run installs them)")
    }
    print("\(scenario): not measured (needs chromium and chromedriver)")
    return
  }
  let times: [Double]
  do {
    let port = try await servedShowcase.port()
    let browser = try await Browser()
    do {
      try await browser.open("http://127.0.0.1:\(port)/gallery")
      try await browser.waitUntil("the Gallery's rows") {
        try await browser.count("#screen .row") == 20
      }
      times = try await browser.keyLatencies(count: count)
      await browser.quit()
    } catch {
      await browser.quit()
      throw error
    }
  } catch {
    invalid("\(scenario): \(error)")
  }
  let sorted = times.sorted()
  let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
  bench.record(
    scenario, "Tether (server, socket, patches)", samples: times, unit: "ms",
    note: String(format: "p99 %.2f ms, %d keys", p99, count))
}

/// The showcase's web server, running in this process on a free loopback port from its first
/// use to the end of the run (W4 and W5 drive it in Chromium).
@MainActor
let servedShowcase = ServedShowcase()

/// See ``servedShowcase``.
@MainActor
final class ServedShowcase {
  private var started: Int?

  /// The server's port, starting it on first use.
  func port() async throws -> Int {
    if let started { return started }
    var logger = Logger(label: "tether-bench-web")
    logger.logLevel = .critical  // a run that ends with the server up logs nothing of it
    let registry = WebSessionRegistry(services: .bundled(), signing: .hmacSHA256)
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    let application = ShowcaseWebServer.makeApplication(
      host: "127.0.0.1", port: 0, registry: registry, logger: logger,
      onRunning: { port in portSink.yield(port) })
    Task { try await application.runService(gracefulShutdownSignals: []) }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw ServerError.didNotStart }
    started = port
    return port
  }

  enum ServerError: Error {
    case didNotStart
  }
}

/// The bytes a server-to-client WebSocket text frame of `payload` bytes takes (unmasked).
func webSocketFrameSize(payload: Int) -> Int {
  payload + (payload <= 125 ? 2 : payload <= 65_535 ? 4 : 10)
}

/// A new Gallery session's id and page, once its first page of photos is in the page.
@MainActor
private func openGallery(
  _ registry: WebSessionRegistry, scenario: String
) async -> (String, String) {
  guard case .page(_, let id) = await registry.page(for: "/gallery"),
    let session = registry.session(id)
  else {
    invalid("\(scenario): no Gallery page")
  }
  for _ in 0..<10_000 {
    let page = session.document(script: "/tether.js", style: "/tether.css")
    if page.contains("20 photos") { return (id, page) }
    await Task.yield()
  }
  invalid("\(scenario): the Gallery never showed its photos")
}

struct GzipError: Error, CustomStringConvertible {
  var description: String
}

/// The size of `bytes` compressed by the system's `gzip -9 -n`.
private func gzipSize(of bytes: [UInt8]) throws -> Int {
  let candidates = ["/usr/bin/gzip", "/bin/gzip", "/usr/local/bin/gzip"]
  guard let gzip = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
  else {
    throw GzipError(description: "no gzip in \(candidates) (apt-get install gzip)")
  }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: gzip)
  process.arguments = ["-9", "-n", "-c"]
  let input = Pipe()
  let output = Pipe()
  process.standardInput = input
  process.standardOutput = output
  try process.run()
  input.fileHandleForWriting.write(Data(bytes))
  try input.fileHandleForWriting.close()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0, !data.isEmpty else {
    throw GzipError(description: "gzip exited with \(process.terminationStatus)")
  }
  return data.count
}

/// W5: a keystroke to the view model's derived output on the page, TodoMVC at `/todos`, and
/// what a keystroke costs on the wire.
///
/// Latency, in headless Chromium against the showcase's web server in this process: each trial
/// types one character into the new-todo field (an `input` event, as a key does) and presses
/// Enter; the time is from the Enter's keydown to the page applying the patch whose counter
/// (`.todo-count strong`) shows the new count. Bytes, on a session in process: a one-character
/// edit up (a masked client frame: 6 header bytes up to 125 of payload) and what the server
/// sends back for it, then the same for Enter.
@MainActor
func runW5(_ bench: Bench, trials count: Int) async {
  let scenario = "W5 keystroke to output"
  await w5Bytes(bench, scenario: scenario)
  guard browserIsInstalled else {
    if ProcessInfo.processInfo.environment["CI"] != nil {
      invalid("\(scenario): needs chromium and chromedriver (.ci/run installs them)")
    }
    print("\(scenario): latency not measured (needs chromium and chromedriver)")
    return
  }
  var times: [Double] = []
  do {
    let port = try await servedShowcase.port()
    let browser = try await Browser()
    do {
      try await browser.open("http://127.0.0.1:\(port)/todos")
      try await browser.waitUntil("the new-todo field") {
        try await browser.count(".new-todo") == 1
      }
      let samples = try await browser.runAsync(
        """
        const done = arguments[arguments.length - 1];
        const times = [];
        const step = (i) => {
          if (i === \(count)) { done(times); return; }
          const field = document.querySelector(".new-todo");
          field.value = field.value + "x";
          field.dispatchEvent(new Event("input", { bubbles: true }));
          const start = performance.now();
          const listener = () => {
            const shown = document.querySelector(".todo-count strong");
            if (!shown || shown.textContent !== String(i + 1)) return;
            document.removeEventListener("tether:applied", listener);
            times.push(performance.now() - start);
            setTimeout(() => step(i + 1), 5);
          };
          document.addEventListener("tether:applied", listener);
          field.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
        };
        step(0);
        """)
      times = ((samples as? [Any]) ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
      await browser.quit()
    } catch {
      await browser.quit()
      throw error
    }
  } catch {
    invalid("\(scenario): \(error)")
  }
  guard times.count == count else {
    invalid("\(scenario): \(times.count) of \(count) items reached the counter")
  }
  let sorted = times.sorted()
  let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
  bench.record(
    scenario, "Enter to the counter, Chromium", samples: times, unit: "ms",
    note: String(format: "p99 %.2f ms, %d items", p99, count))
}

/// W5's bytes: a TodoMVC session in process, one character typed, then Enter.
@MainActor
private func w5Bytes(_ bench: Bench, scenario: String) async {
  let registry = WebSessionRegistry(services: .bundled(thumbnailDelay: .zero), firstRender: .held)
  defer { registry.closeAll() }
  guard case .page(_, let id) = await registry.page(for: "/todos", client: WebClient(id: "b"))
  else { invalid("\(scenario): no TodoMVC page") }
  var sent: [String] = []
  _ = registry.attach(id, resync: false) { sent.append($0) }
  sent.removeAll()
  guard let html = registry.session(id)?.document(script: "", style: ""),
    let match = html.firstMatch(of: #/<input id="([^"]+)"[^>]*class="new-todo"/#)
  else {
    invalid("\(scenario): no new-todo field")
  }
  let field = String(match.1)
  let typed = ClientMessage.input(id: field, value: "x", sequence: 1).json
  if let error = await registry.receive(id, typed) { invalid("\(scenario): \(error)") }
  let down = sent.reduce(0) { $0 + webSocketFrameSize(payload: $1.utf8.count) }
  sent.removeAll()
  let enter = ClientMessage.submit(id: field).json
  if let error = await registry.receive(id, enter) { invalid("\(scenario): \(error)") }
  // The second item, on a list that shows: what a typical Enter sends.
  sent.removeAll()
  _ = await registry.receive(id, ClientMessage.input(id: field, value: "y", sequence: 2).json)
  if let error = await registry.receive(id, enter) { invalid("\(scenario): \(error)") }
  guard sent.count == 1, let added = sent.first, added.contains("items left")
  else { invalid("\(scenario): Enter did not add the second item: \(sent)") }
  // A page's frame is masked: 6 header bytes up to 125 bytes of payload.
  bench.record(
    scenario, "one character, up", samples: [Double(typed.utf8.count + 6)], unit: "bytes",
    note: "\(typed.utf8.count) B of JSON + 6 B masked header")
  bench.record(
    scenario, "one character, down", samples: [Double(down)], unit: "bytes",
    note: "no echo of what was typed")
  bench.record(
    scenario, "Enter, down", samples: [Double(webSocketFrameSize(payload: added.utf8.count))],
    unit: "bytes", note: "the second item: its row, the counter, the field cleared")
}
