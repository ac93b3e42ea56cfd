import Testing

/// Records every output of a view model and fails the test if any of them changed without an
/// assertion: the exhaustiveness of TCA's `TestStore`, for plain MVVM.
///
/// The probe finds the outputs itself: every `@Output`, `@Derived` and `@Event`, and every
/// stored `Property` or `Signal` of the view model (including `private` ones behind computed
/// accessors, the `output` of a stored pipe, and inputs such as a `MutableProperty` a field
/// writes); an `@Output` or `@Derived` named `rows` is asserted through its face, `\.$rows`.
/// Each `expect` consumes the changes of one output; when the probe is finished
/// (``finish(sourceLocation:)``, or when it is deallocated) any output with changes nobody
/// asserted fails the test, naming the output and the values:
///
/// ```swift
/// @Test func loadShowsCells() async {
///   let viewModel = PhotoListViewModel(service: .stub(photos))
///   let probe = ViewModelProbe(viewModel)
///
///   await viewModel.viewDidLoad()
///
///   probe.expect(\.$isLoading, [true, false])
///   probe.expect(\.$cells) { $0.last?.count == 20 }
/// }   // `alertMessage` changed? The test fails: "alertMessage changed without an assertion…"
/// ```
///
/// The value an output has when the probe starts is its baseline, not a change. The probe
/// records what is delivered: an `Equatable` `@Output` or `@Derived` delivers changes only, so
/// a set to the value it holds is never recorded, while a property derived with operators
/// records every delivery (end it with `skipRepeats()` to record changes only). A `@Derived`
/// output is made when the probe starts, so its first change is recorded too.
///
/// When a view model stores both `_name` and `name` (a mutable property and the read-only
/// `Property(_:)` that exposes it), `name` is the output and `_name` is left out. Stored
/// properties and signals that are internal plumbing rather than outputs can be left out by
/// name with `ignoring:`.
public final class ViewModelProbe<ViewModel: AnyObject> {
  private let viewModel: ViewModel
  private let typeName: String
  private var outputs: [ObjectIdentifier: OutputLog] = [:]
  /// Output identities in discovery order, so failures are reported in a stable order.
  private var order: [ObjectIdentifier] = []
  private let creation: SourceLocation
  private var isFinished = false

  /// Starts probing `viewModel`, recording every output it stores.
  ///
  /// - Parameters:
  ///   - viewModel: The view model under test. The probe keeps it alive.
  ///   - ignoring: Names of stored properties or signals that are not outputs (private pipes
  ///     feeding a binding, say), as the probe names them (without a leading underscore).
  ///   - sourceLocation: Where failures found at deallocation are reported.
  public init(
    _ viewModel: ViewModel, ignoring: Set<String> = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.viewModel = viewModel
    self.typeName = String(describing: ViewModel.self)
    self.creation = sourceLocation
    var found: [(label: String, value: Any)] = []
    collectChildren(of: Mirror(reflecting: viewModel), into: &found)
    let plainNames = Set(found.map(\.label).filter { !$0.hasPrefix("_") })
    for child in found {
      let name = Self.outputName(child.label)
      // `_name` beside `name`: the storage of an output exposed through `Property(_:)`.
      if child.label.hasPrefix("_"), plainNames.contains(name) { continue }
      register(child.value, name: name, ignoring: ignoring)
    }
  }

  deinit {
    if !isFinished { reportUnasserted(at: creation) }
  }

  /// The names of the outputs the probe found, in declaration order.
  public var outputNames: [String] {
    order.compactMap { outputs[$0]?.name }
  }

