/// The lines `showcase-cluster` prints about its nodes, written and read in one place: the
/// cluster prints them, the load tool and the tests read them.
public enum ClusterAnnouncement {
  /// A node listening: `node 2 at http://127.0.0.1:41673 (pid 6419)`.
  ///
  /// - Parameters:
  ///   - number: The node's number, from 1.
  ///   - port: Its port on 127.0.0.1.
  ///   - pid: Its process id.
  /// - Returns: The line, without a newline.
  public static func node(_ number: Int, port: Int, pid: Int32) -> String {
    "node \(number) at http://127.0.0.1:\(port) (pid \(pid))"
  }

  /// Each node's port and newest pid, by number, from every line printed so far (a node
  /// started again prints its new pid).
  ///
  /// - Parameter lines: The cluster's output, a line each.
  /// - Returns: The nodes.
  public static func nodes(in lines: [String]) -> [Int: (port: Int, pid: Int32)] {
    var nodes: [Int: (port: Int, pid: Int32)] = [:]
    for line in lines {
      let words = line.split(separator: " ")
      guard words.count == 6, words[0] == "node", words[2] == "at", let number = Int(words[1]),
        let port = words[3].split(separator: ":").last.flatMap({ Int($0) }),
        words[4] == "(pid", let pid = Int32(words[5].dropLast())
      else { continue }
      nodes[number] = (port, pid)
    }
    return nodes
  }

  /// The front end: `Serving the showcase at http://127.0.0.1:8080`, as every showcase web
  /// server prints once it listens.
  public static let servingPrefix = "Serving the showcase at http://"

  /// The port in a `Serving the showcase at http://host:port` line, if `text` has one.
  ///
  /// - Parameter text: Output so far.
  /// - Returns: The port.
  public static func servingPort(in text: some StringProtocol) -> Int? {
    guard let start = text.range(of: servingPrefix) else { return nil }
    let address = text[start.upperBound...].prefix { !$0.isWhitespace }
    guard let colon = address.lastIndex(of: ":") else { return nil }
    let digits = address[address.index(after: colon)...]
    return digits.isEmpty ? nil : Int(digits)
  }

  /// A node that ended and is being started again: `node 2 (pid 6419) ended: signal 9;
  /// restarting`.
  ///
  /// - Parameters:
  ///   - number: The node's number.
  ///   - pid: The process that ended.
  ///   - how: How it ended, such as `signal 9`.
  /// - Returns: The line, without a newline.
  public static func restarting(_ number: Int, pid: Int32, how: String) -> String {
    "node \(number) (pid \(pid)) ended: \(how); restarting"
  }

  /// How many restarts the cluster announced.
  ///
  /// - Parameter lines: The cluster's output.
  /// - Returns: How many restarts it announced.
  public static func restarts(in lines: [String]) -> Int {
    lines.filter { $0.hasPrefix("node ") && $0.hasSuffix("; restarting") }.count
  }
}
