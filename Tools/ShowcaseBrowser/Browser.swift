import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether Chromium and its WebDriver are installed (`.ci/run` installs them).
public let browserIsInstalled =
  FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
  && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")

/// What went wrong talking to chromedriver, the browser, or the server under test: cases, never
/// matched by their text.
public enum WebDriverError: Error, Equatable, CustomStringConvertible {
  /// chromedriver never said which port it listens on.
  case driverDidNotStart(output: String)
  /// chromedriver did not answer its status request.
  case driverDidNotAnswer(port: Int, lastError: String)
  /// No browser session was created.
  case noBrowserSession(answer: String)
  /// No element matches the selector.
  case noElement(selector: String)
  /// Fewer keys were applied than were sent.
  case keysNotApplied(applied: Int, sent: Int)
  /// The screenshot was not a PNG.
  case noScreenshot
  /// A condition did not hold in time.
  case timedOut(waitingFor: String)
  /// WebDriver answered with an error (its W3C error code, such as `no such element`).
  case webDriver(code: String, message: String)
  /// The HTTP exchange with chromedriver failed at `step` (socket, connect, write, answer).
  case http(step: String, port: Int)
  /// A product the test runs is not built.
  case notBuilt(product: String)
  /// A server under test never printed its address.
  case noAddress(product: String, output: String)

  /// What went wrong, for the failure message.
  public var description: String {
    switch self {
    case .driverDidNotStart(let output): "chromedriver did not start: \(output)"
    case .driverDidNotAnswer(let port, let lastError):
      "chromedriver did not answer on \(port): \(lastError)"
    case .noBrowserSession(let answer): "no browser session: \(answer)"
    case .noElement(let selector): "no element \(selector)"
    case .keysNotApplied(let applied, let sent): "\(applied) of \(sent) keys were applied"
    case .noScreenshot: "no screenshot"
    case .timedOut(let what): "timed out waiting for \(what)"
    case .webDriver(let code, let message): "\(code): \(message)"
    case .http(let step, let port): "HTTP to 127.0.0.1:\(port) failed: \(step)"
    case .notBuilt(let product): "build it first: swift build --product \(product)"
    case .noAddress(let product, let output): "\(product) printed no address: \(output)"
    }
  }
}

/// A minimal W3C WebDriver client for headless Chromium: one browser session per instance.
/// The browser end-to-end tests and `tether-bench`'s latency figure both drive it.
public final class Browser: @unchecked Sendable {
  // @unchecked: every property is set in `init` and never changed; the chromedriver process
  // is only terminated in `quit()`.
  private let driver: Process
  private let base: URL
  private let session: String

  /// Starts chromedriver on a port it picks itself and a headless Chromium session in it.
  ///
  /// The port is chromedriver's own choice (`--port=0`, read back from its first lines): a
  /// port picked here could be taken meanwhile by a server under test or by an outgoing
  /// connection's ephemeral port, and chromedriver would then never answer.
  public init(width: Int = 390, height: Int = 844) async throws {
    driver = Process()
    driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
    driver.arguments = ["--port=0", "--allowed-ips=127.0.0.1", "--log-level=SEVERE"]
    let output = Pipe()
    driver.standardOutput = output
    driver.standardError = FileHandle.nullDevice
    let announced = OutputLines()
    output.fileHandleForReading.readabilityHandler = { handle in
      let chunk = handle.availableData
      if chunk.isEmpty {
        handle.readabilityHandler = nil  // chromedriver ended
      } else {
        announced.append(chunk)
      }
    }
    try driver.run()
    var port: Int?
    let deadline = Date().addingTimeInterval(30)
    while port == nil, Date() < deadline, driver.isRunning {
      try await Task.sleep(for: .milliseconds(50))
      port = announced.port
    }
    guard let port, let base = URL(string: "http://127.0.0.1:\(port)") else {
      kill(driver.processIdentifier, SIGKILL)
      throw WebDriverError.driverDidNotStart(output: String(announced.text.prefix(300)))
    }
    self.base = base
    var ready = false
    var lastError: (any Error)?
    for _ in 0..<200 where !ready {
      do {
        _ = try await Self.request(base, "GET", "/status", nil)
        ready = true
      } catch {
        lastError = error
        try await Task.sleep(for: .milliseconds(100))
      }
    }
    guard ready else {
      kill(driver.processIdentifier, SIGKILL)
      throw WebDriverError.driverDidNotAnswer(
        port: port, lastError: lastError.map { String(describing: $0) } ?? "none")
    }
    let capabilities: [String: Any] = [
      "capabilities": [
        "alwaysMatch": [
          "browserName": "chrome",
          "goog:chromeOptions": [
            "binary": "/usr/bin/chromium",
            "args": [
              "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=\(width),\(height)",
            ],
          ],
        ]
      ]
    ]
    let answer = try await Self.request(base, "POST", "/session", capabilities)
    guard let id = (answer as? [String: Any])?["sessionId"] as? String else {
      kill(driver.processIdentifier, SIGKILL)
      throw WebDriverError.noBrowserSession(answer: "\(answer)")
    }
    session = id
  }

