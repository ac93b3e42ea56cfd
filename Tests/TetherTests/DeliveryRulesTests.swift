import Testing
import TetherTesting

@testable import Tether

/// The delivery rules, checked against a reference model that implements them in the most
/// literal way: every send takes a snapshot of the observers that exist at that moment, sends
/// are delivered first in, first out, and a cancelled observer is skipped when its turn comes.
@MainActor
@Suite struct DeliveryRulesTests {
  // MARK: - The rules, one example each

  @Test func propertyObserverAddedDuringADeliveryDoesNotSeeThePast() {
    let property = MutableProperty(0)
    var late: [Int] = []
    var tokens: [ObservationToken] = []
    tokens.append(property.observe(sendingTwoAndThree { property.value = $0 }))
    tokens.append(
      property.observe {
        if $0 == 1 { tokens.append(property.observe { late.append($0) }) }
      })
    property.value = 1
    #expect(late == [3])
    property.value = 4
    #expect(late == [3, 4])
  }

  /// A derived stage's only owner is the token of its one observer, which drops it during the
  /// delivery: each stage keeps itself alive for the delivery it is in, so the chain finishes
  /// it and is then freed.
  @Test func aChainReleasedByItsOwnObserverFinishesTheDeliveryItIsIn() {
    let source = MutableProperty(0)
    final class Holder { var token: ObservationToken? }
    let holder = Holder()
    var seen: [Int] = []
    holder.token = source.map { $0 + 1 }.map { $0 * 2 }.observe { value in
      seen.append(value)
      if value > 2 { holder.token = nil }
    }
    source.value = 1
    source.value = 2
    #expect(seen == [2, 4])
    #expect(source.observerCount == 0)
  }

  @Test func signalObserverAddedDuringADeliveryGetsNothingSentBefore() {
    let (signal, input) = Signal<Int>.pipe()
    var late: [Int] = []
    var tokens: [ObservationToken] = []
    tokens.append(signal.observe(sendingTwoAndThree(input.send)))
    tokens.append(
      signal.observe {
        if $0 == 1 { tokens.append(signal.observe { late.append($0) }) }
      })
    input.send(1)
    #expect(late == [])
    input.send(4)
    #expect(late == [4])
  }

  @Test func operatorsBuiltDuringADeliveryDoNotSeeThePast() {
    let property = MutableProperty(0)
    let other = MutableProperty(10)
    var mapped: [Int] = []
    var combined: [Int] = []
    var bound: [Int] = []
    let target = MutableProperty(-1)
    var tokens: [ObservationToken] = []
    tokens.append(property.observe(sendingTwoAndThree { property.value = $0 }))
    tokens.append(
      property.observe {
        guard $0 == 1 else { return }
        tokens.append(property.map { $0 * 10 }.observe { mapped.append($0) })
        tokens.append(
          property.combineLatest(with: other).map { $0 + $1 }.observe { combined.append($0) })
        target <~ property
        tokens.append(target.observe { bound.append($0) })
      })
    property.value = 1
    #expect(mapped == [30])
    #expect(combined == [13])
    #expect(bound == [3])
  }

  /// An observer that, on receiving 1, sends 2 and then 3 through `send` (queued behind the
  /// delivery of 1).
  private func sendingTwoAndThree(_ send: @escaping (Int) -> Void) -> (Int) -> Void {
    { value in
      if value == 1 {
        send(2)
        send(3)
      }
    }
  }

  // MARK: - Randomized: thousands of interleavings against the reference model

  @Test(arguments: [SubjectKind.property, .signal])
  func randomInterleavingsMatchTheReferenceModel(kind: SubjectKind) {
    var interleavingsWithLateObservers = 0
    for seed in UInt64(1)...2_000 {
      let reference = Script(seed: seed, kind: kind, subject: ReferenceSubject(kind: kind))
      reference.run()
      let tether = Script(seed: seed, kind: kind, subject: TetherSubject(kind: kind))
      tether.run()
      #expect(
        tether.received == reference.received,
        "seed \(seed): Tether delivered \(tether.received), the rules say \(reference.received)")
      if tether.received != reference.received { return }
      if reference.addedDuringDelivery > 0 { interleavingsWithLateObservers += 1 }
    }
    // The scripts must actually exercise the rule under test.
    #expect(interleavingsWithLateObservers > 500)
  }
}

enum SubjectKind: String, CustomTestStringConvertible, Sendable {
  case property, signal
  var testDescription: String { rawValue }
}

/// How a script's observer subscribes: directly, or through an operator built in a callout.
enum ObserverShape: CaseIterable {
  case direct, map, combineLatest, binding
}

/// What a script can do to a subject under test.
@MainActor
protocol DeliverySubject: AnyObject {
  func send(_ value: Int)
  /// Subscribes `action` and returns what cancels it.
  func subscribe(_ shape: ObserverShape, _ action: @escaping (Int) -> Void) -> () -> Void
  var isDelivering: Bool { get }
}

