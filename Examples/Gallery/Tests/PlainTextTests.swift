import ExampleSupport
import Testing

@Suite struct PlainTextTests {
  @Test func removesTagsAndDecodesEntities() {
    let html =
      #"More on <a href="https://example.org">my site</a> &amp; &lt;portfolio&gt; &quot;x&quot; it&#39;s"#
    #expect(html.plainText(singleLine: true) == #"More on my site & <portfolio> "x" it's"#)
  }

  @Test func singleLineCollapsesAllWhitespace() {
    #expect("  a \n\n b\t c  ".plainText(singleLine: true) == "a b c")
    #expect(
      "Я на других ресурсах: \n<a href=\"x\">instagram</a>".plainText(singleLine: true)
        == "Я на других ресурсах: instagram")
  }

  @Test func multiLineKeepsBreaksAndTrimsLines() {
    #expect("  line one  \n\n  line two \n".plainText(singleLine: false) == "line one\n\nline two")
    #expect("a<br>\n<b>b</b>".plainText(singleLine: false) == "a\nb")
  }

  @Test func leavesUnknownEntitiesAndStrayAmpersandsAlone() {
    #expect("R&D &copy; &unknown".plainText(singleLine: true) == "R&D &copy; &unknown")
    #expect("a&nbsp;b".plainText(singleLine: true) == "a b")
  }

  @Test func emptyAndWideText() {
    #expect("".plainText(singleLine: true) == "")
    #expect("   ".plainText(singleLine: false) == "")
    #expect("雨后的西湖 🌅".plainText(singleLine: true) == "雨后的西湖 🌅")
    #expect("<unterminated".plainText(singleLine: true) == "")
  }
}
