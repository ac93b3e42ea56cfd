import ExampleSupport
import Foundation
import Tether

/// The accessory a course row shows (seed 001's `cellType`).
public enum CourseAccessory: Equatable, Hashable, Sendable {
  /// No accessory.
  case none
  /// A detail button: the course has many lessons.
  case detailButton

  /// The accessory as text after a row's detail, for view layers that draw text (the
  /// terminal, the web page): `" ⓘ"` for a detail button, nothing otherwise. A layer with
  /// images draws its own.
  public var textMark: String {
    switch self {
    case .none: ""
    case .detailButton: " ⓘ"
    }
  }
}
