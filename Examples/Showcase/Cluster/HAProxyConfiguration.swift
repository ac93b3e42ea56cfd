import Foundation

/// The HAProxy configuration of a showcase cluster: one HTTP front end on loopback, round robin
/// over the nodes with no stickiness (any node resumes any session), health checks on
/// `/health`, WebSocket upgrades passed through, and a failed connection retried on another
/// node so a dead one costs a page nothing but a reconnect.
struct HAProxyConfiguration {
  /// The front end's port.
  var port: Int
  /// The nodes' ports on 127.0.0.1.
  var nodePorts: [Int]

  var text: String {
    let servers = nodePorts.enumerated().map { index, port in
      "  server node\(index + 1) 127.0.0.1:\(port) check"
    }
    return """
      global
        maxconn 4096

      defaults
        mode http
        # A connection to a node that just died is refused at once; HAProxy waits up to this
        # long before retrying it elsewhere, so keep it short on loopback.
        timeout connect 250ms
        timeout client 1h
        timeout server 1h
        # An upgraded WebSocket is a tunnel: it may stay idle as long as its page is open.
        timeout tunnel 1h
        timeout http-request 10s
        # A node that refuses the connection (it died) is retried on another.
        retries 3
        option redispatch 1
        # The nodes trust this proxy's X-Forwarded-For: a page load counts against its
        # browser's address, not the proxy's.
        option forwardfor

      frontend showcase
        bind 127.0.0.1:\(port)
        default_backend nodes

      backend nodes
        balance roundrobin
        option httpchk
        http-check send meth GET uri /health
        http-check expect status 200
        default-server inter 500ms fastinter 250ms downinter 500ms fall 1 rise 1
      \(servers.joined(separator: "\n"))

      """
  }
}

/// Where `haproxy` is, if it is installed: on `PATH` or in the system folders Debian and
/// Homebrew use (`/usr/sbin` is not on every user's `PATH`).
func findHAProxy(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
  let path = environment["PATH"]?.split(separator: ":").map(String.init) ?? []
  let folders =
    path + ["/usr/sbin", "/usr/local/sbin", "/sbin", "/opt/homebrew/bin", "/usr/local/bin"]
  return folders.map { $0 + "/haproxy" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