  /// Ends the browser session and chromedriver.
  public func quit() async {
    _ = try? await Self.request(base, "DELETE", "/session/\(session)", nil)
    kill(driver.processIdentifier, SIGKILL)  // chromedriver does not always stop on SIGTERM
  }

  /// Loads `url` in the browser.
  public func open(_ url: String) async throws {
    _ = try await command("POST", "url", ["url": url])
  }

  /// The window (tab) commands go to now: its WebDriver handle.
  public func currentWindow() async throws -> String {
    try await command("GET", "window", nil) as? String ?? ""
  }

  /// Opens a new window of this browser (same profile, same cookies) and returns its handle;
  /// commands still go to the current one until ``switchToWindow(_:)``.
  public func newWindow() async throws -> String {
    let answer = try await command("POST", "window/new", ["type": "window"])
    guard let handle = (answer as? [String: Any])?["handle"] as? String else {
      throw WebDriverError.webDriver(code: "no window", message: "\(answer)")
    }
    return handle
  }

  /// Sends later commands to the window `handle`.
  public func switchToWindow(_ handle: String) async throws {
    _ = try await command("POST", "window", ["handle": handle])
  }

  /// Closes the current window (its page unloads, its socket closes); switch to another
  /// window before the next command.
  public func closeWindow() async throws {
    _ = try await command("DELETE", "window", nil)
  }

  /// The browser's Back button.
  public func back() async throws { _ = try await command("POST", "back", [:]) }

  /// Makes pages see `prefers-color-scheme: dark` (or light again), through the DevTools
  /// protocol chromedriver forwards.
  public func emulateColorScheme(dark: Bool) async throws {
    _ = try await command(
      "POST", "goog/cdp/execute",
      [
        "cmd": "Emulation.setEmulatedMedia",
        "params": [
          "features": [["name": "prefers-color-scheme", "value": dark ? "dark" : "light"]]
        ],
      ])
  }

  /// A WebDriver element reference: one DOM node, found once. Using it after the page
  /// replaced that node fails with `stale element reference`, as it would for a person's
  /// test written against any web app (WebDriver's own rule, not this client's).
  public struct Element: Sendable, Equatable {
    /// WebDriver's id for the node.
    public let reference: String

    /// The element as a script's argument (``run(_:_:)``): the script gets the node.
    public var argument: [String: String] { [Browser.elementKey: reference] }
  }

  private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

  /// The first element matching `selector` now, or `nil` if there is none.
  public func find(_ selector: String) async throws -> Element? {
    try await findAll(selector).first
  }

  /// Every element matching `selector` now, in document order.
  public func findAll(_ selector: String) async throws -> [Element] {
    let answer = try await command(
      "POST", "elements", ["using": "css selector", "value": selector])
    return (answer as? [[String: Any]] ?? []).compactMap {
      ($0[Self.elementKey] as? String).map(Element.init(reference:))
    }
  }

  /// Waits (polling every 50 ms, at most `seconds`) for an element matching `selector`.
  public func waitForElement(_ selector: String, seconds: Double = 3) async throws -> Element {
    var found: Element?
    do {
      try await waitUntil(selector, seconds: seconds) {
        found = try await find(selector)
        return found != nil
      }
    } catch WebDriverError.timedOut {
      throw WebDriverError.noElement(selector: selector)
    }
    guard let found else { throw WebDriverError.noElement(selector: selector) }
    return found
  }

  /// Clicks `element` (WebDriver's element click: scrolled into view, at its centre, refused
  /// if another element covers that point).
  public func click(_ element: Element) async throws {
    _ = try await command("POST", "element/\(element.reference)/click", [:])
  }

  /// Types `keys` into `element` (WebDriver's element send keys: focuses it first).
  public func sendKeys(_ keys: String, to element: Element) async throws {
    _ = try await command("POST", "element/\(element.reference)/value", ["text": keys])
  }

  /// The element's DOM property `name` (an input's `value`, a checkbox's `checked`).
  public func property(_ name: String, of element: Element) async throws -> Any {
    try await command("GET", "element/\(element.reference)/property/\(name)", nil)
  }

  /// The element's rendered text, as WebDriver reads it.
  public func text(of element: Element) async throws -> String {
    try await command("GET", "element/\(element.reference)/text", nil) as? String ?? ""
  }

