// The terminal session's signal plumbing: what restores the terminal from a signal handler,
// the stop signals' self-pipe, and the fatal signals' restore-then-die handlers.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// State the signal handlers need. A C signal handler cannot capture context, so it must be
// global, and it cannot be actor-isolated. Why the unsynchronized access is safe:
// - `savedSettings` is written once, on the main actor, before any handler is installed, and
//   only read afterwards.
// - `rawModeActive` is written on the main actor, and by a fatal-signal handler that then
//   re-raises the signal with its default action, so no code runs after that write. Both
//   writers only clear it; a lost update could at worst restore the terminal twice, which is
//   harmless.
// - `stopSignalPipe` is written once, on the main actor, before the stop-signal handlers are
//   installed; the handlers only read it, and only `write` to it (async-signal-safe).
nonisolated(unsafe) var savedSettings = termios()
nonisolated(unsafe) var rawModeActive = false
nonisolated(unsafe) private var stopSignalPipe: (read: Int32, write: Int32) = (-1, -1)

/// What leaves the session's screen: attributes reset, bracketed paste off, cursor shown, main
/// screen back.
private let leaveSequence = Array("\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l".utf8)

/// Restores the terminal, once, with only async-signal-safe calls (`write`, `tcsetattr`): the
/// one way out, for a normal end and for a fatal signal's handler alike.
func restoreTerminal() {
  guard rawModeActive else { return }
  rawModeActive = false
  _ = leaveSequence.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
  _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedSettings)
}

/// SIGSEGV, SIGILL, SIGABRT, SIGBUS, SIGFPE and SIGTRAP restore the terminal, then kill the
/// process with the signal's default action (status 128 + n, as a shell expects).
func installFatalSignalHandlers() {
  for fatal in [SIGSEGV, SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGTRAP] {
    signal(fatal) { number in
      restoreTerminal()
      // Die of the signal now: default action, and unblocked, since the thread that crashed
      // may be one (a dispatch worker) that blocks it outside this handler.
      raiseWithDefaultAction(number)
    }
  }
}

/// The read end of the stop signals' pipe, made once (non-blocking, close-on-exec).
///
/// - Throws: ``TerminalError/settingsUnavailable`` if no pipe can be made.
func stopSignalReadEnd() throws -> Int32 {
  if stopSignalPipe.read < 0 {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { throw TerminalError.settingsUnavailable }
    for descriptor in descriptors {
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
    stopSignalPipe = (descriptors[0], descriptors[1])
  }
  return stopSignalPipe.read
}

/// Reads every signal number waiting in the pipe; returns the first, if any.
func drainStopSignals() -> Int32? {
  var byte: UInt8 = 0
  var received: Int32?
  while read(stopSignalPipe.read, &byte, 1) == 1 { received = received ?? Int32(byte) }
  return received
}

/// Points SIGTERM, SIGHUP and SIGINT at the pipe; returns their previous actions, for
/// ``restoreStopSignalHandlers(_:)``.
func installStopSignalHandlers() -> [(Int32, sigaction)] {
  var previousActions: [(Int32, sigaction)] = []
  for number in [SIGTERM, SIGHUP, SIGINT] {
    var action = sigaction()
    setHandler(&action, forwardStopSignal)
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    var previous = sigaction()
    _ = sigaction(number, &action, &previous)
    previousActions.append((number, previous))
  }
  return previousActions
}

/// Puts back the actions ``installStopSignalHandlers()`` replaced.
func restoreStopSignalHandlers(_ previousActions: [(Int32, sigaction)]) {
  for (number, previous) in previousActions {
    var action = previous
    _ = sigaction(number, &action, nil)
  }
}

/// The handler for SIGTERM, SIGHUP and SIGINT: hands the signal's number to the main actor
/// through a pipe (the self-pipe pattern). Whichever thread the kernel picks runs it, so no
/// thread's signal mask can make the signal vanish, and `write` is async-signal-safe.
private func forwardStopSignal(_ number: Int32) {
  var byte = UInt8(truncatingIfNeeded: number)
  _ = write(stopSignalPipe.write, &byte, 1)
}

/// Sets `action`'s handler, whose field is named differently by each C library.
private func setHandler(_ action: inout sigaction, _ handler: @convention(c) (Int32) -> Void) {
  #if canImport(Darwin)
    action.__sigaction_u.__sa_handler = handler
  #elseif canImport(Musl)
    action.__sa_handler.sa_handler = handler
  #else
    action.__sigaction_handler.sa_handler = handler
  #endif
}

/// Unblocks `number` on the calling thread (async-signal-safe). Main-actor code runs on a
/// dispatch worker on Linux, and those block most signals: a signal raised there stays
/// pending until unblocked.
private func unblockSignal(_ number: Int32) {
  var set = sigset_t()
  sigemptyset(&set)
  sigaddset(&set, number)
  pthread_sigmask(SIG_UNBLOCK, &set, nil)
}

/// Restores `number`'s default action, unblocks it and raises it.
func raiseWithDefaultAction(_ number: Int32) {
  signal(number, SIG_DFL)
  unblockSignal(number)
  raise(number)
}
