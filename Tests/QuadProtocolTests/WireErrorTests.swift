import Testing
@testable import QuadProtocol

/// One malformed payload and the error it must produce.
struct RejectionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let payload: [UInt8]
    /// Decode as this type; nil = through AnyWireMessage.
    let decodeAs: MessageType?
    let expected: WireError
    var testDescription: String { name }

    init(_ name: String, _ payload: [UInt8], as decodeAs: MessageType? = nil, _ expected: WireError) {
        self.name = name
        self.payload = payload
        self.decodeAs = decodeAs
        self.expected = expected
    }

    func decode() throws(WireError) {
        switch decodeAs {
        case nil: _ = try AnyWireMessage.decode(payload)
        case .target: _ = try Target(decoding: payload)
        case .command: _ = try Command(decoding: payload)
        case .navigationSolution: _ = try NavigationSolution(decoding: payload)
        case .flightCommand: _ = try FlightCommand(decoding: payload)
        case .droneState: _ = try DroneState(decoding: payload)
        case .positionFix: _ = try PositionFix(decoding: payload)
        case .controllerState: _ = try ControllerState(decoding: payload)
        case .linkStatus: _ = try LinkStatus(decoding: payload)
        case .controlClaim: _ = try ControlClaim(decoding: payload)
        case .groundBeacon: _ = try GroundBeacon(decoding: payload)
        case .airspaceDefinition: _ = try AirspaceDefinition(decoding: payload)
        case .airspaceStatus: _ = try AirspaceStatus(decoding: payload)
        case .airspaceRoutePlan: _ = try AirspaceRoutePlan(decoding: payload)
        }
    }
}

@Suite struct WireErrorTests {
    static let target = (try? SampleMessages.target.encoded()) ?? []
    static let command = (try? SampleMessages.command.encoded()) ?? []
    static let navigation = (try? SampleMessages.navigationSolution.encoded()) ?? []
    static let flight = (try? SampleMessages.flightCommand.encoded()) ?? []
    static let drone = (try? SampleMessages.droneState.encoded()) ?? []
    static let position = (try? SampleMessages.positionFix.encoded()) ?? []
    static let controller = (try? SampleMessages.controllerState.encoded()) ?? []
    static let link = (try? SampleMessages.linkStatus.encoded()) ?? []
    static let claim = (try? SampleMessages.controlClaim.encoded()) ?? []

