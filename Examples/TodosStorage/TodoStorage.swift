import Foundation
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
}