  /// Asserts that the property at `keyPath` changed to exactly `expected` since the last
  /// assertion on it, and consumes those changes. An input the view model stores (a
  /// `MutableProperty` a field writes, or the view model itself) is recorded and asserted too.
  ///
  /// - Parameters:
  ///   - keyPath: The output, e.g. `\.$isLoading`, or an input, e.g. `\.searchText`.
  ///   - expected: Its changes, oldest first (`[]` asserts that it did not change).
  ///   - sourceLocation: Where a failure is reported.
  public func expect<Value: Equatable, Output: Property<Value>>(
    _ keyPath: KeyPath<ViewModel, Output>,
    _ expected: [Value],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    consume(viewModel[keyPath: keyPath], sourceLocation: sourceLocation) {
      (name, changes: [Value]) in
      #expect(
        changes == expected, "\(typeName).\(name) changed to \(changes), not \(expected)",
        sourceLocation: sourceLocation)
    }
  }

  /// Asserts that the signal at `keyPath` sent exactly `expected` since the last assertion on
  /// it, and consumes those events.
  ///
  /// - Parameters:
  ///   - keyPath: The output, e.g. `\.alertMessage`.
  ///   - expected: Its events, oldest first (`[]` asserts that it sent nothing).
  ///   - sourceLocation: Where a failure is reported.
  public func expect<Value: Equatable>(
    _ keyPath: KeyPath<ViewModel, Signal<Value>>,
    _ expected: [Value],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    consume(viewModel[keyPath: keyPath], sourceLocation: sourceLocation) {
      (name, events: [Value]) in
      #expect(
        events == expected, "\(typeName).\(name) sent \(events), not \(expected)",
        sourceLocation: sourceLocation)
    }
  }

  /// Consumes the changes of the property at `keyPath` and checks them with `isValid`, for
  /// outputs whose values are not `Equatable` or are easier to check by a property.
  ///
  /// - Parameters:
  ///   - keyPath: The output.
  ///   - sourceLocation: Where a failure is reported.
  ///   - isValid: Returns `true` if the changes (oldest first) are as expected.
  public func expect<Value, Output: Property<Value>>(
    _ keyPath: KeyPath<ViewModel, Output>,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ isValid: ([Value]) -> Bool
  ) {
    consume(viewModel[keyPath: keyPath], sourceLocation: sourceLocation) {
      (name, changes: [Value]) in
      #expect(
        isValid(changes), "\(typeName).\(name) changed to \(changes)",
        sourceLocation: sourceLocation)
    }
  }

  /// Consumes the events of the signal at `keyPath` and checks them with `isValid`.
  ///
  /// - Parameters:
  ///   - keyPath: The output.
  ///   - sourceLocation: Where a failure is reported.
  ///   - isValid: Returns `true` if the events (oldest first) are as expected.
  public func expect<Value>(
    _ keyPath: KeyPath<ViewModel, Signal<Value>>,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ isValid: ([Value]) -> Bool
  ) {
    consume(viewModel[keyPath: keyPath], sourceLocation: sourceLocation) {
      (name, events: [Value]) in
      #expect(isValid(events), "\(typeName).\(name) sent \(events)", sourceLocation: sourceLocation)
    }
  }

  /// Consumes the changes of an output without checking them, for outputs a test does not
  /// care about.
  ///
  /// - Parameters:
  ///   - keyPath: The output to skip.
  ///   - sourceLocation: Where a failure is reported if the output is not stored.
  public func skip<Output: AnyObject>(
    _ keyPath: KeyPath<ViewModel, Output>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let log = log(for: viewModel[keyPath: keyPath], sourceLocation: sourceLocation) else {
      return
    }
    log.changes.removeAll()
  }

  /// Fails the test for every output with changes that no assertion consumed. Called by
  /// `deinit` if the test does not call it.
  ///
  /// - Parameter sourceLocation: Where the failures are reported.
  public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
    isFinished = true
    reportUnasserted(at: sourceLocation)
  }

  private func reportUnasserted(at sourceLocation: SourceLocation) {
    for id in order {
      guard let log = outputs[id], !log.changes.isEmpty else { continue }
      let verb = log.isSignal ? "sent" : "changed to"
      Issue.record(
        "\(typeName).\(log.name) \(verb) \(log.changes) without an assertion",
        sourceLocation: sourceLocation)
      log.changes.removeAll()
    }
  }

  private func consume<Value>(
    _ output: AnyObject,
    sourceLocation: SourceLocation,
    check: (String, [Value]) -> Void
  ) {
    guard let log = log(for: output, sourceLocation: sourceLocation) else { return }
    let changes = log.changes.compactMap { $0 as? Value }
    log.changes.removeAll()
    check(log.name, changes)
  }

  private func log(for output: AnyObject, sourceLocation: SourceLocation) -> OutputLog? {
    if let log = outputs[ObjectIdentifier(output)] { return log }
    Issue.record(
      """
      This output of \(typeName) is not a stored property, so the probe cannot have recorded it. \
      Store derived outputs (`let title = name.map { … }`) instead of computing a new one on \
      each access.
      """,
      sourceLocation: sourceLocation)
    return nil
  }

  private func collectChildren(of mirror: Mirror, into found: inout [(label: String, value: Any)]) {
    if let superclass = mirror.superclassMirror { collectChildren(of: superclass, into: &found) }
    for child in mirror.children {
      guard let label = child.label else { continue }
      found.append((label, child.value))
    }
  }

  private func register(_ value: Any, name: String, ignoring: Set<String>) {
    if ignoring.contains(name) { return }
    if let output = value as? any RecordableOutput {
      let id = ObjectIdentifier(output)
      guard outputs[id] == nil else { return }
      outputs[id] = output.startLog(name: name)
      order.append(id)
      return
    }
    // An `@Output` stores its read-only face, an `@Event` its signal.
    if let wrapper = value as? any WrappedOutput {
      register(wrapper.face, name: name, ignoring: ignoring)
      return
    }
    // A `@Derived` output is made on its first read: made now, so its first change is one.
    if let derived = value as? any DerivedOutput {
      if let face = derived.face(of: viewModel) { register(face, name: name, ignoring: ignoring) }
      return
    }
    // Optionals (`lazy` storage) and tuples (stored pipes) hold outputs one level down.
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      if let wrapped = mirror.children.first {
        register(wrapped.value, name: name, ignoring: ignoring)
      }
    case .tuple:
      for element in mirror.children {
        let elementName = element.label.map { "\(name).\($0)" } ?? name
        register(element.value, name: elementName, ignoring: ignoring)
      }
    default:
      break
    }
  }

  /// `_isLoading` → `isLoading`; `$__lazy_storage_$_cells` → `cells`.
  private static func outputName(_ label: String) -> String {
    var name = Substring(label)
    if name.hasPrefix("$__lazy_storage_$_") { name = name.dropFirst("$__lazy_storage_$_".count) }
    while name.hasPrefix("_") { name = name.dropFirst() }
    return String(name)
  }
}

