import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A small JSON-over-HTTP client on `URLSession`, shared by the examples' HTTP services.
///
/// It turns every failure into a ``ServiceError``: transport errors into `noConnection` or
/// `timedOut`, statuses into their classes, and undecodable bodies into `malformedResponse`
/// naming the problem.
public struct HTTPClient: Sendable {
  /// The server's root, e.g. `http://127.0.0.1:8080`.
  public let baseURL: URL
  /// How long one request may take before it fails with ``ServiceError/timedOut``.
  public let timeout: Duration
  private let session: URLSession

  /// Creates a client for `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root URL.
  ///   - timeout: The limit for one request.
  public init(baseURL: URL, timeout: Duration = .seconds(10)) {
    self.baseURL = baseURL
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    configuration.timeoutIntervalForRequest = seconds
    configuration.timeoutIntervalForResource = seconds
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    session = URLSession(configuration: configuration)
  }

  /// Fetches `path` with `query` and decodes the JSON body as `Response`.
  ///
  /// - Parameters:
  ///   - path: The path below ``baseURL``, e.g. `/v1/photos`.
  ///   - query: Query items to append.
  ///   - type: The type to decode.
  /// - Returns: The decoded body.
  /// - Throws: A ``ServiceError`` describing what went wrong.
  public func get<Response: Decodable>(
    _ path: String, query: [URLQueryItem] = [], as type: Response.Type
  ) async throws(ServiceError) -> Response {
    let data = try await getData(path, query: query)
    return try Self.decode(data, as: Response.self)
  }

  /// Decodes a response body as `Response`, the way ``get(_:query:as:)`` does.
  ///
  /// - Parameters:
  ///   - data: The body.
  ///   - type: The type to decode.
  /// - Returns: The decoded body.
  /// - Throws: ``ServiceError/malformedResponse(_:)`` naming what was wrong and where.
  public static func decode<Response: Decodable>(_ data: Data, as type: Response.Type)
    throws(ServiceError) -> Response
  {
    do {
      return try JSONDecoder().decode(Response.self, from: data)
    } catch let error as DecodingError {
      throw .malformedResponse(error.readableDescription)
    } catch {
      throw .malformedResponse(String(describing: error))
    }
  }

  /// Fetches `path` with `query` and returns the body of a successful response.
  ///
  /// - Parameters:
  ///   - path: The path below ``baseURL``.
  ///   - query: Query items to append.
  /// - Returns: The response body.
  /// - Throws: A ``ServiceError`` describing what went wrong.
  public func getData(_ path: String, query: [URLQueryItem] = []) async throws(ServiceError)
    -> Data
  {
    guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
      throw .malformedResponse("the server address \(baseURL) is not a valid URL")
    }
    components.path =
      components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
    components.path += path
    if !query.isEmpty { components.queryItems = query }
    guard let url = components.url else {
      throw .malformedResponse("cannot build a URL for \(path)")
    }
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")

    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await fetch(request)
    } catch let error as URLError where error.code == .timedOut {
      throw .timedOut
    } catch {
      throw .noConnection
    }
    guard let http = response as? HTTPURLResponse else {
      throw .malformedResponse("the response is not HTTP")
    }
    switch http.statusCode {
    case 200..<300: return data
    case 401, 403: throw .unauthorized(status: http.statusCode)
    case 500..<600: throw .serverError(status: http.statusCode)
    default: throw .unexpectedStatus(http.statusCode)
    }
  }

  /// The body and response for `request`, through the completion-handler form of a data task.
  /// FoundationNetworking's `data(for:)` completes inline on the session's work queue, and two
  /// of those in flight in one process were seen to deadlock (a test run hung with one thread
  /// in each); here the answer comes on the session's delegate queue. Cancelling the calling
  /// task cancels the request.
  private func fetch(_ request: URLRequest) async throws -> (Data, URLResponse) {
    let running = RunningTask()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: request) { data, response, error in
          if let data, let response {
            continuation.resume(returning: (data, response))
          } else {
            continuation.resume(throwing: error ?? URLError(.unknown))
          }
        }
        running.start(task)
      }
    } onCancel: {
      running.cancel()
    }
  }
}

/// A data task and whether its caller was cancelled, whichever comes first.
private final class RunningTask: Sendable {
  private let state = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

  func start(_ task: URLSessionDataTask) {
    let cancelled = state.withLock { state in
      state.task = task
      return state.cancelled
    }
    if cancelled { task.cancel() }
    task.resume()
  }

  func cancel() {
    let task = state.withLock { state in
      state.cancelled = true
      return state.task
    }
    task?.cancel()
  }
}
