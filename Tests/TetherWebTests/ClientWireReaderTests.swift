import Foundation
import Testing
import TetherTesting

@_spi(Fuzzing) @testable import TetherWeb

/// The page's messages are read by the protocol's own JSON reader: whatever it takes,
/// Foundation's `JSONDecoder` reads as the same message, and what it refuses gets a clear error.
@Suite struct ClientWireReaderTests {
  @Test(arguments: [
    #"{"type":"click","id":"s1.2","g":7}"#,
    #"  {  "g" : 1 , "id" : "s1.0" , "type" : "click" }  "#,
    #"{"type":"key","key":"ArrowDown","g":2}"#,
    #"{"type":"navigate","path":"/photos/12","g":3}"#,
    #"{"type":"dismiss","g":4}"#,
    #"{"type":"hello","secret":"abc","token":"t.1","shown":"d"}"#,
    #"{"type":"input","id":"s1.name","value":"Ada \"Lovelace\" \\ \/ \b\f\n\r\t","seq":3}"#,
    #"{"type":"input","id":"s1.name","value":"\u00e9\u4e2d\ud83d\ude00 é中😀","seq":0}"#,
    #"{"type":"check","id":"s1.done","checked":true,"ver":2,"g":5}"#,
    #"{"type":"check","id":"s1.done","checked":false,"ver":null,"g":5}"#,
    #"{"type":"click","id":"s1.2","g":6,"extra":{"a":[1,-2.5e+3,true,false,null,"x",{}],"b":[]}}"#,
    #"{"type":"upload","id":"s1.f","files":[{"name":"a.png","size":3,"type":"image/png"},{"name":"b","size":0,"more":1}],"g":8}"#,
    #"{"type":"hook","id":"s1.h","event":"copied","value":null,"g":9}"#,
    #"{"type":"click","id":"s1.2","g":-0}"#,
  ])
  func aMessageJSONDecoderReadsIsReadTheSame(_ text: String) throws {
    #expect(ClientMessage.readersDisagree(on: text) == nil)
    // Read, not refused: the comparison above holds only for what the reader takes.
    #expect(throws: Never.self) { try ClientWireReader.read(text) }
  }

  @Test func escapesAndCharactersBeyondTheBasicPlaneAreDecoded() throws {
    let envelope = try ClientEnvelope(
      decoding: #"{"type":"input","id":"s1.n","value":"a\u00e9\ud83d\ude00\n中","seq":1}"#)
    #expect(envelope.messages == [.input(id: "s1.n", value: "aé😀\n中", sequence: 1)])
  }

  @Test(arguments: [
    ("", "expected {"),
    ("null", "expected {"),
    ("[]", "expected {"),
    (#"{"type":"click""#, "expected , or }"),
    (#"{"type":"click","id":"a"} x"#, "text after the message"),
    (#"{"type":"click","type":"key"}"#, "the key type twice"),
    (#"{"id":"a"}"#, "a message needs a type"),
    (#"{"type":null}"#, "expected \""),
    (#"{"type":"click","id":"a","g":1.0}"#, "a number that is not whole"),
    (#"{"type":"click","id":"a","g":1e3}"#, "a number that is not whole"),
    (#"{"type":"click","id":"a","g":99999999999999999999}"#, "a number too large"),
    (#"{"type":"click","id":"a","g":-9223372036854775809}"#, "a number too large"),
    (#"{"type":"click","id":"a","g":01}"#, "expected , or }"),
    (#"{"type":"click","id":"a\ud800"}"#, "half of a surrogate pair"),
    (#"{"type":"click","id":"a\udc00"}"#, "half of a surrogate pair"),
    (#"{"type":"click","id":"a\x"}"#, "an unknown escape"),
    (#"{"type":"click","id":"a\u12"}"#, "\\u escape"),
    ("{\"type\":\"click\",\"id\":\"a\u{1}\"}", "a control character in a string"),
    (#"{"type":"click","id":"a"#, "a string with no end"),
    (#"{"type":"click",}"#, "expected a key"),
    (#"{"type":"check","id":"a","checked":1}"#, "expected true or false"),
    (#"{"type":"upload","id":"a","files":[{"name":"x"}]}"#, "a file needs a name and a size"),
    (#"{"type":"click","id":"a","x":tru}"#, "expected a value"),
    (#"{"type":"click","id":"a","x":-}"#, "expected a value"),
    (#"{"type":"click","id":"a","x":1.}"#, "no digits after its point"),
  ])
  func aMalformedMessageIsRefusedSayingWhy(_ text: String, _ reason: String) {
    do {
      _ = try ClientWireReader.read(text)
      Issue.record("\(text) was read")
    } catch {
      guard case .malformed(let message) = error else {
        Issue.record("\(text): \(error), not malformed")
        return
      }
      #expect(message.contains(reason), "\(text): \(message)")
      #expect(message.count <= 200)
    }
  }

  @Test func valuesNestedPastThirtyTwoLevelsUnderAnUnknownKeyAreRefused() {
    let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
    let shallow = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
    #expect(throws: WebSessionError.self) {
      try ClientWireReader.read(#"{"type":"click","id":"a","x":"# + deep + "}")
    }
    #expect(throws: Never.self) {
      try ClientWireReader.read(#"{"type":"click","id":"a","x":"# + shallow + "}")
    }
  }

  /// Thousands of messages made from good ones by changing, inserting and deleting bytes:
  /// whatever the reader takes, `JSONDecoder` reads the same.
  @Test func mutatedMessagesTheReaderTakesAreReadTheSameByJSONDecoder() {
    let seeds = [
      #"{"type":"click","id":"s1.2","g":7}"#,
      #"{"type":"input","id":"s1.n","value":"a\u00e9\"b","seq":12,"x":[1,{"y":null}]}"#,
      #"{"type":"upload","id":"s1.f","files":[{"name":"a","size":3,"type":"t"}],"g":1}"#,
      #"{"type":"check","id":"c","checked":true,"ver":-4,"g":2}"#,
    ]
    let alphabet = Array(#"{}[]":,\ 0123456789-+.eEtruefalsn"u\abcd"#.utf8) + [0xC3, 0xA9]
    var random = SeededRandomNumberGenerator(seed: 53)
    var read = 0
    for round in 0..<6_000 {
      var bytes = Array(seeds[round % seeds.count].utf8)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let position = Int.random(in: 0..<bytes.count, using: &random)
        let byte = alphabet.randomElement(using: &random) ?? 0x20
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[position] = byte
        case 1: bytes.insert(byte, at: position)
        default: if bytes.count > 1 { bytes.remove(at: position) }
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      if let difference = ClientMessage.readersDisagree(on: text) {
        Issue.record("\(text): \(difference)")
        return
      }
      if (try? ClientWireReader.read(text)) != nil { read += 1 }
    }
    // The mutations must leave many messages readable, or the agreement says little.
    #expect(read > 500)
  }
}
