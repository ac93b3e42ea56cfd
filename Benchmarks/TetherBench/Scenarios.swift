import Observation
import OpenCombine
import Tether

@MainActor
func runS1(_ bench: Bench) {
  let scenario = "S1 set, 1 observer"
  do {
    let sink = Sink()
    let value = HandwrittenValue()
    value.onChange = { sink.total &+= $0 }
    bench.measure(scenario, "hand-written didSet + closure", baseline: true) { n in
      for i in 0..<n { value.value = i }
    }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let value = HandwrittenDistinctValue()
    value.onChange = { sink.total &+= $0 }
    bench.measure(scenario, "hand-written didSet + closure, comparing (as @Output does)") { n in
      for i in 0..<n { value.value = i }
    }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let property = MutableProperty(0)
    let token = property.observe { sink.total &+= $0 }
    bench.measure(scenario, "Tether MutableProperty") { n in
      for i in 0..<n { property.value = i }
    }
    token.cancel()
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let model = OutputModel()
    let token = model.$value.observe { sink.total &+= $0 }
    bench.measure(scenario, "Tether @Output (Equatable: compared, then delivered)") { n in
      for i in 0..<n { model.set(i) }
    }
    token.cancel()
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellable = subject.sink { sink.total &+= $0 }
    bench.measure(scenario, "OpenCombine CurrentValueSubject") { n in
      for i in 0..<n { subject.send(i) }
    }
    cancellable.cancel()
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let model = PublishedModel()
    let cancellable = model.$value.sink { sink.total &+= $0 }
    bench.measure(scenario, "OpenCombine @Published") { n in
      for i in 0..<n { model.value = i }
    }
    cancellable.cancel()
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let model = ObservableModel()
    bench.measure(
      scenario, "Observation (set + re-register)", note: "onChange is one-shot"
    ) { n in
      for i in 0..<n {
        withObservationTracking {
          sink.total &+= model.value
        } onChange: {
        }
        model.value = i
      }
    }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let property = MutableProperty(0)
    bench.measure(
      scenario, "Tether (set + re-register)", note: "the gate open on every set"
    ) { n in
      for i in 0..<n {
        withObservationTracking {
          sink.total &+= property.value
        } onChange: {
        }
        property.value = i
      }
    }
    bench.checksum &+= sink.total
  }
}

@MainActor
func runS2(_ bench: Bench, observers count: Int) {
  let scenario = "S2 set, \(count) observers"
  do {
    let sink = Sink()
    let value = HandwrittenMulticast()
    // Made in a `map` closure, exactly as the Tether observers below are: a closure written
    // directly in this main-actor function is main-actor isolated, and stored as a plain
    // `(Int) -> Void` it checks the executor on every call (callgrind: two
    // `swift_task_isCurrentExecutor` calls per observer per set), a cost no competitor's
    // observers pay.
    value.observers = (0..<count).map { _ in { sink.total &+= $0 } }
    bench.measure(scenario, "hand-written closure array", baseline: true) { n in
      for i in 0..<n { value.value = i }
    }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let property = MutableProperty(0)
    let tokens = (0..<count).map { _ in property.observe { sink.total &+= $0 } }
    bench.measure(scenario, "Tether MutableProperty") { n in
      for i in 0..<n { property.value = i }
    }
    tokens.forEach { $0.cancel() }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellables = (0..<count).map { _ in subject.sink { sink.total &+= $0 } }
    bench.measure(scenario, "OpenCombine CurrentValueSubject") { n in
      for i in 0..<n { subject.send(i) }
    }
    cancellables.forEach { $0.cancel() }
    bench.checksum &+= sink.total
  }
}

/// Subscribe then cancel one observer, with `existing` observers already attached. Every
/// competitor delivers the current value to the new observer once (Tether and
/// `CurrentValueSubject` replay it), so the baseline calls the closure once too.
@MainActor
func runS3(_ bench: Bench, existing: Int) {
  let scenario = "S3 subscribe+cancel, \(existing) live"
  do {
    let sink = Sink()
    let value = HandwrittenMulticast()
    for _ in 0..<existing { value.observers.append { sink.total &+= $0 } }
    bench.measure(scenario, "hand-written array append+remove", baseline: true) { n in
      for _ in 0..<n {
        let observer: (Int) -> Void = { sink.total &+= $0 }
        value.observers.append(observer)
        observer(value.value)
        value.observers.removeLast()
      }
    }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let property = MutableProperty(1)
    let tokens = (0..<existing).map { _ in property.observe { sink.total &+= $0 } }
    bench.measure(scenario, "Tether observe + cancel") { n in
      for _ in 0..<n {
        let token = property.observe { sink.total &+= $0 }
        token.cancel()
      }
    }
    tokens.forEach { $0.cancel() }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let subject = CurrentValueSubject<Int, Never>(1)
    let cancellables = (0..<existing).map { _ in subject.sink { sink.total &+= $0 } }
    bench.measure(scenario, "OpenCombine sink + cancel") { n in
      for _ in 0..<n {
        let cancellable = subject.sink { sink.total &+= $0 }
        cancellable.cancel()
      }
    }
    cancellables.forEach { $0.cancel() }
    bench.checksum &+= sink.total
  }
}