/// The recorded, not yet asserted changes of one output.
private final class OutputLog {
  let name: String
  let isSignal: Bool
  var changes: [Any] = []
  var token: ObservationToken?

  init(name: String, isSignal: Bool) {
    self.name = name
    self.isSignal = isSignal
  }
}

/// An `@Output` or `@Event` wrapper, as the view model's `Mirror` shows its storage (`_rows`).
private protocol WrappedOutput {
  var face: AnyObject { get }
}

extension Output: WrappedOutput {
  fileprivate var face: AnyObject { projectedValue }
}

extension Event: WrappedOutput {
  fileprivate var face: AnyObject { wrappedValue }
}

/// A `@Derived` wrapper, which makes its property from the view model.
private protocol DerivedOutput {
  func face(of owner: AnyObject) -> AnyObject?
}

extension Derived: DerivedOutput {}

/// A Tether output the probe can record without knowing its value type.
private protocol RecordableOutput: AnyObject {
  func startLog(name: String) -> OutputLog
}

extension Property: RecordableOutput {
  fileprivate func startLog(name: String) -> OutputLog {
    let log = OutputLog(name: name, isSignal: false)
    var isBaseline = true
    log.token = observe { [weak log] value in
      // The replayed current value is the baseline, not a change.
      if isBaseline { return }
      log?.changes.append(value)
    }
    isBaseline = false
    return log
  }
}

extension Signal: RecordableOutput {
  fileprivate func startLog(name: String) -> OutputLog {
    let log = OutputLog(name: name, isSignal: true)
    log.token = observe { [weak log] value in log?.changes.append(value) }
    return log
  }
}
