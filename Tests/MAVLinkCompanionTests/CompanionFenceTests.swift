import MAVLink
@testable import MAVLinkCompanion
import QuadProtocol
import Testing

/// The fence inside the link's state machine: nothing before the autopilot is known, the upload at its first
/// heartbeat, its requests answered, and the whole pass again when its heartbeat comes back after a loss.
@Suite("mavlink-link's state machine keeps the fence")
struct CompanionFenceTests {
    static func counts(_ h: AutopilotHarness) -> [MissionCount] {
        h.sent.compactMap { if case .missionCount(let c) = $0.message, c.missionType == 1 { c } else { nil } }
    }

    @Test func uploadedAtTheFirstHeartbeatAndAgainAfterALoss() throws {
        var h = AutopilotHarness()
        h.record(h.machine.heldAirspace(FenceSyncTests.definition, now: .init(us: h.nowUs)))
        #expect(Self.counts(h).isEmpty, "no autopilot yet")
        h.heartbeat()
        #expect(Self.counts(h).map(\.count) == [11])
        h.feed(MissionRequestInt(seq: 3, targetSystem: 245, targetComponent: 191, missionType: 1))
        let item = try #require(h.sent.compactMap { if case .missionItemInt(let i) = $0.message { i } else { nil } }
            .last)
        #expect(item.seq == 3 && item.missionType == 1 && item.command == MAVCmd.navFencePolygonVertexInclusion)
        // Silent past the loss timeout, then back: uploaded again (a restarted autopilot may hold another fence).
        h.run(forUs: h.machine.timing.heartbeatLost.us + 500_000, heartbeats: false)
        let before = Self.counts(h).count
        h.heartbeat()
        #expect(Self.counts(h).count == before + 1)
        #expect(h.actions.contains { if case .publishFenceStatus = $0 { true } else { false } })
    }
}
