import Testing
@testable import FlightLog

/// TextEscaping and RoundNumber: small formatters every exporter relies on (DecimalText: TextSupportTests).
struct TextFormattingTests {
    @Test func xmlEscapesMarkupAndDropsForbiddenCharacters() {
        #expect(TextEscaping.xml(
            "a<b>&\"'\u{0}\u{8}\t\nz\u{FFFE}") == "a&lt;b&gt;&amp;&quot;&apos;\u{FFFD}\u{FFFD}\t\nz\u{FFFD}")
    }

    @Test func jsonStringEscapes() {
        #expect(TextEscaping.jsonString("a\"\\\n\u{1}") == "\"a\\\"\\\\\\n\\u0001\"")
    }

    @Test(arguments: [(7.3, 5.0), (20.0, 20.0), (0.9, 0.5), (149.0, 100.0), (260.0, 200.0)])
    func roundNumberAtMost(limit: Double, expected: Double) {
        #expect(RoundNumber.atMost(limit) == expected)
    }

    @Test(arguments: [(7.3, 10.0), (20.0, 20.0), (0.9, 1.0), (149.0, 200.0), (260.0, 500.0)])
    func roundNumberAtLeast(limit: Double, expected: Double) {
        #expect(RoundNumber.atLeast(limit) == expected)
    }
}
