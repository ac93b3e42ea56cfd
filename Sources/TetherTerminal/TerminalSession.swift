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

/// How a terminal app ended, and the exit status that follows the shell's convention.
public enum TerminalExit: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The user quit (`q`): status 0.
  case quit
  /// A signal ended the app, after the terminal was restored: status 128 + the signal.
  /// Ctrl-C is ``interrupted`` (SIGINT), and a terminal that went away (end of input) is a
  /// hang-up (SIGHUP).
  case signal(Int32)

  /// Ctrl-C: the same as SIGINT, status 130.
  public static let interrupted = TerminalExit.signal(SIGINT)

  /// The process's exit status: 0, or 128 + the signal.
  public var status: Int32 {
    switch self {
    case .quit: 0
    case .signal(let number): 128 + number
    }
  }

  /// Ends the process the way a shell expects, once the terminal is restored: `exit(0)` for
  /// ``quit``; for a signal, its default action restored, the signal unblocked and raised, so
  /// the parent sees the process die of it (status 128 + n).
  public func terminateProcess() -> Never {
    if case .signal(let number) = self {
      raiseWithDefaultAction(number)
    }
    exit(status)  // `quit`, or a signal whose default action does not end the process
  }

  /// `quit`, or the signal's name, e.g. `SIGHUP`.
  public var description: String {
    switch self {
    case .quit: "quit"
    case .signal(let number):
      switch number {
      case SIGINT: "SIGINT"
      case SIGTERM: "SIGTERM"
      case SIGHUP: "SIGHUP"
      default: "signal \(number)"
      }
    }
  }
}

/// A running terminal app: raw mode, the alternate screen and a hidden cursor, all restored on
/// every way out — `q`, Ctrl-C, SIGTERM, SIGHUP, SIGINT, end of input, and fatal signals
/// (SIGSEGV, SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGTRAP). A resize (SIGWINCH) redraws.
///
/// ``run(navigator:)`` returns how the app ended; ``TerminalExit/status`` is the exit status
/// a shell expects (0 for `q`, 128 + the signal otherwise). A fatal signal restores the
/// terminal and then takes its default action, so the process dies of it (status 128 + n).
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
  private var finish: CheckedContinuation<TerminalExit, Never>?
  private var previousStopActions: [(Int32, sigaction)] = []

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
  /// - Returns: How the app ended. A caller that ends the process should do so with
  ///   ``TerminalExit/terminateProcess()``, so its parent sees the status a shell expects.
  /// - Throws: ``TerminalError/settingsUnavailable`` if raw mode cannot be entered.
  @discardableResult
  public func run(navigator: TerminalNavigator) async throws -> TerminalExit {
    defer { leave() }  // also when raw mode cannot be entered: the handlers go back
    try installSignalSources()
    try enterRawMode()
    navigator.onQuit = { [weak self] exit in self?.stop(exit) }
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
    return await withCheckedContinuation { finish = $0 }
  }

  private func stop(_ exit: TerminalExit) {
    finish?.resume(returning: exit)
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
    installFatalSignalHandlers()
    // The alternate screen, no cursor, and bracketed paste: pasted text arrives marked.
    write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h\u{1B}[2J")
  }

  private func leave() {
    renderToken?.cancel()
    tickTask?.cancel()
    for source in sources { source.cancel() }
    sources = []
    // The stop signals' previous handlers come back: after the session, SIGTERM means what it
    // meant before it.
    restoreStopSignalHandlers(previousStopActions)
    previousStopActions = []
    restoreTerminal()
  }

  /// Stop signals go through a pipe read on the main queue; SIGWINCH through a dispatch source.
  ///
  /// Installed before raw mode is entered, so a stop signal never finds the terminal raw with
  /// nobody listening. Stop signals do not use `DispatchSource.makeSignalSource`: on Linux,
  /// libdispatch delivers a signal in hops — its own `sigaction` handler (replacing the app's)
  /// blocks the signal on whichever thread took it and re-sends it with `pthread_kill` to the
  /// thread that first registered a signal source, for the manager thread's `signalfd` to read
  /// — and which threads those are, and what they block, depends on scheduling (libdispatch's
  /// own comments describe the misfires). Under load, SIGHUP sometimes never reached the app.
  /// A plain handler runs on whichever thread the kernel picks and writes one byte to a pipe:
  /// no thread's signal mask matters.
  private func installSignalSources() throws {
    let readEnd = try stopSignalReadEnd()
    let stops = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .main)
    stops.setEventHandler { [weak self] in
      MainActor.assumeIsolated {
        if let received = drainStopSignals() { self?.stop(.signal(received)) }
      }
    }
    stops.resume()
    sources.append(stops)
    previousStopActions = installStopSignalHandlers()
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
          self.stop(.signal(SIGHUP))  // end of input: the terminal went away
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
