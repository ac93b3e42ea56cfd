import ExampleSupport
import Foundation
import Tether

/// A button title whose second part is emphasized, as seed 002 renders the counters:
/// `"12 \nFollowers"` with `"Followers"` attributed.
public struct AttributedTitle: Equatable, Hashable, Sendable {
  /// The whole title, e.g. `"12 \nFollowers"`.
  public var title: String
  /// The part to emphasize, e.g. `"Followers"`.
  public var attributingTitle: String

  /// Creates a title.
  ///
  /// - Parameters:
  ///   - title: The whole title.
  ///   - attributingTitle: The part to emphasize.
  public init(title: String, attributingTitle: String) {
    self.title = title
    self.attributingTitle = attributingTitle
  }

  /// `"<count> \n<label>"` with `label` emphasized.
  static func counter(_ count: Int, _ label: String) -> AttributedTitle {
    AttributedTitle(title: "\(count) \n\(label)", attributingTitle: label)
  }
}
