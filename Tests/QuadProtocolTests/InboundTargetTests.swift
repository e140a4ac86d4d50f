import Clocks
import Testing
@testable import QuadProtocol

@Suite struct InboundTargetTests {
    static let receivedAt = WallInstant(us: 1_700_000_005_000_000)

    private func decode(_ text: String) throws(WireError) -> Target {
        try InboundTarget.decode(payload: Array(text.utf8), receivedAt: Self.receivedAt)
    }

    @Test func minimalJSONGetsDefaults() throws {
        #expect(try decode(#"{"lat": 52.5163, "lon": 13.3777}"#) == Target(
            senderId: "json", sequence: 0, timestampUs: Self.receivedAt.us, latitudeDeg: 52.5163,
            longitudeDeg: 13.3777, altitudeM: nil, ttlS: 0))
    }

    @Test func fullJSONWithWhitespaceAndNewline() throws {
        let target = try decode(" {\"lon\":-0.5,\n \"lat\":-33.25e0, \"alt\":3, \"ttl\":10.5, \"sender\":\"me\"}\n")
        #expect(target == Target(senderId: "me", sequence: 0, timestampUs: Self.receivedAt.us, latitudeDeg: -33.25,
                                 longitudeDeg: -0.5, altitudeM: 3, ttlS: 10.5))
    }

    /// `run` addresses a JSON target to the controller run whose state says `run_id` (format 1.2); absent = 0.
    @Test func runAddressesTheTarget() throws {
        #expect(try decode(#"{"lat": 1, "lon": 2, "run": 4294967295}"#).controllerRunId == .max)
        #expect(try decode(#"{"lat": 1, "lon": 2, "run": 1592590337}"#).controllerRunId == 1_592_590_337)
        #expect(try decode(#"{"lat": 1, "lon": 2}"#).controllerRunId == RunAddress.none)
        #expect(try decode(#"{"lat": 1, "lon": 2, "run": null}"#).controllerRunId == RunAddress.none)
    }

    @Test func nullMeansAbsent() throws {
        #expect(try decode(#"{"lat": 1, "lon": 2, "alt": null}"#).altitudeM == nil)
    }

    @Test func binaryPayloadIsDecodedAsBinary() throws {
        let bytes = try FixtureFile.bytes("target")
        #expect(try InboundTarget.decode(payload: bytes, receivedAt: .init(us: 0)) == SampleMessages.target)
    }

    static let invalid: [(String, WireError)] = [
        ("", .invalidJSON(offset: 0, reason: "expected a value, got end of input")),
        ("52.5, 13.3", .invalidJSON(offset: 4, reason: "unexpected text after the value")),
        (#"{"lat": 52.5 "lon": 13}"#, .invalidJSON(offset: 13, reason: "expected '}'")),
        (#"{"lat": 052, "lon": 1}"#, .invalidJSON(offset: 9, reason: "expected '}'")),  // no leading zeros
        (#"{"lat": NaN, "lon": 1}"#, .invalidJSON(offset: 8, reason: "unexpected character")),
        (#"[52.5, 13.3]"#, .wrongJSONType(key: "", expected: "object", got: "array")),
        (#"{"lon": 13.3}"#, .missingJSONKey("lat")),
        (#"{"lat": 52.5}"#, .missingJSONKey("lon")),
        (#"{"lat": null, "lon": 1}"#, .missingJSONKey("lat")),
        (#"{"lat": "52.5", "lon": 1}"#, .wrongJSONType(key: "lat", expected: "number", got: "string")),
        (#"{"lat": 1, "lon": 1, "sender": 7}"#, .wrongJSONType(key: "sender", expected: "string", got: "number")),
        (#"{"lat": 1, "lon": 1, "altitude": 3}"#,
         .unknownJSONKey(expected: ["lat", "lon", "alt", "ttl", "sender", "run"], got: "altitude")),
        (#"{"lat": 1, "lat": 2, "lon": 1}"#, .duplicateJSONKey("lat")),
        (#"{"lat": 91, "lon": 1}"#, .outOfRange(field: "latitudeDeg", expected: "[-90, 90]", got: 91)),
        (#"{"lat": 1, "lon": 180.5}"#, .outOfRange(field: "longitudeDeg", expected: "[-180, 180]", got: 180.5)),
        (#"{"lat": 1, "lon": 1, "ttl": -1}"#, .outOfRange(field: "ttlS", expected: "[0, +inf)", got: -1)),
        (#"{"lat": 1e400, "lon": 1}"#, .notFinite(field: "latitudeDeg", got: "+inf")),
        (#"{"lat": 1, "lon": 1, "alt": 1e39}"#, .notFinite(field: "altitudeM", got: "+inf")),
        (#"{"lat": 1, "lon": 1, "alt": -2}"#, .outOfRange(field: "altitudeM", expected: "[0, +inf)", got: -2)),
        (#"{"lat": 1, "lon": 1, "sender": ""}"#, .stringLength(field: "senderId", expectedBytes: 1...64, gotBytes: 0)),
        (#"{"lat": 1, "lon": 1, "run": 1.5}"#,
         .outOfRange(field: "run", expected: "an integer in [0, 4294967295]", got: 1.5)),
        (#"{"lat": 1, "lon": 1, "run": -1}"#,
         .outOfRange(field: "run", expected: "an integer in [0, 4294967295]", got: -1)),
        (#"{"lat": 1, "lon": 1, "run": 4294967296}"#,
         .outOfRange(field: "run", expected: "an integer in [0, 4294967295]", got: 4_294_967_296)),
        (#"{"lat": 1, "lon": 1, "run": "7"}"#, .wrongJSONType(key: "run", expected: "number", got: "string")),
    ]

    @Test(arguments: invalid)
    func invalidJSONIsRejected(text: String, expected: WireError) {
        #expect(throws: expected) { try decode(text) }
    }

    @Test func nonUTF8TextIsRejected() {
        #expect(throws: WireError.invalidJSON(offset: 0, reason: "unexpected character")) {
            try InboundTarget.decode(payload: [0xC3, 0x28], receivedAt: .init(us: 0))
        }
    }

    @Test func corruptBinaryIsRejectedAsBinary() throws {
        let bytes = Array(try FixtureFile.bytes("target").dropLast())
        #expect(throws: WireError.bodyTooShort(type: .target, expectedAtLeastBytes: 40, gotBytes: 39)) {
            try InboundTarget.decode(payload: bytes, receivedAt: .init(us: 0))
        }
    }
}
