/// Who may have one more session: the registry's limits — how many sessions at once, per
/// network address and per browser, and how many pages one address may have waiting for their
/// socket — and the sessions being made right now, counted before the first suspension so
/// pages asked for at once cannot pass a limit together.
///
/// It holds no session: the registry says how many it holds of each kind, and this says
/// whether one more is admitted.
struct SessionAdmission {
  /// Why a session was not admitted.
  enum Refusal: Equatable {
    /// The registry holds ``capacity`` sessions.
    case full
    /// The address or the browser holds its budget of sessions.
    case overBudget
    /// The address has ``unclaimedPerAddress`` pages waiting for their socket.
    case busy
  }

  /// The most sessions open at once.
  let capacity: Int
  /// The most pages one address may have being drawn or waiting for their socket.
  let unclaimedPerAddress: Int
  /// The most sessions one address may hold, claimed or not.
  let sessionsPerAddress: Int
  /// The most sessions one browser may hold.
  let sessionsPerClient: Int
  /// Sessions being made.
  private(set) var making = 0
  /// Sessions being made, per address.
  private var makingByAddress: [String: Int] = [:]

  init(capacity: Int, unclaimedPerAddress: Int, sessionsPerAddress: Int, sessionsPerClient: Int) {
    self.capacity = capacity
    self.unclaimedPerAddress = max(1, unclaimedPerAddress)
    self.sessionsPerAddress = max(1, sessionsPerAddress)
    self.sessionsPerClient = max(1, sessionsPerClient)
  }

  /// Whether one more session may be made, given what the registry holds.
  ///
  /// - Parameters:
  ///   - open: The sessions the registry holds.
  ///   - heldByAddress: Those of the asking address (`nil` when it is not known).
  ///   - heldByClient: Those of the asking browser (`nil` when it has no id).
  ///   - waitingAtAddress: Those of the address whose page has not connected, for a page
  ///     load (`nil` for a session a socket rebuilds).
  ///   - address: The asking address.
  /// - Returns: Why not, or `nil` when it may.
  func refusal(
    open: Int, heldByAddress: Int?, heldByClient: Int?, waitingAtAddress: Int?,
    address: String?
  ) -> Refusal? {
    guard open + making < capacity else { return .full }
    let makingHere = address.map { makingByAddress[$0, default: 0] } ?? 0
    if let heldByAddress, heldByAddress + makingHere >= sessionsPerAddress { return .overBudget }
    if let heldByClient, heldByClient >= sessionsPerClient { return .overBudget }
    if let waitingAtAddress, waitingAtAddress + makingHere >= unclaimedPerAddress {
      return .busy
    }
    return nil
  }

  /// Counts a session being made for `address`.
  mutating func beginMaking(for address: String?) {
    making += 1
    if let address { makingByAddress[address, default: 0] += 1 }
  }

  /// The session being made for `address` is made (or failed).
  mutating func endMaking(for address: String?) {
    making = max(0, making - 1)
    guard let address else { return }
    let left = makingByAddress[address, default: 1] - 1
    makingByAddress[address] = left > 0 ? left : nil
  }
}
