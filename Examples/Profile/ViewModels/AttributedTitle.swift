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

  /// The title on one line, for a layer that lays counters out side by side:
  /// `"12 Followers"` for `"12 \nFollowers"` (every line break, and the spaces before it,
  /// become one space).
  public var singleLine: String {
    title.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasSuffix(" ") ? String($0.dropLast(1)) : String($0) }
      .joined(separator: " ")
  }

  /// `"<count> \n<label>"` with `label` emphasized.
  static func counter(_ count: Int, _ label: String) -> AttributedTitle {
    AttributedTitle(title: "\(count) \n\(label)", attributingTitle: label)
  }
}