/// A deterministic program of sends, subscriptions and cancellations made from inside
/// callouts. Every decision depends only on the seed, the observer and what it has received so
/// far, so two subjects that deliver the same sequences make the same decisions.
@MainActor
final class Script {
  private let seed: UInt64
  private let kind: SubjectKind
  private let subject: any DeliverySubject
  private var cancels: [() -> Void] = []
  private(set) var received: [[Int]] = []
  private(set) var addedDuringDelivery = 0
  private var nextValue = 100
  private var sendsLeft = 40
  private var observersLeft = 14

  init(seed: UInt64, kind: SubjectKind, subject: any DeliverySubject) {
    self.seed = seed
    self.kind = kind
    self.subject = subject
  }

  func run() {
    addObserver(shape: .direct)
    addObserver(shape: .direct)
    for _ in 0..<3 { send() }
    // Cancelled observers must have been dropped by the subject: nothing more reaches them.
    for cancel in cancels { cancel() }
    send()
  }

  private func send() {
    guard sendsLeft > 0 else { return }
    sendsLeft -= 1
    nextValue += 1
    subject.send(nextValue)
  }

  private func addObserver(shape: ObserverShape) {
    guard observersLeft > 0 else { return }
    observersLeft -= 1
    if subject.isDelivering { addedDuringDelivery += 1 }
    let id = received.count
    received.append([])
    cancels.append({})
    let cancel = subject.subscribe(shape) { [unowned self] value in
      received[id].append(value)
      react(observer: id, to: value)
    }
    cancels[id] = cancel
  }

  private func react(observer id: Int, to value: Int) {
    var random = SeededRandomNumberGenerator(
      seed: seed &* 0x9E37_79B9 ^ UInt64(id) &* 0x85EB_CA6B ^ UInt64(received[id].count) << 32
        ^ UInt64(value))
    for _ in 0..<Int(random.next() % 3) {
      switch random.next() % 8 {
      case 0, 1, 2:
        send()
      case 3, 4:
        let shapes = ObserverShape.allCases
        addObserver(shape: shapes[Int(random.next() % UInt64(shapes.count))])
      default:
        let victim = Int(random.next() % UInt64(received.count))
        cancels[victim]()
      }
    }
  }
}

/// The rules as plainly as they can be written.
@MainActor
final class ReferenceSubject: DeliverySubject {
  private struct Observer {
    var isLive = true
    let action: (Int) -> Void
  }
  private let replaysCurrentValue: Bool
  private var current = 0
  private var observers: [Observer] = []
  private var queue: [(value: Int, recipients: Range<Int>)] = []
  private(set) var isDelivering = false

  init(kind: SubjectKind) {
    replaysCurrentValue = kind == .property
  }

  func send(_ value: Int) {
    current = value
    queue.append((value, observers.indices))
    drain()
  }

  func subscribe(_ shape: ObserverShape, _ action: @escaping (Int) -> Void) -> () -> Void {
    let index = observers.count
    observers.append(Observer(action: action))
    if replaysCurrentValue {
      if isDelivering {
        action(current)
      } else {
        isDelivering = true
        action(current)
        isDelivering = false
        drain()
      }
    }
    return { [unowned self] in observers[index].isLive = false }
  }

  private func drain() {
    guard !isDelivering else { return }
    isDelivering = true
    while !queue.isEmpty {
      let (value, recipients) = queue.removeFirst()
      for index in recipients where observers[index].isLive {
        observers[index].action(value)
      }
    }
    isDelivering = false
  }
}

/// Tether's `MutableProperty` or `Signal`, observed directly or through operators.
@MainActor
final class TetherSubject: DeliverySubject {
  private let property = MutableProperty(0)
  private let pipe = Signal<Int>.pipe()
  private let kind: SubjectKind
  private let constant = MutableProperty(0)
  private var targets: [MutableProperty<Int>] = []
  private var depth = 0

  init(kind: SubjectKind) {
    self.kind = kind
  }

  var isDelivering: Bool { depth > 0 }

  func send(_ value: Int) {
    switch kind {
    case .property: property.value = value
    case .signal: pipe.input.send(value)
    }
  }

  func subscribe(_ shape: ObserverShape, _ action: @escaping (Int) -> Void) -> () -> Void {
    let counted: (Int) -> Void = { [unowned self] value in
      depth += 1
      action(value)
      depth -= 1
    }
    let token: ObservationToken
    switch (kind, shape) {
    case (.property, .direct):
      token = property.observe(counted)
    case (.property, .map):
      token = property.map { $0 }.observe(counted)
    case (.property, .combineLatest):
      token = property.combineLatest(with: constant).map { $0.0 }.observe(counted)
    case (.property, .binding):
      let target = MutableProperty(-1)
      targets.append(target)
      target <~ property
      token = target.observe(counted)
    case (.signal, .direct):
      token = pipe.output.observe(counted)
    case (.signal, .map):
      token = pipe.output.map { $0 }.observe(counted)
    case (.signal, .combineLatest):
      token = pipe.output.filter { _ in true }.observe(counted)
    case (.signal, .binding):
      token = pipe.output.compactMap { $0 }.observe(counted)
    }
    return { token.cancel() }
  }
}
