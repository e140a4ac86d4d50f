import Testing
import TextSupport

@Suite struct PrintableTextTests {
    @Test func asciiReplacesEverythingElseAndCapsTheWidth() {
        #expect(PrintableText.ascii("ok\u{1B}[2J é\n", width: 64) == "ok?[2J ??")
        #expect(PrintableText.ascii("abcdef", width: 3) == "abc")
        #expect(PrintableText.ascii("a\u{7F}b", width: 3) == "a?b")
        #expect(PrintableText.ascii("abc", width: -1) == "")
        // A replaced scalar counts towards the width like any other.
        #expect(PrintableText.ascii("\u{0}\u{0}\u{0}x", width: 2) == "??")
    }

    @Test func asciiCanDropInsteadOfReplacing() {
        #expect(PrintableText.ascii("gps\u{7}d \u{202E}err", width: 200, replacement: nil) == "gpsd err")
        #expect(PrintableText.ascii("\u{0}\u{0}abc", width: 2, replacement: nil) == "ab")
    }

    @Test func unicodeKeepsPrintableTextButNotControlsOrBidiOverrides() {
        #expect(PrintableText.unicode("52.5° Straße", width: 40) == "52.5° Straße")
        #expect(PrintableText.unicode("a\u{1B}b\u{85}c\u{202E}d\u{2067}e", width: 40) == "a?b?c?d?e")
        #expect(PrintableText.unicode("東京タワー", width: 2) == "東京")
        #expect(PrintableText.unicode("abc", width: -5) == "")
    }
}