    static let headerCases: [RejectionCase] = [
        RejectionCase("empty payload", [], .truncatedHeader(expectedBytes: 17, gotBytes: 0)),
        RejectionCase("header cut short", Array(target.prefix(9)), .truncatedHeader(expectedBytes: 17, gotBytes: 9)),
        RejectionCase("lone magic byte", [0xFF], .truncatedHeader(expectedBytes: 17, gotBytes: 1)),
        RejectionCase("JSON text", Array(#"{"lat": 1}"#.utf8), .looksLikeText(firstByte: 0x7B)),
        RejectionCase("bare word", Array("takeoff".utf8), .looksLikeText(firstByte: 0x74)),
        RejectionCase("wrong second magic byte", Bytes.patched(target, at: 1, [0x52]),
                      .badMagic(expected: [0xFF, 0x51], got: [0xFF, 0x52])),
        RejectionCase("major 2", Bytes.patched(target, at: 2, [2]), .unsupportedMajorVersion(expected: 1, got: 2)),
        RejectionCase("major 0", Bytes.patched(target, at: 2, [0]), .unsupportedMajorVersion(expected: 1, got: 0)),
        RejectionCase("message type 0", Bytes.patched(target, at: 4, [0]), .unknownMessageType(got: 0)),
        RejectionCase("message type 14", Bytes.patched(target, at: 4, [14]), .unknownMessageType(got: 14)),
        RejectionCase("command bytes read as a target", command, as: .target,
                      .wrongMessageType(expected: .target, got: .command)),
        RejectionCase("target bytes read as link status", target, as: .linkStatus,
                      .wrongMessageType(expected: .linkStatus, got: .target)),
    ]

    static let layoutCases: [RejectionCase] = [
        RejectionCase("target missing its last byte", Array(target.dropLast()),
                      .bodyTooShort(type: .target, expectedAtLeastBytes: 40, gotBytes: 39)),
        RejectionCase("target cut inside senderId", Array(target.prefix(22)),
                      .bodyTooShort(type: .target, expectedAtLeastBytes: 12, gotBytes: 5)),
        RejectionCase("header only", Bytes.header(type: 8),
                      .bodyTooShort(type: .linkStatus, expectedAtLeastBytes: 1, gotBytes: 0)),
        RejectionCase("navigation solution missing 4 bytes", Array(navigation.dropLast(4)),
                      .bodyTooShort(type: .navigationSolution, expectedAtLeastBytes: 80, gotBytes: 76)),
        RejectionCase("target with a trailing byte", target + [0],
                      .bodyTooLong(type: .target, expectedBytes: 40, gotBytes: 41)),
        RejectionCase("link status with 4 trailing bytes", link + [1, 2, 3, 4],
                      .bodyTooLong(type: .linkStatus, expectedBytes: 30, gotBytes: 34)),
        RejectionCase("target presence bit 1", Bytes.patched(target, at: 17, [0x03]),
                      .unknownPresenceBits(type: .target, expectedMask: 0x01, got: 0x03)),
        RejectionCase("position fix presence bit 7", Bytes.patched(position, at: 17, [0x87]),
                      .unknownPresenceBits(type: .positionFix, expectedMask: 0x07, got: 0x87)),
    ]

    static let fieldCases: [RejectionCase] = [
        RejectionCase("flatTrim 2", Bytes.patched(flight, at: 18, [2]), .invalidBool(field: "flatTrim", got: 2)),
        RejectionCase("connected 255", Bytes.patched(link, at: 17, [255]), .invalidBool(field: "connected", got: 255)),
        RejectionCase("command kind 0", Bytes.patched(command, at: 28, [0]),
                      .unknownEnumValue(field: "kind", expected: [1, 2, 3, 4, 5, 6, 7], got: 0)),
        RejectionCase("command kind 8", Bytes.patched(command, at: 28, [8]),
                      .unknownEnumValue(field: "kind", expected: [1, 2, 3, 4, 5, 6, 7], got: 8)),
        // Kind 7 is new in 1.1: a 1.0 payload carrying it is rejected as before, listing the 1.0 kinds.
        RejectionCase("1.0 command kind 7", Bytes.patched(Bytes.patched(command, at: 28, [7]), at: 3, [0]),
                      .unknownEnumValue(field: "kind", expected: [1, 2, 3, 4, 5, 6], got: 7)),
        RejectionCase("claim action 3", Bytes.patched(claim, at: 28, [3]),
                      .unknownEnumValue(field: "action", expected: [1, 2], got: 3)),
        RejectionCase("controlState 10", Bytes.patched(drone, at: 26, [10]),
                      .unknownEnumValue(field: "controlState", expected: Array(0...9), got: 10)),
        RejectionCase("refMode 4", Bytes.patched(flight, at: 17, [4]),
                      .unknownEnumValue(field: "refMode", expected: [0, 1, 2, 3], got: 4)),
        RejectionCase("source 0", Bytes.patched(position, at: 47, [0]),
                      .unknownEnumValue(field: "source", expected: [1, 2, 3], got: 0)),
        RejectionCase("activity 10", Bytes.patched(controller, at: 18, [10]),
                      .unknownEnumValue(field: "activity", expected: Array(1...9), got: 10)),
        RejectionCase("link reason 4", Bytes.patched(link, at: 19, [4]),
                      .unknownEnumValue(field: "reason", expected: [0, 1, 2, 3], got: 4)),
        RejectionCase("senderId with invalid UTF-8", Bytes.patched(command, at: 18, [0xC3, 0x28]),
                      .invalidUTF8(field: "senderId")),
        RejectionCase("pilotId with 0xFF", Bytes.patched(controller, at: 27, [0xFF]), .invalidUTF8(field: "pilotId")),
        RejectionCase("empty senderId", Bytes.header(type: 2) + Bytes.string([]) + [1],
                      .stringLength(field: "senderId", expectedBytes: 1...64, gotBytes: 0)),
        RejectionCase("65-byte senderId", Bytes.header(type: 9) + Bytes.string(Array(repeating: 0x61, count: 65)) + [1],
                      .stringLength(field: "senderId", expectedBytes: 1...64, gotBytes: 65)),
        RejectionCase("65-byte reason",
                      Bytes.header(type: 7) + [0, 1] + Bytes.string(Array(repeating: 0x61, count: 65))
                          + Bytes.string([]) + [UInt8](repeating: 0, count: 20),
                      .stringLength(field: "reason", expectedBytes: 0...64, gotBytes: 65)),
    ]

    static let valueCases: [RejectionCase] = [
        RejectionCase("latitude NaN", Bytes.patched(target, at: 29, Bytes.f64(.nan)),
                      .notFinite(field: "latitudeDeg", got: "nan")),
        RejectionCase("longitude +inf", Bytes.patched(target, at: 37, Bytes.f64(.infinity)),
                      .notFinite(field: "longitudeDeg", got: "+inf")),
        RejectionCase("pitch -inf", Bytes.patched(drone, at: 34, Bytes.f32(-.infinity)),
                      .notFinite(field: "pitchDeg", got: "-inf")),
        RejectionCase("altitude NaN", Bytes.patched(target, at: 45, Bytes.f32(.nan)),
                      .notFinite(field: "altitudeM", got: "nan")),
        RejectionCase("latitude 90.5", Bytes.patched(target, at: 29, Bytes.f64(90.5)),
                      .outOfRange(field: "latitudeDeg", expected: "[-90, 90]", got: 90.5)),
        RejectionCase("longitude -180.5", Bytes.patched(position, at: 26, Bytes.f64(-180.5)),
                      .outOfRange(field: "longitudeDeg", expected: "[-180, 180]", got: -180.5)),
        RejectionCase("gaz 1.5", Bytes.patched(flight, at: 28, Bytes.f32(1.5)),
                      .outOfRange(field: "gazFrac", expected: "[-1, 1]", got: 1.5)),
        RejectionCase("battery 101", Bytes.patched(drone, at: 29, [101]),
                      .outOfRange(field: "batteryPercent", expected: "[0, 100]", got: 101)),
        RejectionCase("bearing 360", Bytes.patched(navigation, at: 61, Bytes.f64(360)),
                      .outOfRange(field: "bearingDeg", expected: "[0, 360)", got: 360)),
        RejectionCase("heading -0.5", Bytes.patched(position, at: 38, Bytes.f32(-0.5)),
                      .outOfRange(field: "headingDeg", expected: "[0, 360)", got: -0.5)),
        RejectionCase("magneto heading 360", Bytes.patched(drone, at: 58, Bytes.f32(360)),
                      .outOfRange(field: "magnetoHeadingDeg", expected: "[0, 360)", got: 360)),
        RejectionCase("direction difference 180", Bytes.patched(navigation, at: 77, Bytes.f64(180)),
                      .outOfRange(field: "directionDifferenceDeg", expected: "[-180, 180)", got: 180)),
        RejectionCase("distance -1", Bytes.patched(navigation, at: 53, Bytes.f64(-1)),
                      .outOfRange(field: "distanceM", expected: "[0, +inf)", got: -1)),
        RejectionCase("accuracy -2", Bytes.patched(position, at: 42, Bytes.f32(-2)),
                      .outOfRange(field: "horizontalAccuracyM", expected: "[0, +inf)", got: -2)),
        RejectionCase("distance to target -1", Bytes.patched(controller, at: 53, Bytes.f32(-1)),
                      .outOfRange(field: "distanceToTargetM", expected: "[0, +inf)", got: -1)),
        RejectionCase("ttl -1", Bytes.patched(target, at: 49, Bytes.f32(-1)),
                      .outOfRange(field: "ttlS", expected: "[0, +inf)", got: -1)),
        RejectionCase("navdata rate -1", Bytes.patched(link, at: 20, Bytes.f32(-1)),
                      .outOfRange(field: "navdataPerSecond", expected: "[0, +inf)", got: -1)),
    ]

    @Test(arguments: headerCases + layoutCases + fieldCases + valueCases)
    func decoderRejects(_ rejection: RejectionCase) {
        #expect(throws: rejection.expected) { try rejection.decode() }
    }

    @Test func absentOptionalSlotContentIsIgnored() throws {
        var target = SampleMessages.target
        target.altitudeM = nil
        let bytes = Bytes.patched(try target.encoded(), at: 45, Bytes.f32(.nan))
        #expect(try Target(decoding: bytes) == target)
    }

    @Test func descriptionsNameExpectedAndGot() {
        #expect(WireError.looksLikeText(firstByte: 0x7B).description
            == "expected binary (first byte 0xFF), got first byte 0x7B: looks like text")
        #expect(WireError.outOfRange(field: "latitudeDeg", expected: "[-90, 90]", got: 91).description
            == "latitudeDeg: expected [-90, 90], got 91.0")
    }
}
