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
}
