import Testing

@testable import TetherTerminal

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("a", 1), ("é", 1), ("e\u{301}", 1), ("东", 2), ("한", 2), ("カ", 2), ("Ｆ", 2),
    ("🌅", 2), ("👩‍💻", 2), ("❤️", 2), ("🇯🇵", 2), ("\u{200B}", 0), ("\u{1B}", 0), ("\u{7F}", 0),
    ("Ж", 1), ("…", 1), ("₩", 1),
  ])
  func characterWidths(text: String, width: Int) {
    #expect(text.count == 1)
    #expect(DisplayWidth.of(text) == width)
  }

  @Test func stringWidthSumsClusters() {
    #expect(DisplayWidth.of("单诗涵 国家大剧院 北京") == 22)  // ten CJK characters, two spaces
    #expect(DisplayWidth.of("Юля") == 3)
    #expect(DisplayWidth.of("Golden hour 🌅") == 14)
    #expect(DisplayWidth.of("") == 0)
  }

  @Test func truncationNeverSplitsAWideCharacter() {
    #expect("东京塔塔".truncated(toWidth: 8) == "东京塔塔")
    #expect("东京塔塔".truncated(toWidth: 7) == "东京塔…")
    #expect("东京塔塔".truncated(toWidth: 6) == "东京…")
    #expect("东京塔塔".truncated(toWidth: 4) == "东…")
    #expect("东京塔塔".truncated(toWidth: 2) == "…")
    #expect("abcdef".truncated(toWidth: 4) == "abc…")
    #expect("abc".truncated(toWidth: 0) == "")
    for width in 0...12 {
      #expect(DisplayWidth.of("korea restaurant 韩国餐厅 🌅".truncated(toWidth: width)) <= width)
    }
  }
}

@Suite struct CanvasTests {
  @Test func drawsTextAndClips() {
    var canvas = Canvas(width: 10, height: 2)
    #expect(canvas.draw("hello world", x: 0, y: 0) == 10)
    canvas.draw("x", x: -3, y: 1)
    canvas.draw("y", x: 20, y: 1)
    canvas.draw("z", x: 0, y: 5)
    #expect(canvas.text == "hello wor…\n")
  }

  @Test func wideCharactersTakeTwoCellsAndAlignColumns() {
    var canvas = Canvas(width: 12, height: 2)
    canvas.draw("东京|", x: 0, y: 0)
    canvas.draw("abcd|", x: 0, y: 1)
    #expect(canvas.text == "东京|\nabcd|")
    #expect(canvas[1, 0]?.isContinuation == true)
    #expect(canvas[4, 0]?.content == "|")
  }

  @Test func wideCharacterDoesNotFitInTheLastColumn() {
    var canvas = Canvas(width: 5, height: 1)
    canvas.draw("ab", x: 0, y: 0)
    canvas.draw("东", x: 4, y: 0)
    // One column cannot hold it: the cut is shown, and no half character is drawn.
    #expect(canvas.text == "ab  …")
    #expect(canvas[4, 0]?.isContinuation == false)
  }

  @Test func overwritingHalfAWideCharacterClearsTheOtherHalf() {
    var canvas = Canvas(width: 6, height: 1)
    canvas.draw("东京", x: 0, y: 0)
    canvas.draw("x", x: 1, y: 0)  // right half of 东
    #expect(canvas.text == " x京")
    canvas.draw("y", x: 2, y: 0)  // left half of 京
    #expect(canvas.text == " xy")
    #expect(canvas[3, 0]?.isContinuation == false)
  }

  @Test func controlCharactersNeverReachTheGrid() {
    var canvas = Canvas(width: 12, height: 1)
    canvas.draw("a\u{1B}[2Jb\tc\nd", x: 0, y: 0)
    #expect(canvas.text == "a[2Jb c d")
  }

  @Test func oddSizesAreSafe() {
    var empty = Canvas(width: 0, height: 0)
    #expect(empty.draw("abc", x: 0, y: 0) == 0)
    #expect(empty.text == "")
    var negative = Canvas(width: -4, height: 3)
    negative.fill(x: 0, y: 0, width: 10, height: 10, with: "#")
    #expect(negative.width == 0)
    var narrow = Canvas(width: 1, height: 1)
    narrow.draw("东", x: 0, y: 0)
    #expect(narrow.text == "…")
  }
}

@Suite struct FrameDiffTests {
  @Test func firstFrameRedrawsEverything() {
    var canvas = Canvas(width: 4, height: 2)
    canvas.draw("ab", x: 0, y: 0)
    let output = FrameDiff.output(from: nil, to: canvas)
    #expect(output.hasPrefix("\u{1B}[0m\u{1B}[2J"))
    #expect(output.contains("ab"))
    #expect(output.hasSuffix("\u{1B}[0m"))
  }

  @Test func unchangedFrameWritesNothing() {
    var canvas = Canvas(width: 4, height: 2)
    canvas.draw("ab", x: 0, y: 0)
    #expect(FrameDiff.output(from: canvas, to: canvas) == "")
  }

