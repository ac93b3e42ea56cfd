import Observation

/// A property's registrar for Apple's Observation.
///
/// The registrar's subject is this small object rather than the generic property, so the key
/// path is one non-generic constant and a property that is never read by Observation never
/// allocates a registrar. Each property has its own link, and so its own registrar: a change
/// reaches exactly the trackings that read that property.
@usableFromInline
internal final class ObservationLink: Observable {
  private let registrar = ObservationRegistrar()

  /// The one observable "member": a change of the owning property's value.
  private var value: Void { () }

  @usableFromInline
  init() {}

  /// Registers the owning property with the `withObservationTracking` on this thread, if any.
  @usableFromInline
  func access() {
    registrar.access(self, keyPath: \.value)
  }

  @usableFromInline
  func willSet() {
    registrar.willSet(self, keyPath: \.value)
  }

  @usableFromInline
  func didSet() {
    registrar.didSet(self, keyPath: \.value)
  }
}
