import Foundation

/// The gallery's `yyyy-MM-dd` date format in one time zone.
///
/// One value formats every row: seed 000 created a `DateFormatter` per cell, which is the slow
/// part of building a page (benchmark S9 measures it).
public struct PhotoDateFormat: Sendable {
  /// The time zone dates are shown in.
  public let timeZone: TimeZone
  private let style: Date.ISO8601FormatStyle

  /// Creates the format for `timeZone`.
  ///
  /// - Parameter timeZone: The zone to show dates in; the user's own by default.
  public init(timeZone: TimeZone = .current) {
    self.timeZone = timeZone
    style = Date.ISO8601FormatStyle(timeZone: timeZone).year().month().day().dateSeparator(.dash)
  }

  /// `date` as `yyyy-MM-dd` in ``timeZone``.
  ///
  /// - Parameter date: The instant to format.
  /// - Returns: The calendar date, e.g. `2017-10-01`.
  public func string(from date: Date) -> String {
    date.formatted(style)
  }
}
