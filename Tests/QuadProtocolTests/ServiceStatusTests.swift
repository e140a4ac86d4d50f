import Testing
@testable import QuadProtocol

@Suite struct ServiceStatusTests {
    static let online = ServiceStatus(state: .online, service: "navigator", version: "1.0.0",
                                      startedAt: 1_700_000_000.25, pid: 4242)

    @Test func encodesSnakeCaseKeysInAFixedOrder() {
        #expect(String(decoding: Self.online.encodedJSON(), as: UTF8.self) == """
            {"state":"online","service":"navigator","version":"1.0.0","started_at":1700000000.25,"pid":4242}
            """)
    }

    @Test(arguments: [online, ServiceStatus(state: .offline, service: "drone-link", version: "",
                                            startedAt: 0, pid: 1)])
    func roundTrips(status: ServiceStatus) throws {
        #expect(try ServiceStatus(json: status.encodedJSON()) == status)
    }

    @Test func unknownKeysAreIgnored() throws {
        let text = #"{"pid":4242,"extra":[1,{"a":null}],"state":"online","service":"navigator","version":"1.0.0","#
            + #""started_at":1700000000.25}"#
        #expect(try ServiceStatus(json: Array(text.utf8)) == Self.online)
    }

    static let invalid: [(String, WireError)] = [
        ("offline", .invalidJSON(offset: 0, reason: "unexpected character")),
        (#"{"state":"away","service":"n","version":"","started_at":0,"pid":1}"#,
         .wrongJSONType(key: "state", expected: "\"online\" or \"offline\"", got: "\"away\"")),
        (#"{"state":"online","version":"","started_at":0,"pid":1}"#, .missingJSONKey("service")),
        (#"{"state":"online","service":"","version":"","started_at":0,"pid":1}"#,
         .stringLength(field: "service", expectedBytes: 1...64, gotBytes: 0)),
        (#"{"state":"online","service":"n","version":"","started_at":-1,"pid":1}"#,
         .outOfRange(field: "startedAt", expected: "[0, +inf)", got: -1)),
        (#"{"state":"online","service":"n","version":"","started_at":0,"pid":1.5}"#,
         .outOfRange(field: "pid", expected: "[0, 2147483647]", got: 1.5)),
        (#"{"state":"online","service":"n","version":"","started_at":0,"pid":-3}"#,
         .outOfRange(field: "pid", expected: "[0, 2147483647]", got: -3)),
    ]

    @Test(arguments: invalid)
    func invalidStatusIsRejected(text: String, expected: WireError) {
        #expect(throws: expected) { try ServiceStatus(json: Array(text.utf8)) }
    }
}
