import ExampleSupport
import Foundation
import Tether

/// Seed 002's shared texts.
public enum ProfileHeaderText {
  /// Shown when a profile has no biography.
  public static let bioFallback = "Not set yet"
  /// Shown when a profile's avatar is not a usable URL.
  public static let defaultAvatarURL = URL(fileURLWithPath: "/default-avatar.png")

  static func bio(_ bio: String?) -> String {
    guard let bio, !bio.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return bioFallback
    }
    return bio
  }

  static func avatar(_ text: String) -> URL {
    guard let url = URL(string: text), url.scheme != nil else { return defaultAvatarURL }
    return url
  }
}
