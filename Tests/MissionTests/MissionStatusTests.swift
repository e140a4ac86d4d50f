import Mission
import Testing

/// `mission/status`: the plan held and the last upload refused, with its item, for the ground to print.
@Suite struct MissionStatusTests {
    @Test func roundTripsWithAndWithoutEachPart() throws {
        let statuses = [
            MissionStatus(sequence: 1, heldChecksum: nil, refusal: nil),
            MissionStatus(sequence: 2, heldChecksum: 0x1a2b_3c4d, refusal: nil),
            MissionStatus(sequence: 3, heldChecksum: nil,
                          refusal: .init(planChecksum: 7, item: 2, reason: "item 2: inside keep-out zone 'pond'")),
            MissionStatus(sequence: 4, heldChecksum: 9, refusal: .init(planChecksum: 0, item: nil, reason: "busy")),
        ]
        for status in statuses { #expect(try MissionStatus(decoding: status.encoded()) == status) }
    }

    @Test func aLongReasonIsCutByCharactersToTheBound() throws {
        let refusal = MissionStatus.Refusal(planChecksum: 1, item: 0, reason: String(repeating: "é", count: 200))
        #expect(refusal.reason.utf8.count <= MissionStatus.reasonBytes.upperBound)
        #expect(refusal.reason.allSatisfy { $0 == "é" })
        let status = MissionStatus(sequence: 1, heldChecksum: nil, refusal: refusal)
        #expect(try MissionStatus(decoding: status.encoded()) == status)
    }

    @Test func garbageIsRefusedNeverATrap() {
        let good = MissionStatus(sequence: 1, heldChecksum: 3, refusal: .init(planChecksum: 1, item: 4, reason: "x"))
            .encoded()
        for cut in 0..<good.count {
            #expect(throws: MissionWireError.self) { try MissionStatus(decoding: Array(good.prefix(cut))) }
        }
        var badPresence = good
        badPresence[9] = 0x84
        #expect(throws: MissionWireError.self) { try MissionStatus(decoding: badPresence) }
        var badItem = good
        badItem[18] = 200
        #expect(throws: MissionWireError.self) { try MissionStatus(decoding: badItem) }
        #expect(throws: MissionWireError.self) { try MissionStatus(decoding: good + [0]) }
    }

    @Test func theErrorNamesItsItem() {
        #expect(MissionPlanError.outsideFence(item: 3, distanceM: 500, radiusM: 200).item == 3)
        #expect(MissionPlanError.empty.item == nil)
    }
}
