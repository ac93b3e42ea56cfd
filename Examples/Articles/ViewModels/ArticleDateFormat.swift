import ExampleSupport
import Foundation
import Tether

/// Formats dates in seed 003's short style for one locale and time zone.
///
/// The formatter is built once per format, not per date: creating a `DateFormatter` costs far
/// more than using one (it loads the locale's ICU patterns). `DateFormatter` is thread-safe for
/// formatting once configured, which is why the format can be `Sendable`.
public struct ArticleDateFormat: Sendable {
  private let formatter: DateFormatter

  /// Creates the format.
  ///
  /// - Parameters:
  ///   - locale: The locale whose short date style to use.
  ///   - timeZone: The zone to show dates in.
  public init(locale: Locale = .current, timeZone: TimeZone = .current) {
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.timeZone = timeZone
    formatter.dateStyle = .short
    formatter.timeStyle = .none
    self.formatter = formatter
  }

  /// `date` in the short date style, e.g. `10/1/17` in `en_US`.
  ///
  /// - Parameter date: The date.
  /// - Returns: The formatted date.
  public func string(from date: Date) -> String {
    formatter.string(from: date)
  }
}
