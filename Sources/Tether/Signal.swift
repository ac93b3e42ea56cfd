/// A stream of one-shot events: alerts, routes, "selection made". It has no current value and
/// replays nothing.
///
/// A view model declares one with ``Event``: everyone observes `alertMessage`, and only the
/// view model sends, through the wrapper `_alertMessage`:
///
/// ```swift
/// @MainActor final class PhotoListViewModel {
///   private var photos: [Photo] = []
///   @Event var alertMessage: Signal<String>
///
///   func userPressed(at index: Int) {
///     if !photos[index].forSale { _alertMessage.send("This item is not for sale") }
///   }
/// }
/// ```
///
/// Elsewhere, ``pipe()`` makes a signal and its ``Emitter`` as two values to keep apart.
///
/// Use ``Property`` for state (anything a view shows) and `Signal` for events (anything a view
/// does once). An observer that subscribes after an event never sees it.
///
/// > Note: Like ``Property``, a signal is not `Sendable` and delivers on the isolation domain
/// > that owns it. Re-entrant sends (an observer sending on the same signal) are queued and
/// > delivered in order after the current event reaches every observer.
public final class Signal<Value> {
  @usableFromInline
  internal let observers: ObserverList<Value>
  /// Sources and tokens a derived signal keeps alive.
  @usableFromInline
  internal var retained: [AnyObject] = []
  /// What each new observer gets before any event (`prepend`), read when it starts observing;
  /// `nil` for a signal without one, which is almost every signal.
  @usableFromInline
  internal var prefix: (() -> [Value])?

  @inlinable
  internal init() {
    observers = ObserverList(owner: nil)
    observers.owner = self
  }

  deinit {
    observers.ownerWillBeFreed()
  }

  /// Creates a signal and the emitter that sends on it.
  ///
  /// - Returns: `output`, the signal to expose, and `input`, the emitter to keep private.
  @inlinable
  public static func pipe() -> (output: Signal<Value>, input: Emitter) {
    let signal = Signal()
    return (signal, Emitter(signal: signal))
  }

  /// Observes every event sent from now on.
  ///
  /// A signal made by ``prepend(_:)`` first calls `action` with its values, before `observe`
  /// returns.
  ///
  /// - Parameter action: Called with each event, in order, on the signal's isolation domain.
  /// - Returns: A token; the observation ends when it is cancelled or deallocated, so a token
  ///   that is not kept ends it at once (the compiler warns of an unused result). To tie the
  ///   observation to an object instead, use ``observe(for:_:)``.
  @inlinable
  public func observe(_ action: @escaping (Value) -> Void) -> ObservationToken {
    let token = observers.add(action)
    if let prefix { observers.replay(prefix(), to: action) }
    return token
  }

  /// The number of live observers, for diagnostics and tests.
  @inlinable
  public var observerCount: Int { observers.count }

  @usableFromInline
  internal func retain(_ object: AnyObject) {
    retained.append(object)
  }

  /// Ends a derived signal that has sent all it will (`take(first:)`, `take(until:)`,
  /// `timeout`): it stops observing its sources and lets them go. Called during a source's
  /// delivery: cancelling marks the observer removed (the delivery skips it), and a source
  /// released here is still held by whoever is sending on it until its delivery ends.
  @usableFromInline
  internal func finish() {
    let released = retained
    retained = []
    for case let token as ObservationToken in released { token.cancel() }
  }

  /// The sending side of a ``Signal``: keep it private to the view model.
  ///
  /// An emitter keeps its signal alive.
  public struct Emitter {
    @usableFromInline
    internal let signal: Signal<Value>

    @usableFromInline
    internal init(signal: Signal<Value>) {
      self.signal = signal
    }

    /// Delivers `value` to every current observer of the signal.
    ///
    /// - Parameter value: The event.
    @inlinable
    public func send(_ value: Value) {
      signal.observers.send(value)
    }
  }
}

extension Signal.Emitter where Value == Void {
  /// Delivers an event that carries no data.
  @inlinable
  public func send() {
    send(())
  }
}

extension Signal {
  /// A signal that never sends.
  public static var never: Signal<Value> { Signal() }
}