  @Test func onlyChangedCellsAreWritten() {
    var old = Canvas(width: 20, height: 3)
    old.draw("Loading photos", x: 0, y: 1)
    var new = old
    new.draw("R", x: 0, y: 1)
    let output = FrameDiff.output(from: old, to: new)
    #expect(output == "\u{1B}[2;1H\u{1B}[0mR\u{1B}[0m")
  }

  @Test func wideCharactersAreWrittenOnceAndStylesOnlyWhenTheyChange() {
    let old = Canvas(width: 10, height: 1)
    var new = old
    new.draw("东京", x: 0, y: 0, style: CellStyle(inverse: true))
    let output = FrameDiff.output(from: old, to: new)
    #expect(output == "\u{1B}[1;1H\u{1B}[0;7m东京\u{1B}[0m")
  }

  @Test func resizeRedrawsEverything() {
    let old = Canvas(width: 10, height: 2)
    let new = Canvas(width: 12, height: 2)
    #expect(FrameDiff.output(from: old, to: new).contains("\u{1B}[2J"))
  }
}

@Suite struct KeyParserTests {
  private func keys(_ text: String) -> [Key] {
    var parser = KeyParser()
    return parser.feed(Array(text.utf8)) + parser.flush()
  }

  @Test func bothArrowEncodings() {
    #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
    #expect(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
  }

  @Test func severalKeysInOneRead() {
    #expect(
      keys("jk\r\u{1B}[Bq") == [.character("j"), .character("k"), .enter, .down, .character("q")])
    #expect(keys("\u{3}\u{7F}\t") == [.control("c"), .backspace, .tab])
  }

  @Test func sequencesSplitAcrossReads() {
    var parser = KeyParser()
    #expect(parser.feed([0x1B]) == [])
    #expect(parser.hasPending)
    #expect(parser.feed([UInt8(ascii: "[")]) == [])
    #expect(parser.feed([UInt8(ascii: "A"), UInt8(ascii: "x")]) == [.up, .character("x")])
    let euro = Array("€".utf8)
    #expect(parser.feed([euro[0]]) == [])
    #expect(parser.feed(Array(euro[1...])) == [.character("€")])
  }

  @Test func loneEscapeIsKnownOnlyAfterAPause() {
    var parser = KeyParser()
    #expect(parser.feed([0x1B]) == [])
    #expect(parser.flush() == [.escape])
    #expect(keys("\u{1B}\u{1}") == [.escape, .control("a")])
  }

  @Test func altAndShiftTab() {
    #expect(keys("\u{1B}b\u{1B}f") == [.alt("b"), .alt("f")], "what Meta-B and Meta-F send")
    #expect(keys("\u{1B}[Z") == [.backTab])
  }

  @Test func aBracketedPasteIsTextNeverKeys() {
    // Line breaks, a tab, an Escape and a q inside a paste press nothing.
    let pasted = "line one\r\nq\tline two\u{1B}x"
    #expect(
      keys("a\u{1B}[200~\(pasted)\u{1B}[201~b") == [
        .character("a"), .paste(pasted), .character("b"),
      ])
    // Markers split across reads, anywhere.
    let stream = Array("\u{1B}[200~日本\u{1B}[201~".utf8)
    for cut in 1..<stream.count {
      var parser = KeyParser()
      let split = parser.feed(Array(stream[..<cut])) + parser.feed(Array(stream[cut...]))
      #expect(split == [.paste("日本")], "cut at \(cut)")
    }
  }

  @Test func aPasteWithNoEndEndsAtAPauseAndAHugeOneComesInChunks() {
    var parser = KeyParser()
    #expect(parser.feed(Array("\u{1B}[200~half a paste".utf8)) == [])
    #expect(parser.flush() == [.paste("half a paste")])
    #expect(parser.feed(Array("q".utf8)) == [.character("q")], "later keys are keys again")
    // Over a chunk with its end not yet come: what came is delivered, never split inside a
    // character, and the rest follows when the end marker does.
    let text = String(repeating: "é", count: KeyParser.pasteChunk)  // two bytes each
    var big = KeyParser()
    let first = big.feed(Array("\u{1B}[200~\(text)".utf8))
    let rest = big.feed(Array("\u{1B}[201~".utf8))
    let pasted = (first + rest).map { key -> String in
      if case .paste(let part) = key { return part }
      return "?"
    }
    #expect(first.count == 1 && rest.count == 1 && pasted.joined() == text)
    #expect(!pasted.joined().contains("\u{FFFD}"))
  }

  @Test func editingKeysAndUnknownSequences() {
    #expect(
      keys("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[H\u{1B}[4~") == [
        .pageUp, .pageDown, .delete, .home, .end,
      ])
    #expect(keys("\u{1B}[99z") == [.unknown(Array("\u{1B}[99z".utf8))])
    #expect(keys("东🌅") == [.character("东"), .character("🌅")])
    #expect(keys("") == [])
  }

  @Test func invalidBytesDoNotStopParsing() {
    var parser = KeyParser()
    #expect(parser.feed([0xFF, UInt8(ascii: "a")]) == [.unknown([0xFF]), .character("a")])
  }
}
