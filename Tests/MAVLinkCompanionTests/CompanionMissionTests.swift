import MAVLink
@testable import MAVLinkCompanion
import Mission
import QuadProtocol
import Testing

/// The held plan inside the link's state machine: kept until the vehicle's position is known, uploaded after the
/// fence's pass (an autopilot runs one transfer at a time), and the autopilot's current item set to the board's.
@Suite("mavlink-link's state machine keeps the plan on the autopilot")
struct CompanionMissionTests {
    static func counts(_ h: AutopilotHarness, type: UInt8) -> [MissionCount] {
        h.sent.compactMap { if case .missionCount(let c) = $0.message, c.missionType == type { c } else { nil } }
    }

    static func fix(_ h: inout AutopilotHarness) {
        h.feed(GPSRawInt(timeUs: 0, latE7: 525_163_000, lonE7: 133_777_000, altMm: 34_000, fixType: 3,
                         satellitesVisible: 10))
        h.position(relativeAltM: 0)
    }

    @Test("no upload before a position; the fence's pass first, the mission's after it; then the current item")
    func takesTurnsWithTheFence() throws {
        var h = AutopilotHarness()
        h.heartbeat()
        h.record(h.machine.heldMission(MissionSyncTests.plan, now: .init(us: h.nowUs)))
        h.record(h.machine.heldAirspace(FenceSyncTests.definition, now: .init(us: h.nowUs)))
        #expect(Self.counts(h, type: 0).isEmpty, "no position yet: no takeoff place")
        #expect(Self.counts(h, type: 1).count == 1)
        Self.fix(&h)
        #expect(Self.counts(h, type: 0).isEmpty, "the fence's transfer holds the link")
        // The fence's items asked for and acknowledged, its read-back answered: then the mission goes up.
        for seq in 0..<11 {
            h.feed(MissionRequestInt(seq: UInt16(seq), targetSystem: 245, targetComponent: 191, missionType: 1))
        }
        h.feed(MissionAck(type: MissionAck.accepted, targetSystem: 245, targetComponent: 191, missionType: 1))
        #expect(Self.counts(h, type: 0).isEmpty, "still reading the fence back")
        // The harness answers neither the fence parameters nor its read-back: the pass ends after its tries.
        for _ in 0..<400 where Self.counts(h, type: 0).isEmpty { h.run(forUs: 250_000) }
        #expect(h.actions.contains { if case .publishFenceStatus = $0 { true } else { false } })
        let missionCount = try #require(Self.counts(h, type: 0).first)
        #expect(missionCount.count == 6)
        try Self.answerUpload(&h, count: 6)
        #expect(h.machine.missionInPlace)
        #expect(h.actions.contains {
            if case .publishAutopilotMission(let s) = $0 { s.heldChecksum == MissionSyncTests.plan.checksum } else {
                false }
        })
        // The board flies to its item 3: the autopilot's item 4 (its cruise speed first).
        h.record(h.machine.missionProgress(planChecksum: MissionSyncTests.plan.checksum, currentItem: 3,
                                           running: true, now: .init(us: h.nowUs)))
        let setCurrent = h.sent.compactMap { if case .missionSetCurrent(let m) = $0.message { m } else { nil } }
        #expect(setCurrent.last?.seq == 4)
        // Another plan's progress sets nothing.
        let before = setCurrent.count
        h.record(h.machine.missionProgress(planChecksum: 7, currentItem: 1, running: true,
                                           now: .init(us: h.nowUs)))
        h.run(forUs: 3_000_000)
        #expect(h.sent.compactMap { if case .missionSetCurrent(let m) = $0.message { m } else { nil } }.count == before)
    }

    @Test("the board's item for the autopilot's copy: the flown one when under way, the first while idle, none after")
    func boardItem() {
        for state in MissionState.allCases {
            let record = MissionProgressRecord(planChecksum: 1, state: state, phase: .approaching, currentItem: 3,
                                               stayLeft: .zero, elapsed: .zero, reached: [])
            let expected: Int? = switch state {
            case .running, .paused, .holdingAfterRestart: 3
            case .idle: 0
            case .returning, .completed, .aborted: nil
            }
            #expect(CompanionStateMachine.boardItem(record) == expected, "\(state)")
        }
    }

    /// The autopilot asks for each of the plan's `count` items, takes them, and reads back what it was sent.
    static func answerUpload(_ h: inout AutopilotHarness, count: Int) throws {
        var items: [MissionItemInt] = []
        for seq in 0..<count {
            h.feed(MissionRequestInt(seq: UInt16(seq), targetSystem: 245, targetComponent: 191, missionType: 0))
            items.append(try #require(h.sent.compactMap {
                if case .missionItemInt(let i) = $0.message, i.missionType == 0 { i } else { nil } }.last))
        }
        h.feed(MissionAck(type: MissionAck.accepted, targetSystem: 245, targetComponent: 191, missionType: 0))
        h.feed(MissionCount(count: UInt16(count), targetSystem: 245, targetComponent: 191, missionType: 0))
        for var item in items {
            item.targetSystem = 245
            item.targetComponent = 191
            h.feed(item)
        }
    }

    @Test("the controller gone mid-mission, the copy in place at its item: the autopilot's mission flies on, no RTL")
    func orphanedMissionFliesOn() throws {
        var h = OrphanReturnTests.flying(orphanReturn: .seconds(10))
        Self.fix(&h)
        h.record(h.machine.heldMission(MissionSyncTests.plan, now: .init(us: h.nowUs)))
        try Self.answerUpload(&h, count: 6)
        #expect(h.machine.missionInPlace)
        h.record(h.machine.missionProgress(planChecksum: MissionSyncTests.plan.checksum, currentItem: 3,
                                           running: true, now: .init(us: h.nowUs)))
        h.feed(MissionCurrent(seq: 4, total: 6, missionState: 2))
        h.run(forUs: 11_000_000)
        let modes = h.commandsSent.filter { $0.command == MAVCmd.doSetMode }
        #expect(modes.last.map { $0.param(2) == 4 && $0.param(3) == 4 } == true, "PX4 AUTO.MISSION")
        #expect(h.commandsSent.allSatisfy { $0.command != MAVCmd.navReturnToLaunch })
        #expect(h.logs.contains { $0.contains("the autopilot's own mission flies on from its item 4") })
        // In its mission mode it is left to fly: the link asks for nothing else while no command comes.
        h.run(forUs: 20_000_000)
        #expect(h.commandsSent.filter { $0.command == MAVCmd.doSetMode }.count == modes.count)
        // Its own progress is the truth now: its next item is never pulled back to the board's last one.
        func setCurrents() -> Int {
            h.sent.filter { if case .missionSetCurrent = $0.message { true } else { false } }.count
        }
        let before = setCurrents()
        h.feed(MissionCurrent(seq: 5, total: 6, missionState: 3))
        h.run(forUs: 5_000_000)
        #expect(setCurrents() == before)

        // Paused by the pilot, or the autopilot's current item not the board's: the return, as before.
        var paused = OrphanReturnTests.flying(orphanReturn: .seconds(10))
        Self.fix(&paused)
        paused.record(paused.machine.heldMission(MissionSyncTests.plan, now: .init(us: paused.nowUs)))
        try Self.answerUpload(&paused, count: 6)
        paused.record(paused.machine.missionProgress(planChecksum: MissionSyncTests.plan.checksum, currentItem: 3,
                                                     running: false, now: .init(us: paused.nowUs)))
        paused.feed(MissionCurrent(seq: 4, total: 6, missionState: 2))
        paused.run(forUs: 11_000_000)
        #expect(paused.commandsSent.contains { $0.command == MAVCmd.navReturnToLaunch })
    }
}
