import Foundation

/// Reads a child process's standard output until `port(in:)` finds the port it announces, the
/// output ends, or `seconds` pass.
///
/// - Parameters:
///   - output: The pipe the child writes its standard output to.
///   - seconds: How long to wait at most.
///   - port: Finds the announced port in the output read so far, or `nil`.
/// - Returns: The port, or `nil` with the first 200 characters read (for the error).
public func announcedPort(
  on output: Pipe, within seconds: TimeInterval = 30, port: (String) -> Int?
) -> (port: Int?, output: String) {
  var text = ""
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    let data = output.fileHandleForReading.availableData
    if data.isEmpty { break }
    text += String(decoding: data, as: UTF8.self)
    if let found = port(text) { return (found, text) }
  }
  return (nil, String(text.prefix(200)))
}
