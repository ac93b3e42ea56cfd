import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a loopback client's connection failed: cases, never matched by their text.
public enum ConnectionError: Error, Equatable, CustomStringConvertible {
  /// `socket()` failed.
  case noSocket(errno: Int32)
  /// `connect()` to the port failed.
  case connectFailed(port: Int, errno: Int32)
  /// `send()` failed.
  case sendFailed(errno: Int32)
  /// `recv()` failed.
  case receiveFailed(errno: Int32)
  /// Nothing arrived within the read timeout.
  case timedOut
  /// The server closed the connection (end of stream, or a close frame where an answer was
  /// due).
  case closedByServer
  /// The server's HTTP head never ended.
  case incompleteHTTPHead
  /// The server answered the WebSocket upgrade with something other than 101.
  case upgradeRefused(head: String)
  /// An HTTP request got an unexpected status.
  case unexpectedStatus(request: String, status: Int, body: String)
  /// The server sent a frame larger than any message it sends.
  case frameTooLarge(bytes: Int)
  /// A broken session could not be resumed within the time allowed.
  indirect case couldNotResume(seconds: Int, last: ConnectionError?)
  /// Something other than the connection failed.
  case other(String)

  /// The error as a `ConnectionError`: itself, or ``other(_:)`` with its description.
  public init(_ error: any Error) {
    self = error as? ConnectionError ?? .other(String(describing: error))
  }

  /// Whether the peer cut the connection (reset, broken pipe, closed early) rather than
  /// answering wrongly: what a node killed under a client looks like.
  public var isCut: Bool {
    switch self {
    case .closedByServer: true
    case .sendFailed(let code), .receiveFailed(let code): code == ECONNRESET || code == EPIPE
    default: false
    }
  }

  /// What failed, for a log.
  public var description: String {
    switch self {
    case .noSocket(let code): "socket() failed: errno \(code)"
    case .connectFailed(let port, let code): "connect to port \(port) failed: errno \(code)"
    case .sendFailed(let code): "send failed: errno \(code)"
    case .receiveFailed(let code): "recv failed: errno \(code)"
    case .timedOut: "timed out reading"
    case .closedByServer: "the server closed the connection"
    case .incompleteHTTPHead: "no complete HTTP head"
    case .upgradeRefused(let head): "upgrade refused: \(head)"
    case .unexpectedStatus(let request, let status, let body):
      "\(request) answered \(status): \(body)"
    case .frameTooLarge(let bytes): "a \(bytes)-byte frame"
    case .couldNotResume(let seconds, let last):
      "could not resume within \(seconds) s" + (last.map { ": \($0)" } ?? "")
    case .other(let text): text
    }
  }
}

/// A blocking TCP connection to the server on loopback, with the little HTTP and WebSocket
/// (RFC 6455) a load client needs — including the ways to get them wrong on purpose.
///
/// Blocking sockets on one thread per client keep each client's timing its own: a slow
/// server shows up as latency, never as a client waiting for another.
public final class Connection {
  private let descriptor: Int32
  private var buffer: [UInt8] = []

  /// Connects to `127.0.0.1:port` from `source` (any `127.x.y.z` is this machine on Linux);
  /// reads give up after `timeout` seconds.
  public init(port: Int, timeout: Int = 10, from source: String? = nil) throws {
    #if canImport(Darwin)
      let kind = SOCK_STREAM
    #else
      let kind = Int32(SOCK_STREAM.rawValue)
    #endif
    descriptor = socket(AF_INET, kind, 0)
    guard descriptor >= 0 else { throw ConnectionError.noSocket(errno: errno) }
    var limit = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    if let source {
      var local = sockaddr_in()
      local.sin_family = sa_family_t(AF_INET)
      local.sin_addr.s_addr = inet_addr(source)
      let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0 else {
        close(descriptor)
        throw ConnectionError.connectFailed(port: port, errno: errno)
      }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw ConnectionError.connectFailed(port: port, errno: errno)
    }
  }

