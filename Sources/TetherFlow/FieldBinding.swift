import Tether

/// Binds a field a person edits — a text field, a checkbox — to a view model's writable state,
/// both ways and with no echo. Every view layer uses it; the rule is one.
///
/// - **The view writes edits**: ``userEdited(_:sequence:madeOn:)`` sets the state. Each edit is
///   numbered by the field, in the order the person made them; an edit that arrives after a
///   newer one (a late or repeated message) is ignored.
/// - **The model's changes reach the view**: ``updates`` sends each value the model sets on
///   purpose — a field cleared after submit, a title trimmed — with the number of the newest
///   edit the model had seen when it set it.
/// - **No echo**: setting the state to the value the person just typed sends nothing back, so
///   the field is never rewritten under the person's fingers. And a field whose person has
///   typed since the model made its change ignores that change
///   (``FieldUpdate/applies(toFieldAt:)``): newer typing is never overwritten, however slow
///   the round trip.
/// - **No stale write**: a field bound to data others change too (a checkbox on a shared list)
///   names the ``version`` it showed when the person made the edit
///   (``userEdited(_:sequence:madeOn:)``). Every change the model makes moves the version on,
///   so an edit made on a value that has changed since — another tab unticked the box while
///   this page was away — is refused, and the field is told the model's value instead.
///
/// ```swift
/// let title = MutableProperty("")
/// let binding = FieldBinding(title)
/// let token = binding.updates.observe { update in
///   if update.applies(toFieldAt: field.sequence) { field.text = update.value }
/// }
/// binding.userEdited("Buy milk", sequence: 1)  // title.value == "Buy milk"; no update
/// title.value = ""  // update: "" after edit 1
/// ```
@MainActor
public final class FieldBinding<Value: Equatable> {
  /// The state the field shows.
  public let state: Property<Value>
  /// Writes an edit to the state.
  private let write: @MainActor (Value) -> Void
  /// The number of the newest edit applied; 0 before the first.
  public private(set) var sequence = 0
  /// The version of the value the field shows: it moves on with every change the model makes
  /// (not with the person's own edits). It starts at a random number in
  /// 1...2³⁰ and stays in 1...``maximumVersion``, so a binding made afresh (a session rebuilt
  /// on another server) refuses an edit made on another binding's version.
  public private(set) var version: Int
  /// The largest ``version``: 2³¹ − 1, the largest number a page sends.
  public static var maximumVersion: Int { Int(Int32.max) }
  private var shown: Value
  private let pipe = Signal<FieldUpdate<Value>>.pipe()
  private var writing: Value?
  private var token: ObservationToken?

  /// The model's own changes to the state, for the field to show: never the echo of an edit.
  public var updates: Signal<FieldUpdate<Value>> { pipe.output }

  /// The value the field should show now, with the newest edit the model had seen.
  public var current: FieldUpdate<Value> { FieldUpdate(value: state.value, acknowledged: sequence) }

  /// Binds a field to `state`.
  ///
  /// - Parameter state: The view model's writable state: the field shows it and writes it.
  public convenience init(_ state: MutableProperty<Value>) {
    self.init(state) { value in state.value = value }
  }

  /// Binds a field to a value the view model derives, and to the input that changes it: a
  /// list row's checkbox shows the row's flag and sends each tick to the view model, which
  /// changes the list (and so the flag).
  ///
  /// - Parameters:
  ///   - value: What the field shows.
  ///   - set: Applies an edit: the view model's input.
  public init(_ value: Property<Value>, set: @escaping @MainActor (Value) -> Void) {
    self.state = value
    self.write = set
    shown = value.value
    version = Int.random(in: 1...(1 << 30))
    var replayed = false
    token = state.observe { [weak self] value in
      // The first call replays the value the field starts from: not a change.
      guard replayed else {
        replayed = true
        return
      }
      self?.modelSet(value)
    }
  }

  /// The person changed the field: sets the state, unless a newer edit was already applied
  /// or the edit was made on a value the model has changed since.
  ///
  /// - Parameters:
  ///   - value: The field's value after the edit.
  ///   - sequence: The edit's number: increasing with each edit of this field.
  ///   - version: The ``version`` the field showed when the edit was made, for a field bound
  ///     to data others change too; `nil` for a field whose value is the person's own (text
  ///     being typed), which no one else writes.
  /// - Returns: Whether the edit was applied: `false` for one older than the newest applied,
  ///   or one made on an older version (the field is then told the model's value).
  @discardableResult
  public func userEdited(_ value: Value, sequence: Int, madeOn version: Int? = nil) -> Bool {
    guard sequence > self.sequence else { return false }
    self.sequence = sequence
    if let version, version != self.version {
      // Made on a value that has changed since: the model's value stands, and goes to the
      // field as an update after this edit.
      pipe.input.send(FieldUpdate(value: state.value, acknowledged: sequence))
      return false
    }
    writing = value
    defer { writing = nil }
    shown = value
    write(value)
    return true
  }

  private func modelSet(_ value: Value) {
    // The edit itself, coming back through the state: the field already shows it.
    if let writing, writing == value { return }
    if value != shown {
      shown = value
      version = version >= Self.maximumVersion ? 1 : version + 1
    }
    pipe.input.send(FieldUpdate(value: value, acknowledged: sequence))
  }
}

/// A change the model made to a bound field's value; see ``FieldBinding``.
public struct FieldUpdate<Value> {
  /// The value to show.
  public var value: Value
  /// The number of the newest edit of the field the model had seen when it made the change.
  public var acknowledged: Int

  /// Creates an update.
  ///
  /// - Parameters:
  ///   - value: The value to show.
  ///   - acknowledged: The newest edit the model had seen.
  public init(value: Value, acknowledged: Int) {
    self.value = value
    self.acknowledged = acknowledged
  }

  /// Whether a field whose newest edit is number `sequence` shows this update: only when the
  /// model had seen every edit the field made. A field with newer typing keeps it.
  ///
  /// - Parameter sequence: The number of the field's newest edit (0 before the first).
  /// - Returns: Whether to show ``value``.
  public func applies(toFieldAt sequence: Int) -> Bool { sequence <= acknowledged }
}

extension FieldUpdate: Equatable where Value: Equatable {}
extension FieldUpdate: Sendable where Value: Sendable {}
