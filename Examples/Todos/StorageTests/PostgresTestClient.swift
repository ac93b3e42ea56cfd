import Foundation
import Logging
import PostgresNIO

/// One statement on a fresh connection, for tests that set up or break a server.
enum PostgresTestClient {
  static func execute(_ sql: String, url: String) async throws {
    guard let components = URLComponents(string: url), let host = components.host else {
      throw URLError(.badURL)
    }
    let database = String(components.path.dropFirst())
    let connection = try await PostgresConnection.connect(
      configuration: .init(
        host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
        password: nil, database: database, tls: .disable),
      id: 1, logger: Logger(label: "tests"))
    do {
      try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "tests"))
    } catch {
      try? await connection.close()
      throw error
    }
    try await connection.close()
  }
}
