import ExampleSupport
import Foundation

/// One article as a source hands it over: a typed model, or a loosely typed dictionary.
public enum ArticleRecord: Equatable, Sendable {
  /// A decoded model.
  case model(Article)
  /// Seed 003's dictionary, possibly with missing or ill-typed keys.
  case dictionary([String: JSONValue])
}
