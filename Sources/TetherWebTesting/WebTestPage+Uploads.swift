import Foundation
import TetherFlow
import TetherWeb

/// A file a page test chooses (``WebTestPage/upload(_:to:sendingAtMost:)``).
public struct TestFile: Sendable, Equatable {
  /// The file's name.
  public var name: String
  /// Its type, such as `image/png`.
  public var type: String
  /// Its bytes.
  public var bytes: [UInt8]

  /// A file of `bytes`.
  ///
  /// - Parameters:
  ///   - name: The file's name.
  ///   - type: Its type.
  ///   - bytes: Its bytes.
  public init(name: String, type: String, bytes: [UInt8]) {
    self.name = name
    self.type = type
    self.bytes = bytes
  }

  /// A file of `size` bytes counting up from 0, wrapping at 256.
  ///
  /// - Parameters:
  ///   - name: The file's name.
  ///   - type: Its type.
  ///   - size: Its size in bytes.
  public init(name: String, type: String, size: Int) {
    self.init(
      name: name, type: type, bytes: (0..<max(0, size)).map { UInt8(truncatingIfNeeded: $0) })
  }
}

extension WebTestPage {
  /// Chooses `files` on the file input matching `selector` (a `fileInput(_:label:_:)`'s
  /// `input`, or the control holding it), as a person does, and sends each file the session
  /// takes as the page's script does: in chunks of at most 16 KiB, never more than a window
  /// ahead of what the session has acknowledged.
  ///
  /// - Parameters:
  ///   - files: The files, in order.
  ///   - selector: The file input, or an element holding one.
  ///   - limit: The most bytes of each file to send: a test of a file still arriving sends
  ///     part of it.
  /// - Returns: The reference the session gave each file, or 0 for one it refused.
  /// - Throws: ``Failure`` when no file input matches, the session refuses the offer or a
  ///   chunk, or does not answer.
  @discardableResult
  public func upload(
    _ files: [TestFile], to selector: String, sendingAtMost limit: Int = .max
  ) async throws -> [UInt32] {
    let input = try uploadInput(selector)
    let offers = files.map { FileOffer(name: $0.name, size: $0.bytes.count, type: $0.type) }
    let before = sent.count
    try await send(ClientMessage.upload(id: input, files: offers).json)
    guard let references = signals(since: before).lazy.compactMap(Self.offered(input)).first
    else { throw Failure.timedOut("the session's answer to the files offered") }
    for (file, reference) in zip(files, references) where reference > 0 {
      try await send(file, as: reference, limit: limit)
    }
    await settle()
    return references
  }

  private func send(_ file: TestFile, as reference: UInt32, limit: Int) async throws {
    let header = withUnsafeBytes(of: reference.bigEndian) { Array($0) }
    var offset = 0
    let end = min(limit, file.bytes.count)
    while offset < end {
      // The page's script sends no more than a window ahead of the session's acknowledgement.
      if offset - acknowledged(reference) >= WebUploadReceiver.window {
        try await waitUntil("the session to acknowledge file \(reference)") {
          offset - acknowledged(reference) < WebUploadReceiver.window
            || stopped(reference)
        }
      }
      if stopped(reference) { return }
      let next = min(end, offset + WebUploadReceiver.maximumChunkSize)
      let outcome = session.uploadReceiver.write(header + file.bytes[offset..<next])
      if case .refused(let reason) = outcome {
        throw Failure.diverged("the session refused a chunk: \(reason)")
      }
      offset = next
      await Task.yield()
    }
  }

  private func uploadInput(_ selector: String) throws -> String {
    let element = try element(selector)
    if element.tag == "input", element[attribute: "data-upload"] != nil { return element.id }
    guard let inner = try elements("\(selector) input[data-upload]").first else {
      throw Failure.noElement("a file input matching \(selector)")
    }
    return inner.id
  }

  /// The upload signals of the messages sent since the `index`th.
  private func signals(since index: Int) -> [[Any]] {
    sent.dropFirst(index).flatMap { text -> [[Any]] in
      guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
        let message = object as? [String: Any], let signals = message["u"] as? [[Any]]
      else { return [] }
      return signals
    }
  }

  private static func offered(_ input: String) -> ([Any]) -> [UInt32]? {
    { signal in
      guard signal.count == 3, signal[0] as? String == "o", signal[1] as? String == input,
        let references = signal[2] as? [Int]
      else { return nil }
      return references.map { UInt32(clamping: $0) }
    }
  }

  private func acknowledged(_ reference: UInt32) -> Int {
    signals(since: 0).reduce(0) { bytes, signal in
      guard signal.count == 3, signal[0] as? String == "a", signal[1] as? Int == Int(reference),
        let received = signal[2] as? Int
      else { return bytes }
      return max(bytes, received)
    }
  }

  private func stopped(_ reference: UInt32) -> Bool {
    signals(since: 0).contains { signal in
      signal.count == 2 && signal[0] as? String == "x" && signal[1] as? Int == Int(reference)
    }
  }
}
