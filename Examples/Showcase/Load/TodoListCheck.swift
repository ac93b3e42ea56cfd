import Dispatch
import Foundation
import LoopbackClient
import Synchronization
import Todos
import TodosStorage

/// An item as a load run's writing tab left it: its id and its title.
struct TodoItemWritten: Equatable, Sendable {
  var id: String
  var title: String
}

/// Every TodoMVC list of a load run read back from the database and compared with what its
/// writing tab did.
struct TodoListCheck: Sendable {
  /// Where the lists were read: "PostgreSQL …" or "SQLite file …".
  var store = ""
  /// Lists read, and items in them.
  var lists = 0
  var items = 0
  /// Items the tab added and did not delete that are missing, titles it set that are not
  /// there, and items it deleted that are still there.
  var lost = 0
  /// Items the tab added once that are there twice (under another id).
  var duplicated = 0
  /// Items of another browser's list.
  var leaked = 0
  /// What was wrong, one line each.
  var problems: [String] = []
  /// Why the database could not be read, if it could not.
  var failure: String?

  /// Reads every list (PostgreSQL at `databaseURL`, else the SQLite file) and compares.
  ///
  /// - Parameters:
  ///   - browsers: The run's browsers.
  ///   - written: What each browser's writing tab left in its list, by browser number (a
  ///     browser that failed has none, and is counted as an error elsewhere).
  ///   - databaseURL: The cluster's PostgreSQL database, or `nil` for the SQLite file.
  ///   - sqlitePath: The single server's SQLite file.
  /// - Returns: What was found.
  static func run(
    browsers: [TodoLoadBrowser], written: [Int: [TodoItemWritten]], databaseURL: String?,
    sqlitePath: String
  ) -> TodoListCheck {
    let result = Mutex<TodoListCheck?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let check = await read(
        browsers: browsers, written: written, databaseURL: databaseURL, sqlitePath: sqlitePath)
      result.withLock { $0 = check }
      done.signal()
    }
    done.wait()
    return result.withLock { $0 } ?? TodoListCheck(failure: "the check did not finish")
  }

  private static func read(
    browsers: [TodoLoadBrowser], written: [Int: [TodoItemWritten]], databaseURL: String?,
    sqlitePath: String
  ) async -> TodoListCheck {
    var check = TodoListCheck()
    let store: any TodoStore
    do {
      if let databaseURL {
        let postgres = try await PostgresTodoStore.connect(url: databaseURL)
        check.store = "PostgreSQL \(postgres.address)"
        store = postgres
      } else {
        store = try SQLiteTodoStore(path: sqlitePath)
        check.store = "SQLite file \(sqlitePath)"
      }
    } catch {
      check.failure = error.description
      return check
    }
    defer { (store as? PostgresTodoStore)?.shutdown() }
    for browser in browsers {
      guard let expected = written[browser.number] else { continue }
      let list: TodoList
      do {
        list = try await store.load(list: browser.clientID)
      } catch {
        check.failure = "\(error)"
        return check
      }
      check.lists += 1
      check.items += list.todos.count
      check.compare(list.todos, with: expected, of: browser)
    }
    return check
  }

  private mutating func compare(
    _ stored: [Todo], with expected: [TodoItemWritten], of browser: TodoLoadBrowser
  ) {
    let name = "list \(browser.number)"
    for item in expected {
      guard let found = stored.first(where: { $0.id == item.id }) else {
        lost += 1
        problems.append("\(name): \(item.title) (\(item.id)) is missing")
        continue
      }
      if found.title != item.title {
        lost += 1
        problems.append("\(name): \(item.id) is titled \(found.title), not \(item.title)")
      }
    }
    let expectedIDs = Set(expected.map(\.id))
    let own = browser.title(0).dropLast()  // "L<number>-"
    for todo in stored where !expectedIDs.contains(todo.id) {
      if !todo.title.hasPrefix(own) {
        leaked += 1
        problems.append("\(name) holds another list's item \(todo.title)")
      } else if expected.contains(where: { $0.title == todo.title || $0.title == todo.title + " e" }
      ) {
        duplicated += 1
        problems.append("\(name): \(todo.title) is there twice (again as \(todo.id))")
      } else {
        lost += 1
        problems.append("\(name): \(todo.title) (\(todo.id)) was deleted and is still there")
      }
    }
  }
}
