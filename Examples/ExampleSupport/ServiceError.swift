/// Why a service call failed, in the terms a user is shown.
///
/// Every example service (bundled or HTTP) reports failures as one of these, and view models
/// show ``userMessage``; nothing is swallowed into an empty list.
public enum ServiceError: Error, Equatable, Sendable {
  /// The server could not be reached: no route, refused, or the connection dropped.
  case noConnection
  /// The server did not answer in time.
  case timedOut
  /// HTTP 401 or 403.
  case unauthorized(status: Int)
  /// HTTP 5xx.
  case serverError(status: Int)
  /// Any other unsuccessful HTTP status, such as 404.
  case unexpectedStatus(Int)
  /// The response arrived but could not be read; the text says what was wrong with it.
  case malformedResponse(String)

  /// The sentence a view shows for this error.
  public var userMessage: String {
    switch self {
    case .noConnection, .timedOut:
      "No Network"
    case .unauthorized:
      "You don't have permission"
    case .serverError:
      "Server is overloaded"
    case .unexpectedStatus(let status):
      "The server could not handle the request (HTTP \(status))"
    case .malformedResponse(let problem):
      "The server sent data the app could not read: \(problem)"
    }
  }
}

extension ServiceError: CustomStringConvertible {
  /// The user-facing message, so `"\(error)"` reads well in logs and alerts.
  public var description: String { userMessage }
}
