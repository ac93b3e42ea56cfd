import Foundation
import ShowcaseBrowser
import Testing

/// Uploads in a real browser: the Gallery takes photos from the device through its file input.
/// A test instrument on the page holds the socket's binary frames back (as a slow network
/// would) so a file can be seen partway and cancelled there; the page's own script is the one
/// served.
extension EndToEnd {
  @Suite(.serialized, .enabled(if: browserIsInstalled, "needs chromium and chromedriver"))
  struct GalleryUploadEndToEndTests {
    /// Holds every binary frame after the first `window.__passChunks` until `__release()`.
    static let throttle = """
      window.__passChunks = Infinity; window.__held = []; window.__sentChunks = 0;
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        if (typeof data !== "string") {
          if (window.__sentChunks >= window.__passChunks) {
            window.__held.push([this, data]);
            return;
          }
          window.__sentChunks += 1;
        }
        return send.call(this, data);
      };
      window.__release = () => {
        window.__passChunks = Infinity;
        for (const [socket, data] of window.__held.splice(0)) {
          window.__sentChunks += 1;
          send.call(socket, data);
        }
      };
      """

    /// A 1×1 PNG.
    static let pixel = Data(
      base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    )

    static func file(_ name: String, _ data: Data, in directory: URL) throws -> String {
      let url = directory.appendingPathComponent(name)
      try data.write(to: url)
      return url.path
    }

    @Test func aPhotoIsShownItsProgressSeenAndCancelledAndRefusedFilesSayWhy() async throws {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tether-upload-test-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let pixel = try #require(Self.pixel)
      // A PNG of 1.5 MB: the pixel's bytes, then padding the image's end ignores.
      let large = pixel + Data(repeating: 0, count: 1_500_000 - pixel.count)
      let paths = (
        pixel: try Self.file("pixel.png", pixel, in: directory),
        large: try Self.file("large.png", large, in: directory),
        text: try Self.file("notes.txt", Data("notes".utf8), in: directory),
        huge: try Self.file("huge.png", pixel + Data(repeating: 0, count: 2_100_000), in: directory)
      )

      let showcase = try await WebShowcase()
      let browser = try await Browser(width: 900, height: 1000)
      do {
        try await browser.runOnEveryNewDocument(Self.throttle)
        try await browser.open(showcase.url + "/gallery")
        let input = ".add-photo input[type=file]"
        try await browser.waitUntil("the file input") { try await browser.count(input) == 1 }

        // A small photo arrives and is shown under the list.
        try await browser.sendKeys(paths.pixel, to: try await browser.waitForElement(input))
        try await browser.waitUntil("the photo shown") {
          try await browser.count(".added-photo img[alt='pixel.png']") == 1
        }
        let source = try await browser.run(
          "return document.querySelector('.added-photo img').getAttribute('src')")
        #expect((source as? String)?.hasPrefix("data:image/png;base64,iVBORw0KGgo") == true)
        #expect(try await browser.count(".add-photo li") == 0, "taken off the list once shown")

        // A large one is held after 16 chunks: its progress shows 17%.
        try await browser.run("window.__passChunks = window.__sentChunks + 16")
        try await browser.sendKeys(paths.large, to: try await browser.waitForElement(input))
        try await browser.waitUntil("partway") {
          let value = try await browser.run(
            "const p = document.querySelector('.add-photo progress'); return p ? p.value : -1")
          return (value as? Int ?? -1) == 17  // 16 chunks of 16,380 bytes of 1.5 MB
        }
        #expect(try await browser.text(".add-photo li .upload-name") == "large.png")
        try await browser.click(".add-photo li button")
        try await browser.waitUntil("cancelled") {
          try await browser.text(".add-photo .upload-status") == "Cancelled"
        }
        // What the page had sent already is dropped by the server at no charge: the socket
        // stays, and the photo is not shown.
        try await browser.run("window.__release()")
        try await browser.click(".add-photo li button")  // Remove
        try await browser.waitUntil("the entry removed") {
          try await browser.count(".add-photo li") == 0
        }
        #expect(try await browser.count(".added-photo") == 1)

        // Files the rules refuse send nothing and say why.
        let held = try await browser.run("return window.__sentChunks") as? Int
        try await browser.sendKeys(
          paths.text + "\n" + paths.huge, to: try await browser.waitForElement(input))
        try await browser.waitUntil("the refusals") {
          try await browser.count(".add-photo .upload-refused") == 2
        }
        let refusals =
          try await browser.run(
            "return [...document.querySelectorAll('.add-photo .upload-refused')].map(e => e.textContent)"
          ) as? [String]
        #expect(
          refusals == [
            "text/plain files are not accepted.", "Larger than 2 MB, the most accepted.",
          ])
        #expect(try await browser.run("return window.__sentChunks") as? Int == held)

        // A file dropped on the input's area goes the same way.
        try await browser.run(
          """
          const bytes = Uint8Array.from(atob(arguments[0]), (c) => c.charCodeAt(0));
          const transfer = new DataTransfer();
          transfer.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
          const zone = document.querySelector(".add-photo .upload-drop");
          zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true }));
          """, [pixel.base64EncodedString()])
        try await browser.waitUntil("the dropped photo") {
          try await browser.count(".added-photo img[alt='dropped.png']") == 1
        }
        #expect(try await browser.count(".added-photo") == 2)
      } catch {
        await browser.quit()
        _ = await showcase.stop()
        throw error
      }
      await browser.quit()
      _ = await showcase.stop()
    }
  }
}
