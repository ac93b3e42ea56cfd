import Tether

/// Chains of derived properties whose observers and transforms set, cancel and free parts of
/// the chain from inside its own deliveries.
///
/// Stages reach their targets and observers unretained, so what keeps a delivery sound is a
/// set of lifetime rules (see Tether's `ObserverList`). The fuzz build runs optimized and under
/// AddressSanitizer, so a delivery that touches anything freed stops the run, wherever it is.
///
/// Input: a program, one operation per two bytes (an opcode, an operand): set the root, make a
/// stage (`map`, `combineLatest`, `skipRepeats`, or a `map` whose transform frees a stage),
/// observe a stage with a reaction (free a stage, drop a token, set the root again), drop a
/// token, free a stage.
/// Properties:
/// - an observer whose token was dropped is never called again;
/// - when a set returns, every live observer last heard its property's current value.
enum DeliveryProperties {
  /// The app's side of one observation: what it heard, and the token it holds.
  final class Record {
    weak var property: Property<Int>?
    var token: ObservationToken?
    var dropped = false
    var last: Int?
  }

  /// The program's state: a root, stage slots, observation slots.
  final class World {
    let root = MutableProperty(0)
    var stages: [Property<Int>?] = Array(repeating: nil, count: 6)
    var records: [Record?] = Array(repeating: nil, count: 8)
    var violation: String?
    /// Re-entrant sets left: a reaction that sets the root on every call would never end.
    var setsLeft = 24

    func stage(_ operand: UInt8) -> Property<Int> {
      stages[Int(operand) % stages.count] ?? root
    }

    func freeStage(_ operand: UInt8) {
      stages[Int(operand) % stages.count] = nil
    }

    func dropToken(_ operand: UInt8) {
      let slot = Int(operand) % records.count
      guard let record = records[slot] else { return }
      record.dropped = true
      record.token = nil
      records[slot] = nil
    }

    func react(_ reaction: UInt8, to value: Int) {
      switch reaction % 4 {
      case 0: freeStage(reaction >> 2)
      case 1: dropToken(reaction >> 2)
      case 2:
        if setsLeft > 0 {
          setsLeft -= 1
          root.value = value &+ Int(reaction >> 2)
        }
      default: break
      }
    }
  }

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    let world = World()
    var index = 0
    while index + 1 < input.count {
      let (opcode, operand) = (input[index], input[index + 1])
      index += 2
      run(opcode, operand, in: world)
      if let violation = world.violation { throw PropertyViolation(violation) }
      for case let record? in world.records where !record.dropped {
        guard let property = record.property else {
          throw PropertyViolation("a live observation's property was freed")
        }
        try require(
          record.last == property.value,
          "an observer last heard \(String(describing: record.last)), not \(property.value)")
      }
    }
  }

  private static func run(_ opcode: UInt8, _ operand: UInt8, in world: World) {
    let slot = Int(operand >> 4) % world.stages.count
    switch opcode % 8 {
    case 0, 1:
      world.root.value = Int(operand)
    case 2:
      let step = Int(operand & 0x0F)
      world.stages[slot] = world.stage(operand).map { $0 &+ step }
    case 3:
      let other = world.stage(operand &+ 1)
      world.stages[slot] = world.stage(operand).combineLatest(with: other).map { $0 &+ $1 }
    case 4:
      world.stages[slot] = world.stage(operand).map { $0 / 2 }.skipRepeats()
    case 5:
      world.stages[slot] = world.stage(operand).map { [weak world] value in
        world?.freeStage(operand &+ UInt8(truncatingIfNeeded: value))
        return value &* 3
      }
    case 6:
      observe(world.stage(operand), reaction: operand, in: world)
    default:
      if operand & 1 == 0 { world.dropToken(operand >> 1) } else { world.freeStage(operand >> 1) }
    }
  }

  private static func observe(_ property: Property<Int>, reaction: UInt8, in world: World) {
    let record = Record()
    record.property = property
    record.token = property.observe { [weak world, weak record] value in
      guard let world else { return }
      guard let record, !record.dropped else {
        world.violation = "an observer was called after its token was dropped"
        return
      }
      record.last = value
      world.react(reaction, to: value)
    }
    let slot = Int(reaction) % world.records.count
    world.dropToken(UInt8(slot))
    world.records[slot] = record
  }
}
