import Observation
import OpenCombine
import Tether

/// Where every competitor's observer puts what it sees, so no work can be optimized away.
final class Sink {
  var total = 0
  /// Re-runs seen, for scenarios that wait until every expected one has happened.
  var runs = 0
}

// MARK: - Hand-written (seed 000's binding: `didSet` + closure)

final class HandwrittenValue {
  var onChange: ((Int) -> Void)?
  var value = 0 {
    didSet { onChange?(value) }
  }
}

/// `HandwrittenValue` that, as an `Equatable` `@Output` does, calls its closure only for a set
/// that changes the value.
final class HandwrittenDistinctValue {
  var onChange: ((Int) -> Void)?
  var value = 0 {
    didSet { if value != oldValue { onChange?(value) } }
  }
}

final class HandwrittenMulticast {
  var observers: [(Int) -> Void] = []
  var value = 0 {
    didSet {
      // Read once, as anyone writing this by hand for speed would: `self.value` in the loop
      // is a class property access (with its exclusivity check) per observer.
      let value = value
      for observer in observers { observer(value) }
    }
  }
}

/// `value` → `doubled` → `plusOne` → closure, each stage stored, like two derived properties.
final class HandwrittenMapChain {
  var onChange: ((Int) -> Void)?
  private(set) var plusOne = 1 {
    didSet { onChange?(plusOne) }
  }
  private(set) var doubled = 0 {
    didSet { plusOne = doubled + 1 }
  }
  var value = 0 {
    didSet { doubled = value * 2 }
  }
}

/// Two stored sources and their stored combination, notified on either change.
final class HandwrittenCombine {
  var onChange: (((Int, Int)) -> Void)?
  private(set) var pair = (0, 0) {
    didSet { onChange?(pair) }
  }
  var first = 0 {
    didSet { pair = (first, second) }
  }
  var second = 0 {
    didSet { pair = (first, second) }
  }
}

// MARK: - OpenCombine

final class PublishedModel {
  @OpenCombine.Published var value = 0
}

// MARK: - Tether's own outputs

/// A view model's output, set as a view model sets it: an `Equatable` `@Output` compares the
/// new value with the one it holds before it delivers.
@MainActor
final class OutputModel {
  @Output private(set) var value = 0

  func set(_ newValue: Int) { value = newValue }
}

// MARK: - Observation

@Observable
final class ObservableModel {
  var value = 0
}

/// The Observation way to observe continuously: re-register after every change, on the next
/// turn of the main actor (onChange fires in `willSet`, before the new value is readable).
@MainActor
final class ObservationReRegistration {
  let model: ObservableModel
  let sink: Sink

  init(model: ObservableModel, sink: Sink) {
    self.model = model
    self.sink = sink
    register()
  }

  func register() {
    withObservationTracking {
      sink.total &+= model.value
      sink.runs += 1
    } onChange: { [weak self] in
      Task { @MainActor in self?.register() }
    }
  }
}