  /// Whether the element is displayed, as WebDriver judges it.
  public func isDisplayed(_ element: Element) async throws -> Bool {
    try await command("GET", "element/\(element.reference)/displayed", nil) as? Bool == true
  }

  /// Whether a checkbox (or option) is selected.
  public func isSelected(_ element: Element) async throws -> Bool {
    try await command("GET", "element/\(element.reference)/selected", nil) as? Bool == true
  }

  /// Runs `script` before every document's own scripts, from the next page loaded on (the
  /// DevTools protocol's `Page.addScriptToEvaluateOnNewDocument`, which chromedriver forwards).
  public func runOnEveryNewDocument(_ script: String) async throws {
    _ = try await command(
      "POST", "goog/cdp/execute",
      ["cmd": "Page.addScriptToEvaluateOnNewDocument", "params": ["source": script]])
  }

  /// Lets the pages of `origin` read the clipboard without asking (the DevTools protocol's
  /// `Browser.grantPermissions`): a test reads back what a page copied.
  public func allowClipboardReading(for origin: String) async throws {
    _ = try await command(
      "POST", "goog/cdp/execute",
      [
        "cmd": "Browser.grantPermissions",
        "params": ["origin": origin, "permissions": ["clipboardReadWrite"]],
      ])
  }

  /// Runs `script` in the page and returns its result.
  @discardableResult
  public func run(_ script: String, _ arguments: [Any] = []) async throws -> Any {
    try await command("POST", "execute/sync", ["script": script, "args": arguments])
  }

  /// Runs `script` (which calls `arguments[arguments.length - 1]` with its result) and waits.
  public func runAsync(_ script: String) async throws -> Any {
    try await command("POST", "execute/async", ["script": script, "args": []])
  }

  /// The rendered text of the first element matching `selector`, or "" if there is none.
  public func text(_ selector: String) async throws -> String {
    let value = try await run(
      "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;", [selector])
    return value as? String ?? ""
  }

  /// How many elements match `selector`.
  public func count(_ selector: String) async throws -> Int {
    try await run("return document.querySelectorAll(arguments[0]).length;", [selector]) as? Int ?? 0
  }

  /// Clicks the first element matching `selector`, as a person would.
  ///
  /// A live page may replace the element between finding and clicking it (a patch redraws
  /// it); then it is found again and clicked, up to three times, as a person would click what
  /// is on screen now.
  public func click(_ selector: String) async throws {
    for attempt in 1...3 {
      let element = try await command(
        "POST", "element", ["using": "css selector", "value": selector])
      guard let id = (element as? [String: Any])?.values.first as? String else {
        throw WebDriverError.noElement(selector: selector)
      }
      do {
        _ = try await command("POST", "element/\(id)/click", [:])
        return
      } catch WebDriverError.webDriver(let code, _) where code == "stale element reference" {
        if attempt == 3 { throw WebDriverError.webDriver(code: code, message: selector) }
      }
    }
  }

