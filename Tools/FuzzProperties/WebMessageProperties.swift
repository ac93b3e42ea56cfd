@_spi(Fuzzing) import TetherWeb

/// The web protocol's `ClientMessage` decoder on any text.
///
/// Input: the message, as UTF-8 (invalid bytes become U+FFFD, as a WebSocket text frame's
/// decoder would refuse or replace them).
/// Properties:
/// - a message that decodes re-encodes (`json`) to text that decodes to the same message;
/// - a message that does not decode is a `WebSessionError` whose description is non-empty and
///   short (at most 300 characters), however long the input: a log line, not an echo;
/// - the same text as a resume token is refused (no input forges a signature), with an error;
/// - whatever the protocol's own reader takes, Foundation's `JSONDecoder` reads as the same
///   message (the reader is a stricter JSON, never a different one).
enum WebMessageProperties {
  /// A signer whose key accepts no code at all: a token the verifier takes from any input
  /// skipped the check. (Whether a MAC can be forged is swift-crypto's to answer, not the
  /// token reader's.)
  private static let signer = WebResumeSigner(keys: [WebResumeKey(authenticator: NoCode())])

  private struct NoCode: WebMessageAuthenticator {
    func authenticationCode(for message: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 32) }
    func isValidAuthenticationCode(_ code: [UInt8], for message: [UInt8]) -> Bool { false }
  }

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    let text = String(decoding: input, as: UTF8.self)
    if let signer {
      do {
        let state = try signer.verify(text)
        throw PropertyViolation("an unsigned input was accepted as a resume token: \(state)")
      } catch let error as PropertyViolation {
        throw error
      } catch {
        // Refused, as it must be.
      }
    }
    if let difference = ClientMessage.readersDisagree(on: text) {
      throw PropertyViolation("\(text): \(difference)")
    }
    do {
      let message = try ClientMessage(decoding: text)
      do {
        let again = try ClientMessage(decoding: message.json)
        try require(again == message, "\(message) re-encoded as \(message.json) is \(again)")
      } catch let error as PropertyViolation {
        throw error
      } catch {
        throw PropertyViolation("\(message) re-encoded as \(message.json) is refused: \(error)")
      }
    } catch let error as WebSessionError {
      let description = error.description
      try require(!description.isEmpty, "an empty error for \(text)")
      try require(
        description.count <= 300,
        "a \(description.count)-character error for a \(input.count)-byte message")
    } catch let error as PropertyViolation {
      throw error
    } catch {
      throw PropertyViolation("decoding threw \(error), not a WebSessionError")
    }
  }
}
