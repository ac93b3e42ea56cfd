import Foundation

/// What a showcase web server's `/stats` answers: the one type the server encodes and the load
/// tool and tests decode.
public struct WebServerStats: Codable, Equatable, Sendable {
  /// Sessions open, connected or in their grace period.
  public var sessions: Int
  /// Sessions with a page connected.
  public var connected: Int
  /// View models that sessions have shown and that are still alive.
  public var liveViewModels: Int
  /// The heap in use (glibc's `mallinfo2`), or `nil` where the C library cannot say. Unlike
  /// the resident set, it falls when sessions are freed.
  public var heapBytes: Int?

  /// Creates a reading.
  ///
  /// - Parameters:
  ///   - sessions: Sessions open.
  ///   - connected: Sessions with a page connected.
  ///   - liveViewModels: View models still alive.
  ///   - heapBytes: The heap in use, if known.
  public init(sessions: Int, connected: Int, liveViewModels: Int, heapBytes: Int?) {
    self.sessions = sessions
    self.connected = connected
    self.liveViewModels = liveViewModels
    self.heapBytes = heapBytes
  }

  /// The reading as `/stats` sends it, such as
  /// `{"connected":1,"heapBytes":1253376,"liveViewModels":3,"sessions":2}`.
  public var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Four integers always encode.
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// Reads what `/stats` sent.
  ///
  /// - Parameter json: The answer's body.
  /// - Throws: `DecodingError` if it is not a reading.
  public init(json: some StringProtocol) throws {
    self = try JSONDecoder().decode(Self.self, from: Data(json.utf8))
  }
}
