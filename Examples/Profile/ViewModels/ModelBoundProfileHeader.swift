import ExampleSupport
import Foundation
import Tether

/// A headless header using style 1, as a view would implement it.
@MainActor
public final class ModelBoundProfileHeader: @MainActor ProfileModelBinding {
  /// What the header shows; `nil` until bound.
  public private(set) var display: ProfileHeaderDisplay?

  /// Creates an empty header.
  public init() {}

  /// Formats `model` here, in the view (the style's weakness).
  public func bind(model: Profile) {
    display = ProfileHeaderDisplay(
      avatarURL: ProfileHeaderText.avatar(model.avatarURL), nickname: model.login,
      bio: ProfileHeaderText.bio(model.bio), followers: .counter(model.followers, "Followers"),
      repositories: .counter(model.publicRepos, "Repositories"),
      following: .counter(model.following, "Following"))
  }
}
