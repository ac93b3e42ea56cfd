import ArgumentParser
import Foundation
import ShowcaseFlows
import ShowcaseWebServer
import TetherWeb
import TodosStorage

/// `showcase-cluster`: the web showcase on several nodes behind HAProxy.
@main
struct ClusterCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "showcase-cluster",
    abstract:
      "Serves the web showcase from several nodes behind HAProxy; any node resumes any session.",
    discussion: """
      Starts --nodes web showcase nodes on free loopback ports, sharing a fresh resume key, and
      HAProxy in front on --port (round robin, no stickiness, health checks on /health, the
      WebSocket upgrade passed through). A node that dies is started again on its port. Stops
      everything on SIGTERM or SIGINT, with status 0. Needs haproxy (apt-get install haproxy).
      TodoMVC's lists live in PostgreSQL, shared by every node: --database (or $DATABASE_URL),
      or else a throwaway server this tool starts (initdb into a temporary folder, 127.0.0.1
      only, a free port) and deletes on exit. Needs postgresql then (apt-get install postgresql).
      """)

  // All of a node's sessions share its main actor, so a node uses one core for view-model
  // work: one node per core uses them all, and two at least keep a node to fail over to.
  @Option(help: "How many nodes (default: one per core, at least 2).")
  var nodes = max(2, ProcessInfo.processInfo.activeProcessorCount)

  @Option(help: "The port HAProxy listens on (127.0.0.1); 0 picks a free one.")
  var port = 8080

  @Option(help: "Seconds a session outlives its page's socket, on each node.")
  var sessionGrace = 30.0

  @Option(help: "A showcase binary to run as each node (`showcase --web`); default: this tool.")
  var server: String?

  @Option(help: "The haproxy binary; default: the one on PATH or in /usr/sbin.")
  var haproxy: String?

  @Option(
    help: """
      The nodes' PostgreSQL database (postgres://user:password@host:port/database); default: \
      $DATABASE_URL, else a throwaway server.
      """)
  var database: String?

  @Flag(help: "Have every node serve /stats (for tests and load runs; off by default).")
  var stats = false

  /// Serves as one node (what the cluster starts): the showcase's web server, with the key
  /// from the environment.
  @Flag(help: .hidden)
  var node = false

  func validate() throws {
    guard (1...32).contains(nodes) else { throw ValidationError("--nodes needs 1 to 32.") }
    guard (0...65_535).contains(port) else { throw ValidationError("--port needs 0 to 65535.") }
    guard sessionGrace >= 0, sessionGrace <= 86_400 else {
      throw ValidationError("--session-grace needs seconds from 0 to 86400.")
    }
  }

  @MainActor
  func run() async throws {
    if node {
      let environment = ProcessInfo.processInfo.environment
      guard let key = environment[ShowcaseWebServer.resumeKeyVariable] else {
        FileHandle.standardError.write(
          Data("showcase-cluster: a node needs $\(ShowcaseWebServer.resumeKeyVariable)\n".utf8))
        throw ExitCode(2)
      }
      let signer: WebResumeSigner
      do {
        signer = try ShowcaseWebServer.resumeSigner(
          key: key, retiring: environment[ShowcaseWebServer.retiringResumeKeyVariable])
      } catch {
        FileHandle.standardError.write(Data("showcase-cluster node: \(error)\n".utf8))
        throw ExitCode(2)
      }
      var services = ShowcaseServices.bundled()
      do {
        services.todos = try await TodoStorage.open(database: database, dataFolder: nil).store
        services.pubsub = try await TodoStorage.pubsub(database: database)
      } catch {
        FileHandle.standardError.write(Data("showcase-cluster node: \(error)\n".utf8))
        throw ExitCode(2)
      }
      try await ShowcaseWebServer.serve(
        services: services, host: "127.0.0.1", port: port,
        sessionGrace: .milliseconds(Int(sessionGrace * 1000)), resumeSigner: signer,
        trustedProxies: ["127.0.0.1"], stats: stats)
      await services.pubsub?.shutdown()
      return
    }
    let found =
      haproxy.map { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil } ?? findHAProxy()
    guard let haproxy = found else {
      FileHandle.standardError.write(
        Data(
          ("showcase-cluster: haproxy is not installed\(haproxy.map { " at \($0)" } ?? ""); "
            + "install it (Debian/Ubuntu: sudo apt-get install -y haproxy; macOS: brew install "
            + "haproxy) and run again\n").utf8))
      throw ExitCode(2)
    }
    // Every node keeps TodoMVC's lists in one PostgreSQL database.
    var throwaway: ThrowawayPostgres?
    let databaseURL: String
    if let given = database ?? ProcessInfo.processInfo.environment[TodoStorage.databaseVariable],
      !given.isEmpty
    {
      // Every node would fail on it alone: say it once, before any starts.
      do {
        let store = try await PostgresTodoStore.connect(url: given)
        store.shutdown()
      } catch {
        FileHandle.standardError.write(Data("showcase-cluster: \(error)\n".utf8))
        throw ExitCode(2)
      }
      databaseURL = given
    } else {
      do {
        let started = try ThrowawayPostgres.start()
        throwaway = started
        databaseURL = started.url
        FileHandle.standardOutput.write(
          Data("postgresql at \(started.url) (throwaway, in \(started.folder))\n".utf8))
      } catch {
        FileHandle.standardError.write(Data("showcase-cluster: \(error)\n".utf8))
        throw ExitCode(2)
      }
    }
    defer { throwaway?.stop() }
    let nodeCommand: NodeCommand
    if let server {
      nodeCommand = NodeCommand(
        binary: server,
        arguments: ["--web", "--host", "127.0.0.1", "--trusted-proxy", "127.0.0.1"]
          + (stats ? ["--stats"] : []))
    } else {
      nodeCommand = NodeCommand(
        binary: executablePath(), arguments: ["--node"] + (stats ? ["--stats"] : []))
    }
    let cluster = Cluster(
      nodes: nodes, nodeCommand: nodeCommand, sessionGrace: sessionGrace, haproxy: haproxy,
      databaseURL: databaseURL)
    let status: Int32
    do {
      status = try await cluster.run(port: port)
    } catch {
      cluster.stopAll()
      FileHandle.standardError.write(Data("showcase-cluster: \(error)\n".utf8))
      throw ExitCode(1)
    }
    if status != 0 { throw ExitCode(status) }
  }

  /// This binary's own path, to start it again as a node.
  private func executablePath() -> String {
    if let path = Bundle.main.executablePath { return path }
    return URL(filePath: CommandLine.arguments[0]).standardizedFileURL.path
  }
}
