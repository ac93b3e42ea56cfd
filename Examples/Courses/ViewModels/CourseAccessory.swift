import ExampleSupport
import Foundation
import Tether

/// The accessory a course row shows (seed 001's `cellType`).
public enum CourseAccessory: Equatable, Hashable, Sendable {
  /// No accessory.
  case none
  /// A detail button: the course has many lessons.
  case detailButton
}
