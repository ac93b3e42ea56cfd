import ExampleSupport
import Foundation
import Tether

// MARK: - Style 2: the model renders into a context

/// Style 2 of seed 002: the view is a render context and the model renders itself into it.
public protocol RenderContext {
  /// Shows texts in order: the nickname, then the biography.
  mutating func renderText(_ texts: String...)
  /// Shows counter titles in order: followers, repositories, following.
  mutating func renderAttributedText(_ titles: AttributedTitle...)
  /// Shows images in order: the avatar.
  mutating func renderImage(_ urls: URL...)
}
