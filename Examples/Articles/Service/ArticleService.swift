import ExampleSupport
import Foundation

/// Where articles come from: ``BundledArticleService`` or ``HTTPArticleService``.
public protocol ArticleService: Sendable {
  /// Every article.
  ///
  /// - Returns: The articles, newest first.
  /// - Throws: A ``ServiceError``.
  func articles() async throws(ServiceError) -> [ArticleRecord]
}
