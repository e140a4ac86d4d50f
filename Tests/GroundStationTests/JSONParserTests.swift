import Testing
@testable import GroundStation

@Suite struct JSONParserTests {
    @Test func parsesNestedValues() throws {
        let v = try JSONParser.parse(Array(#" {"a":[1,-2.5e1,true,false,null],"b":{"c":"d"}} "#.utf8))
        #expect(v["a"] == .array([.number(1), .number(-25), .bool(true), .bool(false), .null]))
        #expect(v["b"]?["c"] == .string("d"))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let v = try JSONParser.parse(Array(#""a\"b\\c\/\n\t\u00e9\ud83d\ude00""#.utf8))
        #expect(v == .string("a\"b\\c/\n\té😀"))
    }

    @Test func loneSurrogateBecomesReplacementCharacter() throws {
        #expect(try JSONParser.parse(Array(#""\ud800x""#.utf8)) == .string("\u{FFFD}x"))
    }

    @Test func keepsMultibyteUTF8() throws {
        #expect(try JSONParser.parse(Array("\"Straße 東京\"".utf8)) == .string("Straße 東京"))
    }

    @Test(arguments: [
        "", "{", "[1,", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "tru", "nul", "01x", "-", "1.", "1e", ".5", "NaN",
        "Infinity", "\"abc", "\"\\x\"", "\"\\u12G4\"", "{1:2}", "1 2", "\"a\nb\"", "+1", "0x10",
    ])
    func rejectsMalformedInput(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func reportsWhereItFailed() {
        #expect(throws: JSONParseError.unexpectedByte(offset: 6, expected: "',' or '}'", found: UInt8(ascii: "x"))) {
            try JSONParser.parse(Array(#"{"a":1x}"#.utf8))
        }
        #expect(throws: JSONParseError.trailingBytes(offset: 3)) { try JSONParser.parse(Array("[] x".utf8)) }
    }

    @Test func capsNesting() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONParseError.nestingTooDeep(maxDepth: 32)) { try JSONParser.parse(Array(deep.utf8)) }
    }

    @Test func hugeExponentIsANumberButNotFinite() throws {
        let v = try JSONParser.parse(Array("1e400".utf8))
        #expect(v.finiteDouble == nil)
    }

    @Test func survivesArbitraryBytes() {
        // Deterministic pseudo-random garbage: the parser must throw or return, never trap.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(state % 40) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(truncatingIfNeeded: state >> 56))
            }
            _ = try? JSONParser.parse(bytes)
            state = state &* 6_364_136_223_846_793_005 &+ 1
        }
    }
}
