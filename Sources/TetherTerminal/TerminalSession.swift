import Dispatch
import Tether

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#else
  #error("TetherTerminal needs a POSIX terminal API (Glibc, Musl or Darwin).")
#endif

/// Why a terminal app could not start.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
  /// Standard input or output is not a terminal.
  case notATerminal
  /// The terminal's settings could not be read or changed.
  case settingsUnavailable

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .notATerminal:
      "needs an interactive terminal: standard input and output must both be a TTY"
    case .settingsUnavailable:
      "could not switch the terminal to raw mode"
    }
  }
}

// State the fatal-signal handler needs. A C signal handler cannot capture context, so it must be
// global, and it cannot be actor-isolated. Why the unsynchronized access is safe:
// - `savedSettings` is written once, on the main actor, before any handler is installed, and
//   only read afterwards.
// - `rawModeActive` is written on the main actor, and by a fatal-signal handler that then
//   re-raises the signal with its default action, so no code runs after that write. Both
//   writers only clear it; a lost update could at worst restore the terminal twice, which is
//   harmless.
nonisolated(unsafe) private var savedSettings = termios()
nonisolated(unsafe) private var rawModeActive = false

private let leaveSequence = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

/// Restores the terminal using only async-signal-safe calls (`write`, `tcsetattr`).
private func restoreTerminalFromSignal() {
  guard rawModeActive else { return }
  rawModeActive = false
  _ = leaveSequence.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
  _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedSettings)
}

/// A running terminal app: raw mode, the alternate screen and a hidden cursor, all restored on
/// every way out — `q`, Ctrl-C, SIGTERM, SIGHUP, and fatal signals (SIGSEGV, SIGILL, SIGABRT,
/// SIGBUS, SIGFPE, SIGTRAP). A resize (SIGWINCH) redraws.
@MainActor
public final class TerminalSession {
  /// The terminal's size in cells.
  public let size: MutableProperty<(width: Int, height: Int)>
  /// Advances about ten times a second, for spinners.
  public let tick = MutableProperty(0)

  private var sources: [any DispatchSourceProtocol] = []
  private var parser = KeyParser()
  private var lastFrame: Canvas?
  private var renderToken: ObservationToken?
  private var flushWork: DispatchWorkItem?
  private var tickTask: Task<Void, Never>?
  private var finish: CheckedContinuation<Void, Never>?

  /// Whether standard input and output are both terminals.
  public static var isInteractive: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }

  /// Prepares a session; the terminal is not touched until ``run(navigator:)``.
  ///
  /// - Throws: ``TerminalError/notATerminal`` without a TTY.
  public init() throws {
    guard Self.isInteractive else { throw TerminalError.notATerminal }
    size = MutableProperty(Self.readSize())
  }

  /// Runs `navigator` until the user quits or a termination signal arrives, then restores the
  /// terminal.
  ///
  /// - Parameter navigator: The app's navigator, with its root screen set.
  /// - Throws: ``TerminalError/settingsUnavailable`` if raw mode cannot be entered.
  public func run(navigator: TerminalNavigator) async throws {
    try enterRawMode()
    defer { leave() }
    navigator.onQuit = { [weak self] in self?.stop() }
    installSignalSources()
    installInput(navigator: navigator)
    tickTask = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(100))
        self?.tick.value &+= 1
      }
    }
    renderToken = observe { [weak self] in
      guard let self else { return }
      let (width, height) = self.size.value
      let frame = navigator.render(width: width, height: height)
      self.write(FrameDiff.output(from: self.lastFrame, to: frame))
      self.lastFrame = frame
    }
    await withCheckedContinuation { finish = $0 }
  }

  private func stop() {
    finish?.resume()
    finish = nil
  }

  private func enterRawMode() throws {
    var settings = termios()
    guard tcgetattr(STDIN_FILENO, &settings) == 0 else { throw TerminalError.settingsUnavailable }
    savedSettings = settings
    cfmakeraw(&settings)
    // Keep output processing so "\n" still returns the carriage.
    settings.c_oflag |= tcflag_t(OPOST)
    guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else {
      throw TerminalError.settingsUnavailable
    }
    rawModeActive = true
    for fatal in [SIGSEGV, SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGTRAP] {
      signal(fatal) { number in
        restoreTerminalFromSignal()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
    write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
  }

  private func leave() {
    renderToken?.cancel()
    tickTask?.cancel()
    for source in sources { source.cancel() }
    sources = []
    if rawModeActive {
      rawModeActive = false
      write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
      _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedSettings)
    }
  }

  private func installSignalSources() {
    for number in [SIGTERM, SIGHUP, SIGINT] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.stop() } }
      source.resume()
      sources.append(source)
    }
    signal(SIGWINCH, SIG_IGN)
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
    resize.setEventHandler { [weak self] in
      MainActor.assumeIsolated {
        guard let self else { return }
        self.lastFrame = nil  // a resize redraws everything
        self.size.value = Self.readSize()
      }
    }
    resize.resume()
    sources.append(resize)
  }

  private func installInput(navigator: TerminalNavigator) {
    let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    input.setEventHandler { [weak self] in
      MainActor.assumeIsolated {
        guard let self else { return }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count == 0 {
          self.stop()  // end of input: the terminal went away
          return
        }
        guard count > 0 else { return }
        for key in self.parser.feed(Array(buffer.prefix(count))) { navigator.handle(key) }
        self.scheduleFlush(navigator: navigator)
      }
    }
    input.resume()
    sources.append(input)
  }

  /// A lone Esc is only known once input pauses.
  private func scheduleFlush(navigator: TerminalNavigator) {
    flushWork?.cancel()
    guard parser.hasPending else { return }
    let work = DispatchWorkItem { [weak self] in
      MainActor.assumeIsolated {
        guard let self else { return }
        for key in self.parser.flush() { navigator.handle(key) }
      }
    }
    flushWork = work
    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(40), execute: work)
  }

  private func write(_ text: String) {
    guard !text.isEmpty else { return }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { posixWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }

  /// The terminal's size, at least 1 × 1; 80 × 24 when it cannot be read.
  static func readSize() -> (width: Int, height: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
    else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
  }
}

/// POSIX `write(2)`, named apart from ``TerminalSession``'s own `write(_:)`; the C library
/// module is whichever the platform block at the top of this file imported.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
