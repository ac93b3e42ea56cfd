import Foundation
import Testing

/// A store that cannot be opened stops `showcase` and `showcase-cluster` before they serve
/// anything: one line that names the file or the server, and exit status 2.
@Suite struct TodoStoreStartupTests {
  /// Runs a built product to its end; its status and what it wrote to standard error.
  private func run(_ product: String, _ arguments: [String]) throws -> (Int32, [String]) {
    let binary = try #require(
      builtProduct(named: product), "build it first: swift build --product \(product)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text.split(separator: "\n").map(String.init))
  }

  /// Nothing listens on port 1.
  private static let unreachable = "postgres://postgres@127.0.0.1:1/postgres"

  @Test func anUnreachableDatabaseIsOneLineAndStatus2() throws {
    let (status, lines) = try run(
      "showcase", ["--web", "--port", "0", "--database", Self.unreachable])
    #expect(status == 2)
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.contains("127.0.0.1:1") == true, "\(lines)")
    #expect(lines.first?.contains("connection refused") == true, "\(lines)")
  }

  @Test func theClusterSaysAnUnreachableDatabaseOnceBeforeAnyNodeStarts() throws {
    let (status, lines) = try run(
      "showcase-cluster", ["--nodes", "2", "--port", "0", "--database", Self.unreachable])
    #expect(status == 2)
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.hasPrefix("showcase-cluster: ") == true, "\(lines)")
    let expected = "127.0.0.1:1/postgres: cannot connect: connection refused"
    #expect(lines.first?.contains(expected) == true, "\(lines)")
  }

  @Test func aCorruptListFileIsNamedInOneLineAndKept() throws {
    let folder = freshDataFolder()
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let file = folder + "/todos.sqlite"
    let garbage = Data(repeating: 0x5A, count: 4096)
    try garbage.write(to: URL(fileURLWithPath: file))
    let (status, lines) = try run("showcase", ["--web", "--port", "0", "--data", folder])
    #expect(status == 2)
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.contains(file) == true, "\(lines)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == garbage, "left as it was")
  }
}