  deinit { close(descriptor) }

  /// Closes the socket at once (a client that vanishes).
  public func shutDown() { shutdown(descriptor, Int32(SHUT_RDWR)) }

  /// Sends `bytes` whole.
  public func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 {
        if errno == EINTR { continue }
        throw ConnectionError.sendFailed(errno: errno)
      }
      offset += sent
    }
  }

  /// Reads more bytes into the buffer; false at end of stream.
  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        buffer += chunk[..<count]
        return true
      }
      if count == 0 { return false }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { throw ConnectionError.timedOut }
      throw ConnectionError.receiveFailed(errno: errno)
    }
  }

  private func read(exactly count: Int) throws -> [UInt8] {
    while buffer.count < count {
      guard try fill() else { throw ConnectionError.closedByServer }
    }
    let bytes = Array(buffer.prefix(count))
    buffer.removeFirst(count)
    return bytes
  }

  /// Reads an HTTP head (up to the blank line); the body, if any, stays buffered.
  private func readHead() throws -> String {
    let end: [UInt8] = [13, 10, 13, 10]
    while true {
      if let range = firstRange(of: end) {
        let head = String(decoding: buffer[..<range], as: UTF8.self)
        buffer.removeFirst(range + 4)
        return head
      }
      guard buffer.count < 65_536, try fill() else {
        throw ConnectionError.incompleteHTTPHead
      }
    }
  }

  private func firstRange(of pattern: [UInt8]) -> Int? {
    guard buffer.count >= pattern.count else { return nil }
    for start in 0...(buffer.count - pattern.count)
    where buffer[start..<(start + pattern.count)].elementsEqual(pattern) {
      return start
    }
    return nil
  }

  /// `GET path` with `Connection: close`: the status and the whole body.
  ///
  /// - Parameters:
  ///   - path: The path to get.
  ///   - port: The server's port, for the `Host` header.
  ///   - cookie: A `Cookie` header's value to send (a browser's id), if any.
  /// - Returns: The status and the body.
  /// - Throws: ``ConnectionError`` when the exchange fails.
  public func get(_ path: String, port: Int, cookie: String? = nil) throws -> (
    status: Int, body: String
  ) {
    let (status, _, body) = try getWithHead(path, port: port, cookie: cookie)
    return (status, body)
  }

  /// `GET path`, read to the end: the status, the response's head and its body.
  public func getWithHead(_ path: String, port: Int, cookie: String? = nil) throws -> (
    status: Int, head: String, body: String
  ) {
    let cookieLine = cookie.map { "Cookie: \($0)\r\n" } ?? ""
    try send(
      Array(
        ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookieLine)"
          + "Connection: close\r\n\r\n").utf8))
    let head = try readHead()
    while try fill() {}
    let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return (status, head, String(decoding: buffer, as: UTF8.self))
  }

  /// The browser cookie a server issues with a page (`name=value`, as a `Cookie` header
  /// carries it) and the browser's id in it, from a page load without one.
  ///
  /// - Parameters:
  ///   - port: The server's port.
  ///   - path: A page's path.
  ///   - source: The loopback address to load it from: by default one of its own, as a new
  ///     browser has (a server issues one address only so many new browsers).
  /// - Returns: The cookie and the id before its code.
  /// - Throws: ``ConnectionError`` when the page cannot be had or came with no cookie.
  public static func issuedCookie(
    port: Int, path: String = "/", from source: String? = LoadSources.next()
  ) throws -> (cookie: String, clientID: String) {
    let (status, head, _) = try Connection(port: port, from: source).getWithHead(path, port: port)
    if let pair = cookiePair(setIn: head),
      let value = pair.split(separator: "=", maxSplits: 1).last,
      let id = value.split(separator: ".").first, id.count == 32
    {
      return (pair, String(id))
    }
    throw ConnectionError.unexpectedStatus(
      request: "GET \(path) (no cookie)", status: status, body: "")
  }

  /// Upgrades to a WebSocket at `path`, as a page of this server would (same `Origin`).
  public func upgrade(_ path: String, port: Int, cookie: String? = nil) throws {
    let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
    let cookieLine = cookie.map { "Cookie: \($0)\r\n" } ?? ""
    try send(
      Array(
        ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
          + cookieLine
          + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\n"
          + "Sec-WebSocket-Version: 13\r\n\r\n").utf8))
    let head = try readHead()
    guard head.hasPrefix("HTTP/1.1 101") else {
      throw ConnectionError.upgradeRefused(head: String(head.prefix(60)))
    }
  }

  /// A client frame: masked (unless told otherwise), with `length` as declared if given (a
  /// frame that promises more than it carries).
  public static func frame(
    opcode: UInt8, _ payload: [UInt8], masked: Bool = true, declaredLength: Int? = nil
  ) -> [UInt8] {
    var bytes: [UInt8] = [0x80 | opcode]
    let length = declaredLength ?? payload.count
    let maskBit: UInt8 = masked ? 0x80 : 0
    if length < 126 {
      bytes.append(maskBit | UInt8(length))
    } else if length <= 0xFFFF {
      bytes.append(maskBit | 126)
      bytes += [UInt8(length >> 8), UInt8(length & 0xFF)]
    } else {
      bytes.append(maskBit | 127)
      bytes += (0..<8).reversed().map { UInt8((UInt64(length) >> (UInt64($0) * 8)) & 0xFF) }
    }
    guard masked else { return bytes + payload }
    let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
    bytes += mask
    bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    return bytes
  }

  /// Sends `text` as one masked text frame.
  public func sendText(_ text: String) throws {
    try send(Self.frame(opcode: 0x1, Array(text.utf8)))
  }

  /// The next frame the server sends, whatever it is: its opcode (0x1 text, 0x8 close, 0x9
  /// ping, 0xA pong) and payload. Nothing is answered.
  public func receiveFrame() throws -> (opcode: UInt8, payload: [UInt8]) {
    let head = try read(exactly: 2)
    var length = Int(head[1] & 0x7F)
    if length == 126 {
      let bytes = try read(exactly: 2)
      length = Int(bytes[0]) << 8 | Int(bytes[1])
    } else if length == 127 {
      length = try read(exactly: 8).reduce(0) { $0 << 8 | Int($1) }
    }
    guard length <= 64 << 20 else { throw ConnectionError.frameTooLarge(bytes: length) }
    return (head[0] & 0x0F, try read(exactly: length))
  }

  /// The next text message; pings are answered, a close frame ends the stream (`nil`).
  public func receiveText() throws -> String? {
    while true {
      let (opcode, payload) = try receiveFrame()
      switch opcode {
      case 0x1: return String(decoding: payload, as: UTF8.self)
      case 0x8: return nil
      case 0x9: try send(Self.frame(opcode: 0xA, payload))
      default: continue
      }
    }
  }

  /// Reads until the server closes the socket or `seconds` pass; true if it closed it.
  public func waitForClose(seconds: Int) -> Bool {
    let deadline = Date().addingTimeInterval(TimeInterval(seconds))
    while Date() < deadline {
      do {
        if try !fill() { return true }
        buffer.removeAll()
      } catch ConnectionError.timedOut {
        continue
      } catch {
        return true
      }
    }
    return false
  }
}

/// A loopback address of its own for each simulated browser's page loads, as browsers on
/// other machines would have (a server holds only so many unclaimed pages per address). Only
/// on Linux, where all of 127.0.0.0/8 is this machine; elsewhere every load is 127.0.0.1.
public enum LoadSources {
  private static let counter = Mutex(0)

  /// The next source address (`nil` where every load is 127.0.0.1).
  public static func next() -> String? {
    #if os(Linux)
      let number = counter.withLock { value -> Int in
        value += 1
        return value
      }
      return "127.0.\(1 + number / 250 % 250).\(2 + number % 250)"
    #else
      return nil
    #endif
  }
}