@MainActor
func runS4(_ bench: Bench) {
  let scenario = "S4 map -> map -> observer"
  do {
    let sink = Sink()
    let chain = HandwrittenMapChain()
    chain.onChange = { sink.total &+= $0 }
    bench.measure(scenario, "hand-written didSet chain", baseline: true) { n in
      for i in 0..<n { chain.value = i }
    }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let property = MutableProperty(0)
    let token = property.map { $0 * 2 }.map { $0 + 1 }.observe { sink.total &+= $0 }
    bench.measure(scenario, "Tether map.map.observe") { n in
      for i in 0..<n { property.value = i }
    }
    token.cancel()
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellable = subject.map { $0 * 2 }.map { $0 + 1 }.sink { sink.total &+= $0 }
    bench.measure(scenario, "OpenCombine map.map.sink") { n in
      for i in 0..<n { subject.send(i) }
    }
    cancellable.cancel()
    bench.checksum &+= sink.total
  }
}

@MainActor
func runS5(_ bench: Bench) {
  let scenario = "S5 combineLatest, set one side"
  do {
    let sink = Sink()
    let combined = HandwrittenCombine()
    combined.onChange = { sink.total &+= $0.0 &+ $0.1 }
    bench.measure(scenario, "hand-written didSet pair", baseline: true) { n in
      for i in 0..<n {
        if i & 1 == 0 { combined.first = i } else { combined.second = i }
      }
    }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let first = MutableProperty(0)
    let second = MutableProperty(0)
    let token = first.combineLatest(with: second).observe { sink.total &+= $0.0 &+ $0.1 }
    bench.measure(scenario, "Tether combineLatest(with:)") { n in
      for i in 0..<n {
        if i & 1 == 0 { first.value = i } else { second.value = i }
      }
    }
    token.cancel()
    bench.checksum &+= sink.total
  }
  print("  (OpenCombine 0.14 has no combineLatest operator: no OpenCombine figure for S5)")
}

/// Heap bytes one subscription holds, per subscription, `count` of them on one source.
///
/// Every repetition builds a fresh source, so the observer list's growth is paid in every
/// repetition (a reused source keeps its list's capacity after cancellation, and later
/// repetitions would not pay for it). Counted: the source's observer storage, the token or
/// cancellable, and the array the benchmark keeps them in; heap blocks glibc maps on their own
/// are counted too.
@MainActor
func runS6(_ bench: Bench, count: Int = 100_000) {
  let scenario = "S6 bytes per subscription"
  guard allocatedBytes() != nil else {
    print("\(scenario): not measured (needs glibc mallinfo2)")
    return
  }
  let sink = Sink()
  bench.record(
    scenario, "hand-written closure array", baseline: true,
    samples: bytesPerItem(count, repetitions: bench.repetitions) {
      let value = HandwrittenMulticast()
      return { for _ in 0..<count { value.observers.append { sink.total &+= $0 } } }
    }, unit: "bytes", note: "a fresh source each repetition")
  bench.record(
    scenario, "Tether observe (token kept)",
    samples: bytesPerItem(count, repetitions: bench.repetitions) {
      let property = MutableProperty(0)
      var tokens: [ObservationToken] = []
      return {
        for _ in 0..<count { tokens.append(property.observe { sink.total &+= $0 }) }
        withExtendedLifetime(tokens) {}
      }
    }, unit: "bytes")
  bench.record(
    scenario, "OpenCombine sink (AnyCancellable kept)",
    samples: bytesPerItem(count, repetitions: bench.repetitions) {
      let subject = CurrentValueSubject<Int, Never>(0)
      var cancellables: [AnyCancellable] = []
      return {
        for _ in 0..<count { cancellables.append(subject.sink { sink.total &+= $0 }) }
        withExtendedLifetime(cancellables) {}
      }
    }, unit: "bytes")
  bench.checksum &+= sink.total
}

/// Heap bytes per item that `work` leaves allocated, measured `repetitions` times.
///
/// `prepare` runs outside the measurement and returns the work; what the work allocates is
/// counted while everything `prepare` made is still alive, then all of it is freed before the
/// next repetition, which prepares afresh.
@MainActor
func bytesPerItem(
  _ count: Int, repetitions: Int, _ prepare: () -> () -> Void
) -> [Double] {
  (0..<repetitions).map { _ in
    let work = prepare()
    let before = allocatedBytes() ?? 0
    work()
    let after = allocatedBytes() ?? 0
    withExtendedLifetime(work) {}
    return Double(after - before) / Double(count)
  }
}

