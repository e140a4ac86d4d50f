import Testing
@testable import QuadProtocol

/// The controller's way around keep-out zones on the bus (issue 38, `AirspaceRoutePlan`): round trip, the golden
/// fixture's fields, the 64-corner bound both ways, names cut by characters, and what a decoder refuses.
@Suite struct AirspaceRoutePlanPayloadTests {
    static let plan = SampleMessages.airspaceRoutePlan

    @Test func roundTripsForEveryPurposeAndNone() throws {
        for purpose in AirspaceRoutePlan.Purpose.allCases where purpose != .none {
            var plan = Self.plan
            plan.purpose = purpose
            #expect(try AirspaceRoutePlan(decoding: plan.encoded()) == plan)
        }
        let none = AirspaceRoutePlan.none(sequence: 9, timestampUs: 10)
        let decoded = try AirspaceRoutePlan(decoding: none.encoded())
        #expect(decoded == none && decoded.isNone && decoded.corners.isEmpty)
    }

    @Test func theGoldenFixtureSaysLegTwoOfThreeAroundLake() throws {
        let decoded = try AirspaceRoutePlan(decoding: FixtureFile.bytes("airspace-route-plan"))
        #expect(decoded == Self.plan)
        #expect(decoded.leg == 2 && decoded.legCount == 3 && decoded.zoneName == "lake")
        #expect(decoded.jsonObjectText().contains(#""purpose":"target""#))
    }

    @Test func moreThanSixtyFourCornersIsRefusedByTheEncoderAndTheDecoder() throws {
        var plan = Self.plan
        plan.corners = Array(repeating: plan.corners[0], count: AirspaceRoutePlan.maxCorners)
        #expect(try AirspaceRoutePlan(decoding: plan.encoded()).corners.count == 64)
        plan.corners.append(plan.corners[0])
        #expect(throws: WireError.outOfRange(field: "cornerCount", expected: "[0, 64]", got: 65)) {
            try plan.encoded()
        }
        // A hand-made payload claiming 65 corners (and carrying them) is a typed error, not an allocation.
        var bytes = try Self.plan.encoded()
        bytes[72] = 65
        bytes += Array(repeating: 0, count: 63 * 16)
        #expect(throws: WireError.outOfRange(field: "cornerCount", expected: "[0, 64]", got: 65)) {
            try AirspaceRoutePlan(decoding: bytes)
        }
        bytes[72] = 255
        #expect(throws: WireError.self) { try AirspaceRoutePlan(decoding: bytes) }
    }

    @Test func aLongZoneNameIsCutByCharactersNeverInsideOne() throws {
        let name = String(repeating: "a", count: 63) + "éé"
        let plan = AirspaceRoutePlan(sequence: 1, timestampUs: 1, purpose: .target, goal: Self.plan.goal,
                                     start: Self.plan.start, corners: Self.plan.corners, lengthM: 1, straightM: 1,
                                     zoneName: name)
        #expect(plan.zoneName == String(repeating: "a", count: 63))
        #expect(try AirspaceRoutePlan(decoding: plan.encoded()).zoneName == plan.zoneName)
        var tooLong = plan
        tooLong.zoneName = String(repeating: "b", count: 65)
        #expect(throws: WireError.stringLength(field: "zoneName", expectedBytes: 0...64, gotBytes: 65)) {
            try tooLong.encoded()
        }
    }

    @Test func badValuesAreTypedErrorsBothWays() throws {
        var nextPastEnd = Self.plan
        nextPastEnd.nextCorner = 3
        #expect(throws: WireError.outOfRange(field: "nextCorner", expected: "[0, 2]", got: 3)) {
            try nextPastEnd.encoded()
        }
        var noneWithCorners = Self.plan
        noneWithCorners.purpose = .none
        #expect(throws: WireError.self) { try noneWithCorners.encoded() }
        var nanLength = Self.plan
        nanLength.lengthM = .nan
        #expect(throws: WireError.notFinite(field: "lengthM", got: "nan")) { try nanLength.encoded() }
        var badCorner = Self.plan
        badCorner.corners[1].latitudeDeg = 91
        #expect(throws: WireError.self) { try badCorner.encoded() }

        let bytes = try FixtureFile.bytes("airspace-route-plan")
        #expect(throws: WireError.unknownEnumValue(field: "purpose", expected: [0, 1, 2], got: 3)) {
            try AirspaceRoutePlan(decoding: Bytes.patched(bytes, at: 17, [3]))
        }
        #expect(throws: WireError.self) { try AirspaceRoutePlan(decoding: Bytes.patched(bytes, at: 66, [3])) }
        #expect(throws: WireError.self) {
            try AirspaceRoutePlan(decoding: Bytes.patched(bytes, at: 50, Bytes.f64(-1)))
        }
        #expect(throws: WireError.invalidUTF8(field: "zoneName")) {
            try AirspaceRoutePlan(decoding: Bytes.patched(bytes, at: 68, [0xC3, 0x28]))
        }
        #expect(throws: WireError.self) { try AirspaceRoutePlan(decoding: bytes + [0]) }
    }

    /// Every prefix, and seeded random mutations of the golden bytes: a typed error or a valid plan, never a crash.
    @Test func cutAndMutatedPayloadsNeverCrash() throws {
        let bytes = try FixtureFile.bytes("airspace-route-plan")
        for count in 0..<bytes.count {
            #expect(throws: WireError.self) { try AirspaceRoutePlan(decoding: Array(bytes.prefix(count))) }
        }
        var seed: UInt64 = 0x5EED_0038
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        for _ in 0..<5000 {
            var mutated = bytes
            for _ in 0...(next() % 4) {
                mutated[17 + next() % (mutated.count - 17)] = UInt8(truncatingIfNeeded: next())
            }
            do {
                let plan = try AirspaceRoutePlan(decoding: mutated)
                #expect(try AirspaceRoutePlan(decoding: plan.encoded()) == plan)
            } catch {}
        }
    }
}
