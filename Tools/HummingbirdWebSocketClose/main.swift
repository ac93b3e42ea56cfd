// A Hummingbird app whose WebSocket routes close every socket (at once, or after one
// message) or hold it open (`/ws-hold`), and its heap in use at `/heap`: the smallest server
// that shows the memory a closed or an idle WebSocket costs, with no Tether in it. `WebSecurityTests` compares it with the
// showcase; it is also the reproduction to report upstream:
//
//   swift run --package-path Examples hummingbird-ws-close   # prints its address
//   then let the server close 3,000 sockets at /ws-read, reading /heap before and after
//   (REPORT.md has the steps and the figures).
import Foundation
import HeapStatistics
import Hummingbird
import HummingbirdWebSocket
import Logging

var logger = Logger(label: "hummingbird-ws-close")
logger.logLevel = .critical
let router = Router(context: BasicWebSocketRequestContext.self)
router.get("heap") { _, _ in "\(heap_statistics_bytes_in_use())" }
router.ws("ws") { _, outbound, _ in
  try await outbound.close(.unknown(4404), reason: "")
}
// Open until the client closes it: what an idle socket costs.
router.ws("ws-hold") { inbound, _, _ in
  for try await _ in inbound.messages(maxSize: 4_096) {}
}
// The same after reading one message, as a server that waits for a hello does.
router.ws("ws-read") { inbound, outbound, _ in
  var messages = inbound.messages(maxSize: 4_096).makeAsyncIterator()
  _ = try await messages.next()
  try await outbound.close(.unknown(4404), reason: "")
}
let app = Application(
  router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
  configuration: .init(address: .hostname("127.0.0.1", port: 0)),
  onServerRunning: { channel in
    FileHandle.standardOutput.write(
      Data("http://127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8))
  },
  logger: logger)
try await app.runService()