/// What users pay for `observe { }` re-runs: 1,000 live observations, each reading its own
/// value, all changed in one turn of the main actor, then one await; the figure is per re-run.
///
/// Every set changes the value: `@Observable` does not notify a set to an equal value.
///
/// The baseline is Observation's own way to observe continuously: 1,000
/// `withObservationTracking` closures, each re-registering from a task its `onChange` starts.
@MainActor
func runS7(_ bench: Bench, observations count: Int = 1_000) async {
  let scenario = "S7 re-run, \(count) changed per turn"
  do {
    let sink = Sink()
    let models = (0..<count).map { _ in ObservableModel() }
    let observers = models.map { ObservationReRegistration(model: $0, sink: sink) }
    await bench.measureAsync(
      scenario, "withObservationTracking re-register", baseline: true, perRound: count
    ) { rounds in
      for _ in 0..<rounds {
        let expected = sink.runs + count
        for model in models { model.value &+= 1 }
        while sink.runs < expected { await Task.yield() }
      }
    }
    withExtendedLifetime(observers) {}
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let properties = (0..<count).map { MutableProperty($0) }
    let tokens = properties.map { property in
      observe {
        sink.total &+= property.value
        sink.runs += 1
      }
    }
    await bench.measureAsync(
      scenario, "Tether observe { } (Tether property)", perRound: count
    ) { rounds in
      for _ in 0..<rounds {
        let expected = sink.runs + count
        for property in properties { property.value &+= 1 }
        while sink.runs < expected { await Task.yield() }
      }
    }
    precondition(sink.runs % count == 0, "S7: a burst re-ran some observation twice")
    tokens.forEach { $0.cancel() }
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let models = (0..<count).map { _ in ObservableModel() }
    let tokens = models.map { model in
      observe {
        sink.total &+= model.value
        sink.runs += 1
      }
    }
    await bench.measureAsync(
      scenario, "Tether observe { } (@Observable)", note: "Observation wakes each one",
      perRound: count
    ) { rounds in
      for _ in 0..<rounds {
        let expected = sink.runs + count
        for model in models { model.value &+= 1 }
        while sink.runs < expected { await Task.yield() }
      }
    }
    tokens.forEach { $0.cancel() }
    bench.checksum &+= sink.total
  }
}

/// 10,000 live observations, each reading its own value: the memory each one holds, and the
/// cost of one change among them (which must re-run exactly one).
@MainActor
func runS10(_ bench: Bench, observations count: Int = 10_000) async {
  let memory = "S10 bytes per observation, \(count)"
  let change = "S10 one change, \(count) live"
  // Fresh models and properties each repetition: what an observation costs includes the
  // storage it adds to what it observes (a registrar's, an observer list's), which a reused
  // object would already have grown.
  if allocatedBytes() != nil {
    let sink = Sink()
    bench.record(
      memory, "withObservationTracking (one registration)", baseline: true,
      samples: bytesPerItem(count, repetitions: bench.repetitions) {
        let models = (0..<count).map { _ in ObservableModel() }
        return {
          for model in models {
            withObservationTracking {
              sink.total &+= model.value
            } onChange: {
            }
          }
        }
      }, unit: "bytes", note: "held by each model's registrar")
    bench.record(
      memory, "Tether observe { }",
      samples: bytesPerItem(count, repetitions: bench.repetitions) {
        let properties = (0..<count).map { MutableProperty($0) }
        var tokens: [ObservationToken] = []
        return {
          tokens = properties.map { property in observe { sink.total &+= property.value } }
          withExtendedLifetime(tokens) {}
        }
      }, unit: "bytes", note: "token, tracker, list slot")
    bench.checksum &+= sink.total
  } else {
    print("\(memory): not measured (needs glibc mallinfo2)")
  }
  do {
    let sink = Sink()
    let models = (0..<count).map { _ in ObservableModel() }
    let observers = models.map { ObservationReRegistration(model: $0, sink: sink) }
    await bench.measureAsync(
      change, "withObservationTracking re-register", baseline: true
    ) { n in
      for i in 0..<n {
        let expected = sink.runs + 1
        models[i % count].value &+= 1
        while sink.runs < expected { await Task.yield() }
      }
    }
    withExtendedLifetime(observers) {}
    bench.checksum &+= sink.total
  }
  do {
    let sink = Sink()
    let properties = (0..<count).map { MutableProperty($0) }
    let tokens = properties.map { property in
      observe {
        sink.total &+= property.value
        sink.runs += 1
      }
    }
    var changes = 0
    let runsBefore = sink.runs
    await bench.measureAsync(change, "Tether observe { }") { n in
      for i in 0..<n {
        let expected = sink.runs + 1
        properties[i % count].value &+= 1
        while sink.runs < expected { await Task.yield() }
      }
      changes += n
    }
    precondition(sink.runs - runsBefore == changes, "S10: a change re-ran more than one")
    tokens.forEach { $0.cancel() }
    bench.checksum &+= sink.total
  }
}
