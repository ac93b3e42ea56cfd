import ExampleSupport
import Foundation
import Tether

// MARK: - Style 1: the view binds the model itself

/// Style 1 of seed 002: a view that takes the model and formats it itself (`bind(model:)`).
/// Simple, but the formatting is welded to that view.
public protocol ProfileModelBinding: AnyObject {
  /// Shows `model`.
  ///
  /// - Parameter model: The profile.
  func bind(model: Profile)
}
