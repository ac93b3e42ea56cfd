import Foundation
import Logging
import TetherPubSub
import TetherPubSubPostgres
import Todos

/// Chooses and opens the showcase's TodoMVC store from its command line: PostgreSQL for a
/// `postgres://` URL, else SQLite in a data folder.
public enum TodoStorage {
  /// The environment variable that names a PostgreSQL database when `--database` does not.
  public static let databaseVariable = "DATABASE_URL"

  /// The default data folder: `$XDG_STATE_HOME/tether-showcase`, else
  /// `~/.local/state/tether-showcase` (on macOS, `~/Library/Application Support/tether-showcase`).
  public static var defaultDataFolder: String {
    let environment = ProcessInfo.processInfo.environment
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/tether-showcase"
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    #if os(macOS)
      return home + "/Library/Application Support/tether-showcase"
    #else
      return home + "/.local/state/tether-showcase"
    #endif
  }

  /// The key a single server issues browsers' cookies under, kept in the data folder
  /// (`browser-cookie.key`, 64 hex digits, readable by its owner alone) so that a restart
  /// still knows every browser, and so its list: made on first use.
  ///
  /// - Parameter dataFolder: The data folder (`--data`), or `nil` for ``defaultDataFolder``.
  /// - Returns: The key's 32 bytes.
  /// - Throws: ``TodoDatabaseError`` naming the file when it cannot be read or made, or holds
  ///   something else than a key.
  public static func browserCookieKey(dataFolder: String?) throws(TodoDatabaseError) -> [UInt8] {
    let folder = dataFolder ?? defaultDataFolder
    let path = folder + "/browser-cookie.key"
    let manager = FileManager.default
    if let data = manager.contents(atPath: path) {
      let text = String(decoding: data, as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      guard let bytes = hexBytes(text), bytes.count == 32 else {
        throw TodoDatabaseError("\(path): not a key (64 hex digits); remove it to make a new one")
      }
      return bytes
    }
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    do {
      try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw TodoDatabaseError(
        "\(folder): cannot make the data folder (\(error.localizedDescription))")
    }
    guard
      manager.createFile(
        atPath: path, contents: Data((hex + "\n").utf8), attributes: [.posixPermissions: 0o600])
    else { throw TodoDatabaseError("\(path): cannot write the browser cookie key") }
    return bytes
  }

  private static func hexBytes(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// An open store and a line saying where it keeps lists.
  public struct Opened: Sendable {
    /// The store.
    public var store: any TodoStore
    /// "SQLite file /path/todos.sqlite" or "PostgreSQL postgres://user@host:port/db".
    public var location: String
  }

  /// Opens the store the options ask for.
  ///
  /// - Parameters:
  ///   - database: A PostgreSQL URL (`--database`), or `nil` to read ``databaseVariable``.
  ///   - dataFolder: The SQLite folder (`--data`), or `nil` for ``defaultDataFolder``; created
  ///     if missing. Ignored when a database URL is given.
  /// - Returns: The store and where it keeps lists.
  /// - Throws: ``TodoDatabaseError`` in one line, naming the file or server.
  public static func open(database: String?, dataFolder: String?) async throws(TodoDatabaseError)
    -> Opened
  {
    let url = database ?? ProcessInfo.processInfo.environment[databaseVariable]
    if let url, !url.isEmpty {
      let store = try await PostgresTodoStore.connect(url: url)
      return Opened(store: store, location: "PostgreSQL \(store.address)")
    }
    let folder = dataFolder ?? defaultDataFolder
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw TodoDatabaseError(
        "\(folder): cannot make the data folder (\(error.localizedDescription))")
    }
    let path = folder + "/todos.sqlite"
    return Opened(store: try SQLiteTodoStore(path: path), location: "SQLite file \(path)")
  }

  /// Starts the PubSub node the options ask for: on PostgreSQL's notifications for a
  /// `postgres://` URL (every process sharing the database shares its topics), else on a bus
  /// in this process.
  ///
  /// - Parameter database: A PostgreSQL URL, or `nil` to read ``databaseVariable``.
  /// - Returns: The started node.
  /// - Throws: ``TodoDatabaseError`` when the database cannot be reached.
  public static func pubsub(database: String?) async throws(TodoDatabaseError) -> PubSub {
    let url = database ?? ProcessInfo.processInfo.environment[databaseVariable]
    let transport: any PubSubTransport
    if let url, !url.isEmpty {
      let (configuration, _) = try PostgresTodoStore.parse(url)
      transport = PostgresPubSubTransport(
        configuration: PostgresTodoStore.connectionConfiguration(configuration),
        logger: Logger(label: "tether.pubsub"))
    } else {
      transport = InProcessPubSub().transport()
    }
    let pubsub = PubSub(transport: transport)
    do {
      try await pubsub.start()
    } catch {
      throw TodoDatabaseError("PubSub: \(error)")
    }
    return pubsub
  }
}