  /// Moves the mouse over the first element matching `selector` (so `:hover` styles apply)
  /// and clicks it `count` times in a row: 2 is a double-click.
  public func pointerClick(_ selector: String, count: Int = 1) async throws {
    let element = try await command(
      "POST", "element", ["using": "css selector", "value": selector])
    guard let id = (element as? [String: Any])?.values.first as? String else {
      throw WebDriverError.noElement(selector: selector)
    }
    var actions: [[String: Any]] = [
      [
        "type": "pointerMove", "duration": 0, "x": 0, "y": 0,
        "origin": ["element-6066-11e4-a52e-4f735466cecf": id],
      ]
    ]
    for _ in 0..<max(1, count) {
      actions.append(["type": "pointerDown", "button": 0])
      actions.append(["type": "pointerUp", "button": 0])
    }
    _ = try await command(
      "POST", "actions",
      [
        "actions": [
          [
            "type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"],
            "actions": actions,
          ]
        ]
      ])
    _ = try await command("DELETE", "actions", nil)
  }

  /// Presses keys: WebDriver codes such as `\u{E015}` (↓), `\u{E007}` (Enter), `\u{E00C}` (Esc).
  public func press(_ keys: String) async throws {
    var actions: [[String: Any]] = []
    for key in keys.unicodeScalars.map(String.init) {
      actions.append(["type": "keyDown", "value": key])
      actions.append(["type": "keyUp", "value": key])
    }
    _ = try await command(
      "POST", "actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
  }

  /// Input-to-DOM latencies in milliseconds, measured in the page: presses ArrowDown and
  /// ArrowUp in turn, `count` times, 5 ms apart, timing each with `performance.now()` from the
  /// key event to the client's `tether:applied` event (its patches applied). Throws if any key
  /// was not applied.
  public func keyLatencies(count: Int) async throws -> [Double] {
    let samples = try await runAsync(
      """
      const done = arguments[arguments.length - 1];
      const times = [];
      const step = (i) => {
        if (i === \(count)) { done(times); return; }
        const start = performance.now();
        document.addEventListener("tether:applied", () => {
          times.push(performance.now() - start);
          setTimeout(() => step(i + 1), 5);
        }, { once: true });
        document.dispatchEvent(new KeyboardEvent("keydown",
          { key: i % 2 === 0 ? "ArrowDown" : "ArrowUp", bubbles: true }));
      };
      step(0);
      """)
    let times = ((samples as? [Any]) ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
    guard times.count == count else {
      throw WebDriverError.keysNotApplied(applied: times.count, sent: count)
    }
    return times
  }

  /// Saves what the browser shows as a PNG at `path`.
  public func screenshot(to path: String) async throws {
    let value = try await command("GET", "screenshot", nil)
    guard let base64 = value as? String, let data = Data(base64Encoded: base64) else {
      throw WebDriverError.noScreenshot
    }
    try data.write(to: URL(fileURLWithPath: path))
  }

  /// Waits until `condition` holds, polling every 50 ms, for at most `seconds`.
  /// It runs on the caller's actor (`isolation`), so `condition` may use that actor's state.
  public func waitUntil(
    _ what: String, seconds: Double = 10, isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
  ) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try await condition() { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw WebDriverError.timedOut(waitingFor: what)
  }

  private func command(_ method: String, _ path: String, _ body: [String: Any]?) async throws
    -> Any
  {
    try await Self.request(base, method, "/session/\(session)/\(path)", body)
  }

  private static func request(_ base: URL, _ method: String, _ path: String, _ body: Any?)
    async throws -> Any
  {
    let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
    let port = base.port ?? 80
    let data = try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try httpExchange(port: port, method, path, payload) })
      }
    }
    let json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    guard let value = (json as? [String: Any])?["value"] else { return NSNull() }
    if let error = (value as? [String: Any])?["error"] as? String {
      let message = (value as? [String: Any])?["message"] as? String ?? ""
      throw WebDriverError.webDriver(code: error, message: String(message.prefix(300)))
    }
    return value
  }

  /// One HTTP/1.1 request to 127.0.0.1 over a plain socket; returns the body. (Foundation's
  /// client on Linux rejects chromedriver's `Name:value` headers, valid HTTP without a space.)
  private static func httpExchange(port: Int, _ method: String, _ path: String, _ body: Data)
    throws -> Data
  {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw WebDriverError.http(step: "socket", port: port) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw WebDriverError.http(step: "connect", port: port) }
    var request = Data(
      ("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n").utf8)
    request += body
    try request.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = send(
          descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset, 0)
        guard written > 0 else { throw WebDriverError.http(step: "write", port: port) }
        offset += written
      }
    }
    // Read the head, then exactly Content-Length bytes: chromedriver may keep the
    // connection open whatever the request says.
    var response = Data()
    var chunk = [UInt8](repeating: 0, count: 65_536)
    var bodyStart: Data.Index?
    var bodyLength: Int?
    while true {
      if let start = bodyStart, let length = bodyLength, response.count - start >= length {
        return response[start..<(start + length)]
      }
      let count = recv(descriptor, &chunk, chunk.count, 0)
      if count <= 0 { break }
      response.append(contentsOf: chunk[0..<count])
      if bodyStart == nil, let split = response.range(of: Data("\r\n\r\n".utf8)) {
        bodyStart = split.upperBound
        let head = String(decoding: response[..<split.lowerBound], as: UTF8.self).lowercased()
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
          bodyLength = Int(
            line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        }
      }
    }
    guard let start = bodyStart else { throw WebDriverError.http(step: "answer", port: port) }
    return response[start...]
  }
}

/// What chromedriver printed, gathered on its pipe's thread: the port it listens on.
private final class OutputLines: @unchecked Sendable {
  // @unchecked: every access holds `lock`.
  private let lock = NSLock()
  private var data = Data()

  func append(_ chunk: Data) {
    lock.lock()
    defer { lock.unlock() }
    if data.count < 65_536 { data.append(chunk) }
  }

  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: data, as: UTF8.self)
  }

  /// From "ChromeDriver was started successfully on port 41489.".
  var port: Int? {
    let text = self.text
    guard let range = text.range(of: "started successfully on port ") else { return nil }
    return Int(text[range.upperBound...].prefix { $0.isNumber })
  }
}
