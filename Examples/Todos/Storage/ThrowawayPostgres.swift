import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A PostgreSQL server of its own for `showcase-cluster` and the tests: a fresh cluster
/// (`initdb`) in a temporary folder, listening on 127.0.0.1 only, on a free port, stopped and
/// deleted by ``stop()``.
///
/// PostgreSQL refuses to run as root; when this process is root, the server's commands run as
/// the `postgres` user (Debian's package creates it), which owns the folder.
public final class ThrowawayPostgres: Sendable {
  /// `postgres://postgres@127.0.0.1:<port>/postgres`.
  public let url: String
  /// The folder holding the cluster's files and its log.
  public let folder: String
  private let port: Int
  private let binaries: String
  private let asUser: String?

  private init(port: Int, folder: String, binaries: String, asUser: String?) {
    url = "postgres://postgres@127.0.0.1:\(port)/postgres"
    self.port = port
    self.folder = folder
    self.binaries = binaries
    self.asUser = asUser
  }

  /// Creates and starts a server.
  ///
  /// - Returns: The running server.
  /// - Throws: ``TodoDatabaseError`` in one line: PostgreSQL is not installed (with how to
  ///   install it), or `initdb` or `pg_ctl` failed (with their output).
  public static func start() throws(TodoDatabaseError) -> ThrowawayPostgres {
    guard let binaries = findBinaries() else {
      throw TodoDatabaseError(
        "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH); "
          + "install it (Debian/Ubuntu: apt-get install -y postgresql) or pass --database")
    }
    let template = NSTemporaryDirectory() + "tether-postgres-XXXXXX"
    var bytes = Array(template.utf8CString)
    guard let made = mkdtemp(&bytes) else {
      throw TodoDatabaseError("cannot make a folder for PostgreSQL in \(NSTemporaryDirectory())")
    }
    let folder = String(cString: made)
    var asUser: String?
    if geteuid() == 0 {
      guard let account = getpwnam("postgres") else {
        throw TodoDatabaseError(
          "PostgreSQL cannot run as root, and there is no postgres user to run it as")
      }
      guard chown(folder, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
        throw TodoDatabaseError("cannot give \(folder) to the postgres user (errno \(errno))")
      }
      asUser = "postgres"
    }
    let port: Int
    do {
      port = try freePort()
    } catch {
      throw TodoDatabaseError("no free loopback port for PostgreSQL")
    }
    let server = ThrowawayPostgres(
      port: port, folder: folder, binaries: binaries, asUser: asUser)
    try server.run(
      "initdb",
      ["-D", folder + "/data", "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"])
    try server.resume()
    return server
  }

  /// Stops the server and keeps its files, as an outage would: connections are refused until
  /// ``resume()``.
  ///
  /// - Throws: ``TodoDatabaseError`` when `pg_ctl` fails.
  public func pause() throws(TodoDatabaseError) {
    try run("pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "stop"])
  }

  /// Starts the server (again) on its port, with the data it had.
  ///
  /// - Throws: ``TodoDatabaseError`` when `pg_ctl` fails.
  public func resume() throws(TodoDatabaseError) {
    try run(
      "pg_ctl",
      [
        "-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "30", "-o",
        "-c listen_addresses=127.0.0.1 -p \(port) -c unix_socket_directories=\(folder)",
        "start",
      ])
  }

  /// Stops the server at once and deletes its folder.
  public func stop() {
    try? run("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Runs one of the server's tools and waits for it. `posix_spawn` and `waitpid`, not
  /// Foundation's `Process`: the server `pg_ctl start` leaves running inherits the descriptor
  /// `Process` watches to learn that its child ended, so `Process` would wait forever.
  private func run(_ tool: String, _ arguments: [String]) throws(TodoDatabaseError) {
    // env -C: the tools run in the server's folder, which the postgres user can read.
    let command =
      ["/usr/bin/env", "-C", folder]
      + (asUser.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? []) + [binaries + "/" + tool]
    let outputPath = folder + "/\(tool).out"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = (command + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw TodoDatabaseError("cannot run \(command[0]) (error \(spawned))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    let exited = status & 0x7f == 0
    let code = (status >> 8) & 0xff
    guard exited, code == 0 else {
      let last = text.split(separator: "\n").suffix(3).joined(separator: " / ")
      throw TodoDatabaseError(
        "\(tool) failed (\(exited ? "status \(code)" : "signal \(status & 0x7f)")): \(last)")
    }
  }

  /// The newest installed PostgreSQL's `bin` folder.
  private static func findBinaries() -> String? {
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
      let bin = "\(root)/\(version)/bin"
      if FileManager.default.isExecutableFile(atPath: bin + "/initdb") { return bin }
    }
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    where FileManager.default.isExecutableFile(atPath: "\(folder)/initdb") {
      return String(folder)
    }
    return nil
  }

  private struct NoPort: Error {}

  /// A port on 127.0.0.1 that nothing listens on now.
  private static func freePort() throws -> Int {
    #if canImport(Glibc) || canImport(Musl)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw NoPort() }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else { throw NoPort() }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
