import ExampleSupport
import Foundation
import Tether

/// A headless header that is a ``RenderContext``.
public struct RenderedProfileHeader: RenderContext, Sendable {
  private var texts: [String] = []
  private var titles: [AttributedTitle] = []
  private var images: [URL] = []

  /// Creates an empty header.
  public init() {}

  /// Keeps the texts: the nickname, then the biography.
  public mutating func renderText(_ texts: String...) { self.texts = texts }
  /// Keeps the counter titles: followers, repositories, following.
  public mutating func renderAttributedText(_ titles: AttributedTitle...) { self.titles = titles }
  /// Keeps the images: the avatar.
  public mutating func renderImage(_ urls: URL...) { images = urls }

  /// What was rendered, or `nil` if any part is missing.
  public var display: ProfileHeaderDisplay? {
    guard texts.count == 2, titles.count == 3, let avatar = images.first else { return nil }
    return ProfileHeaderDisplay(
      avatarURL: avatar, nickname: texts[0], bio: texts[1], followers: titles[0],
      repositories: titles[1], following: titles[2])
  }
}
