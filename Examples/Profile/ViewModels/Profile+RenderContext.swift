import ExampleSupport
import Foundation
import Tether

extension Profile {
  /// Renders this profile into `context` (seed 002's `renderInContext`).
  ///
  /// - Parameter context: Where to render.
  public func render(in context: inout some RenderContext) {
    context.renderText(login, ProfileHeaderText.bio(bio))
    context.renderAttributedText(
      .counter(followers, "Followers"), .counter(publicRepos, "Repositories"),
      .counter(following, "Following"))
    context.renderImage(ProfileHeaderText.avatar(avatarURL))
  }
}
