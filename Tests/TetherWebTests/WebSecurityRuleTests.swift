import Testing
import Tether

@_spi(HandBuilt) @testable import TetherWeb

@Suite struct WebHostAllowlistTests {
  @Test func aLoopbackServerAnswersToLoopbackNamesOnAnyPort() {
    let hosts = WebHostAllowlist(binding: "127.0.0.1")
    for allowed in ["127.0.0.1:8080", "localhost", "LOCALHOST:1", "[::1]:8080", "127.0.0.1"] {
      #expect(hosts.allows(allowed), "\(allowed)")
    }
  }

  @Test func aRebindingNameOrAMalformedHostIsRefused() {
    let hosts = WebHostAllowlist(binding: "127.0.0.1")
    for refused in [
      "attacker.example", "attacker.example:8080", "127.0.0.1.attacker.example", "", "a b",
      "127.0.0.1:80:80x", "[::1", "localhost:port", "evil\n.example",
    ] {
      #expect(!hosts.allows(refused), "\(refused)")
    }
    #expect(hosts.allows(nil), "no Host at all is no browser's request (a health check)")
  }

  @Test func namedHostsAreTheOnlyOnes() {
    let hosts = WebHostAllowlist(["Todo.Example.com", "10.0.0.5:8080"])
    #expect(hosts.names == ["todo.example.com", "10.0.0.5"])
    #expect(hosts.allows("todo.example.com:443"))
    #expect(hosts.allows("10.0.0.5"))
    #expect(!hosts.allows("localhost"))
    #expect(WebHostAllowlist(binding: "todo.example.com").names == ["todo.example.com"])
    #expect(WebHostAllowlist(binding: "0.0.0.0").names == ["127.0.0.1", "localhost", "::1"])
  }
}

@Suite struct WebLogTextTests {
  @Test func controlCharactersAreEscapedSoNoLineIsForged() {
    let escaped = WebLogText.escaped("x\nFORGED: admin\r\u{1B}[2J\u{2028}\u{85}\\")
    #expect(escaped == #"x\nFORGED: admin\r\u{1b}[2J\u{2028}\u{85}\\"#)
    #expect(!escaped.contains("\n") && !escaped.contains("\r"))
  }

  @Test func theLimitIsOnWhatIsWritten() {
    #expect(WebLogText.escaped(String(repeating: "a", count: 500)).count == 121)
    let newlines = WebLogText.escaped(String(repeating: "\n", count: 500), limit: 10)
    #expect(newlines == #"\n\n\n\n\n…"#)
    #expect(WebLogText.escaped("日本語", limit: 2) == "日本…")
  }

  @Test func aRefusalCarriesTheClientsTextEscaped() {
    let error = WebSessionError.unknownType("x\nFORGED")
    #expect(error.description == #"unknown message type 'x\nFORGED'"#)
    #expect(WebSessionError.noHandler(id: "\u{1B}]0;title\u{7}").description.contains(#"\u{1b}"#))
  }
}

@MainActor
@Suite struct ImageSourceTests {
  private func html(_ source: String) -> String {
    Image(source: Property(value: source), description: "A photo")
      .render(id: "s1.img", in: WebRenderContext()).html
  }

  @Test func addressesFromDataThatAreNotImagesAreNotLoaded() {
    // A page path would open a session per image load; a script URL is never an image.
    for refused in [
      "/gallery", "/", "javascript:alert(1)", "JAVASCRIPT:alert(1)", "//attacker.example/x.png",
      "data:text/html;base64,PHNjcmlwdD4=", "data:image/svg+xml;base64,PHN2Zz4=", "vbscript:x",
      "/images/../gallery", "ftp://example.com/a.png", " https://example.com/a.png",
    ] {
      let page = html(refused)
      #expect(!page.contains("<img"), "\(refused): \(page)")
      #expect(page.contains("A photo"), "the description stands in for it")
    }
  }

  @Test func webAndOwnImageAddressesAreLoaded() {
    for allowed in [
      "https://example.com/photo.jpg", "http://127.0.0.1:8081/images/1.png",
      "/images/photos/230200335.png", "data:image/png;base64,iVBORw0KGgo=",
    ] {
      #expect(html(allowed).contains("<img"), "\(allowed)")
    }
  }
}
