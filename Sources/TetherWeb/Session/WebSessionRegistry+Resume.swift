import Foundation
import TetherFlow

/// A registry's rebuilding of sessions from their pages' resume tokens: the session a page
/// asks for, as its newest token says, whichever server held it before.
extension WebSessionRegistry {
  /// Makes sure session `id` is here in the state of the page's newest resume token: the
  /// session this server holds if it shows what the token says, else one rebuilt from the
  /// token — the stack from its path through the main flow (as a deep link), then each
  /// screen's selection and the alert. The caller then attaches the page's socket.
  ///
  /// A session held here may be behind the page: it served the page, and the page then went
  /// on on another node that died. A token numbered higher than the session's newest
  /// (``WebSession/resumeCounter``) is what the page last showed, so it wins; one numbered no
  /// higher is older than the session (replayed, or the page missed the newest token), and
  /// the session stays as it is (``ResumeOutcome/superseded``).
  ///
  /// The token never names the browser: it carries a keyed proof of it, and the session
  /// belongs to the browser presenting it (`client`, from the request's cookie) only if the
  /// proof is that browser's. A token shown by another browser is refused
  /// (``WebResumeError/otherClient``): a page read by someone else opens nothing of its
  /// browser's data.
  ///
  /// - Parameters:
  ///   - id: The session the page asks for.
  ///   - token: The page's newest resume token.
  ///   - client: The browser presenting it, as its cookie names it.
  ///   - address: The network address presenting it, if known: a session rebuilt for it
  ///     counts against ``sessionsPerAddress``.
  /// - Returns: Whether the session was here already or rebuilt, or why the token was refused.
  public func resume(
    _ id: String, token: String, client: WebClient = WebClient(), address: String? = nil
  ) async -> ResumeOutcome {
    guard let verifier = resumeSigner ?? pageSigner else {
      return sessions[id] != nil ? .held : .refused(.notEnabled)
    }
    var state: WebResumeState
    do {
      state = try verifier.verify(token, now: tokenTime())
    } catch {
      // A held session's page reconnects at any age: its token may have expired (a page
      // that sat on one screen past the grace period's signer without a refresh), but the
      // session it names is here, and the socket still has to show its secret.
      if error == .expired, let held = sessions[id], held.session.client == client {
        return .held
      }
      return .refused(error)
    }
    guard state.sessionID == id else { return .refused(.otherSession) }
    guard verifier.proves(state, belongTo: client.id) else { return .refused(.otherClient) }
    state.client = client.id
    if let held = sessions[id] {
      if held.session.resumeState.showsSamePage(as: state) { return .held }
      // A token no newer than the session held here is a page behind it (it missed the
      // newest token) or a replay: either way the session is not rolled back to it.
      if state.counter <= held.session.resumeCounter { return .superseded }
      held.expiry?.cancel()
      held.session.close()
      sessions[id] = nil
    }
    switch admissionRefusal(address: address, client: client, waiting: false) {
    case .full?: return .refused(.full)
    case .overBudget?, .busy?: return .refused(.overBudget)
    case nil: break
    }
    admission.beginMaking(for: address)
    let made = await makeSession(id: id, path: state.path, client: client)
    admission.endMaking(for: address)
    guard case .success(let session) = made else { return .refused(.unknownPath) }
    sessions[id]?.address = address
    session.restore(state)
    session.holdMessagesUntilAppeared()
    await session.waitForAppearance(timeout: appearanceWait)
    return .rebuilt
  }

  /// What ``resume(_:token:client:address:)`` did.
  public enum ResumeOutcome: Equatable, Sendable {
    /// The session was here, showing what the token says: nothing changed.
    case held
    /// The session was rebuilt from the token (it was elsewhere, or here but behind).
    case rebuilt
    /// The session is here and newer than the token (whose ``WebResumeState/counter`` is no
    /// higher than the session's): its state was refused, and the session goes on as it is.
    /// A page presenting it is redrawn with what the session shows.
    case superseded
    /// The token was refused; no session was made or changed.
    case refused(WebResumeError)
  }
}
