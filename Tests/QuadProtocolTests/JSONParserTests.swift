import Testing
@testable import QuadProtocol

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(WireError) -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func parsesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude81""#) == .string("a\"\\/\u{08}\u{0C}\n\r\té🚁"))
        #expect(try parse("\"raw é\"") == .string("raw é"))
    }

    @Test func parsesNumbersLiteralsAndNesting() throws {
        #expect(try parse("-0.5e+2") == .number(-50))
        #expect(try parse(#"{"a":[true,false,null],"b":{}}"#) == .object([
            (key: "a", value: .array([.bool(true), .bool(false), .null])), (key: "b", value: .object([])),
        ]))
    }

    static let invalid: [(String, WireError)] = [
        (#""\ud83d""#, .invalidJSON(offset: 7, reason: "lone surrogate")),
        (#""\x""#, .invalidJSON(offset: 3, reason: "unknown escape")),
        ("\"a\u{01}\"", .invalidJSON(offset: 3, reason: "control character in string")),
        ("\"abc", .invalidJSON(offset: 4, reason: "unterminated string")),
        ("1.", .invalidJSON(offset: 2, reason: "expected digits after '.'")),
        ("-", .invalidJSON(offset: 1, reason: "expected digits")),
        ("tru", .invalidJSON(offset: 3, reason: "expected true")),
        ("[1,]", .invalidJSON(offset: 3, reason: "unexpected character")),
        (String(repeating: "[", count: 17), .invalidJSON(offset: 16, reason: "nested deeper than 16")),
    ]

    @Test(arguments: invalid)
    func rejects(text: String, expected: WireError) {
        #expect(throws: expected) { try parse(text) }
    }

    @Test func deepNestingIsRejectedWithoutRecursingFurther() {
        #expect(throws: WireError.invalidJSON(offset: 16, reason: "nested deeper than 16")) {
            try parse(String(repeating: "[", count: 100_000))
        }
    }

    // gpsd's reading (moved from GroundStationTests): deeper nesting allowed, invalid text read as U+FFFD.
    private func parseGPSD(_ bytes: [UInt8]) throws(WireError) -> JSONValue {
        try JSONValue.parse(bytes, maxDepth: 32, invalidText: .replace)
    }

    @Test func parsesNestedValues() throws {
        let v = try parseGPSD(Array(#" {"a":[1,-2.5e1,true,false,null],"b":{"c":"d"}} "#.utf8))
        #expect(v["a"] == .array([.number(1), .number(-25), .bool(true), .bool(false), .null]))
        #expect(v["b"]?["c"] == .string("d"))
    }

    @Test func decodesEscapesAndSurrogatePairsLeniently() throws {
        let v = try parseGPSD(Array(#""a\"b\\c\/\n\t\u00e9\ud83d\ude00""#.utf8))
        #expect(v == .string("a\"b\\c/\n\té😀"))
    }

    @Test func loneSurrogateBecomesReplacementCharacter() throws {
        #expect(try parseGPSD(Array(#""\ud800x""#.utf8)) == .string("\u{FFFD}x"))
    }

    @Test func keepsMultibyteUTF8() throws {
        #expect(try parseGPSD(Array("\"Straße 東京\"".utf8)) == .string("Straße 東京"))
    }

    @Test(arguments: [
        "", "{", "[1,", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "tru", "nul", "01x", "-", "1.", "1e", ".5", "NaN",
        "Infinity", "\"abc", "\"\\x\"", "\"\\u12G4\"", "{1:2}", "1 2", "\"a\nb\"", "+1", "0x10",
    ])
    func rejectsMalformedInput(_ text: String) {
        #expect(throws: WireError.self) { try parseGPSD(Array(text.utf8)) }
    }

    @Test func reportsWhereItFailed() {
        #expect(throws: WireError.invalidJSON(offset: 6, reason: "expected '}'")) {
            try parseGPSD(Array(#"{"a":1x}"#.utf8))
        }
        #expect(throws: WireError.invalidJSON(offset: 3, reason: "unexpected text after the value")) {
            try parseGPSD(Array("[] x".utf8))
        }
    }

    @Test func capsNesting() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: WireError.invalidJSON(offset: 32, reason: "nested deeper than 32")) {
            try parseGPSD(Array(deep.utf8))
        }
    }

    @Test func repeatedKeyReadsAsTheLastOne() throws {
        #expect(try parseGPSD(Array(#"{"a":1,"a":2}"#.utf8))["a"] == .number(2))
    }

    @Test func hugeExponentIsANumberButNotFinite() throws {
        let v = try parseGPSD(Array("1e400".utf8))
        #expect(v.finiteDouble == nil)
    }

    @Test func survivesArbitraryBytes() {
        // Deterministic pseudo-random garbage: the parser must throw or return, never trap, in either reading.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(state % 40) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(truncatingIfNeeded: state >> 56))
            }
            _ = try? parseGPSD(bytes)
            _ = try? JSONValue.parse(bytes)
            state = state &* 6_364_136_223_846_793_005 &+ 1
        }
    }
}
