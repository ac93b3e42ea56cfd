/// The resume tokens a session signs for its page: numbered, each the state as the page shows
/// it (``WebResumeState``), a new one only when that state changed or the newest is getting
/// old.
///
/// A token's number orders it: a session rebuilt from a token goes on from its number, and a
/// token numbered no higher than the session's newest is older than the session.
@MainActor
final class ResumeTokens {
  /// Signs the tokens sent with the page's updates; `nil` sends none.
  let signer: WebResumeSigner?
  /// The number of the newest token signed.
  private(set) var counter = 0
  /// The state of the newest token sent (its `issuedAt` is 0), until the page reconnects.
  private var sent: WebResumeState?
  /// When the newest token was signed.
  private var signedAt: ContinuousClock.Instant?

  init(signer: WebResumeSigner?) {
    self.signer = signer
  }

  /// Signs the state `state` makes of the next number with `signer`, and counts it as sent.
  ///
  /// - Parameters:
  ///   - signer: The signer: the session's, or the registry's for a page with no session.
  ///   - state: The state as of a counter.
  /// - Returns: The token.
  func sign(with signer: WebResumeSigner, _ state: (Int) -> WebResumeState) -> String {
    counter += 1
    let signed = state(counter)
    signedAt = .now
    sent = signed
    return signer.sign(signed)
  }

  /// A new token for an update, if the page is owed one: the session signs, and `current`
  /// (the state as of the present counter) shows another page than the newest token sent.
  func tokenDue(current: () -> WebResumeState, state: (Int) -> WebResumeState) -> String? {
    guard let signer else { return nil }
    if let sent, current().showsSamePage(as: sent) { return nil }
    return sign(with: signer, state)
  }

  /// Whether the newest token sent is older than a third of the signer's `maximumAge`: the
  /// page should be sent a fresh one before another server would refuse it.
  func isAging(now: ContinuousClock.Instant) -> Bool {
    guard let signer, sent != nil, let signedAt else { return false }
    return now - signedAt >= signer.maximumAge / 3
  }

  /// Forgets the newest token sent: the next update carries a new one.
  func forgetSent() {
    sent = nil
  }

  /// Goes on from `counter`, the number of the token a session was rebuilt from.
  func resume(from counter: Int) {
    self.counter = max(self.counter, counter)
  }
}
