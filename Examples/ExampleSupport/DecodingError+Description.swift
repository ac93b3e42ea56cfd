import Foundation

extension DecodingError {
  /// A short sentence naming what was wrong and where, e.g.
  /// `missing field 'created_at' at photos[3]`.
  public var readableDescription: String {
    switch self {
    case .keyNotFound(let key, let context):
      return "missing field '\(key.stringValue)'" + Self.location(context.codingPath)
    case .valueNotFound(let type, let context):
      return "'\(Self.path(context.codingPath))' is null, expected \(Self.name(of: type))"
    case .typeMismatch(let type, let context):
      return "'\(Self.path(context.codingPath))' is not \(Self.name(of: type))"
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty {
        return "the response is not valid JSON"
      }
      return "'\(Self.path(context.codingPath))': \(context.debugDescription)"
    @unknown default:
      return String(describing: self)
    }
  }

  private static func location(_ codingPath: [any CodingKey]) -> String {
    codingPath.isEmpty ? "" : " at \(path(codingPath))"
  }

  /// `[photos, Index 3, created_at]` → `photos[3].created_at`.
  static func path(_ codingPath: [any CodingKey]) -> String {
    var text = ""
    for key in codingPath {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text.isEmpty ? "the response" : text
  }

  private static func name(of type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type, is Int64.Type: "an integer"
    case is Double.Type: "a number"
    case is Bool.Type: "true or false"
    default: "a \(type)"
    }
  }
}
