import Checksums
import Clocks
import MAVLink
import Mission
import Navigation
import QuadProtocol

/// The held plan (`mission/held`) kept on the autopilot as its own mission (`MissionSync`), and the autopilot's
/// current item kept at the board's (`MissionCurrentSync`, from `mission/progress`). The board flies the plan; the
/// copy is there for the autopilot to finish it when the board dies (docs/missions.md "Who flies when").
extension CompanionStateMachine {
    /// The plan drone-controller holds; nil or a plan of no items: none (what the autopilot holds stays, unflown).
    public mutating func heldMission(_ plan: MissionPlan?, now: MonotonicInstant) -> [CompanionAction] {
        guard let plan, !plan.items.isEmpty else {
            pendingMissionPlan = nil
            missionBoardItem = nil
            mission.drop()
            missionCurrent.want(nil)
            return []
        }
        guard plan.checksum != mission.plan?.checksum else { return [] }
        pendingMissionPlan = plan
        return takePendingMission(nowUs: now.us)
    }

    /// The board's progress: the item it flies to now (nil: none, the mission not under way or finished), and
    /// whether it runs (not paused, not holding after a power cycle).
    public mutating func missionProgress(planChecksum: UInt32, currentItem: Int?, running: Bool,
                                         now: MonotonicInstant) -> [CompanionAction] {
        missionBoardRunning = running && currentItem != nil
        guard let copy = mission.plan, copy.checksum == planChecksum, let currentItem,
              let flavor = target.map({ _ in telemetryFlavor }) else {
            missionBoardItem = nil
            missionCurrent.want(nil)
            return []
        }
        missionBoardItem = currentItem
        missionCurrent.want(mission.holds(planChecksum) ? copy.seq(ofItem: currentItem, flavor: flavor) : nil)
        return missionCurrentActions(nowUs: now.us)
    }

    /// The board's item the autopilot's copy should have as its current one, from the board's progress: the item
    /// flown to while the mission is under way (running, paused, holding after a power cycle); the plan's first
    /// while it waits to be started (a ground station's Mission mode then flies it from its start, not from where an
    /// earlier flight of the same plan ended: PX4 kept its current item on the landing, and flew straight there);
    /// nil once it ended (completed, aborted): the autopilot's own progress is left alone.
    public static func boardItem(_ progress: MissionProgressRecord) -> Int? {
        switch progress.state {
        case .running, .paused, .holdingAfterRestart: progress.currentItem
        case .idle: 0
        case .returning, .completed, .aborted: nil
        }
    }

    /// The autopilot's item its mission would fly on from, when the board's mission runs, the autopilot's copy is the
    /// board's plan and its current item is the board's (MISSION_CURRENT said so); nil otherwise.
    var missionFliesOn: Int? {
        guard missionBoardRunning, let copy = mission.plan, mission.holds(copy.checksum),
              let wanted = missionCurrent.wantedSeq, missionCurrent.reportedSeq == wanted else { return nil }
        return wanted
    }

    /// Whether the autopilot's mission was read back equal to the held plan.
    public var missionInPlace: Bool { mission.inPlace }

    /// A held plan becomes the autopilot's copy once the vehicle's position is known (a takeoff item's place).
    mutating func takePendingMission(nowUs: Int64) -> [CompanionAction] {
        guard let plan = pendingMissionPlan, let origin = vehiclePoint else { return [] }
        pendingMissionPlan = nil
        missionCurrent.want(nil)
        mission.linkBusy = fence.isTransferring
        return missionActions(mission.hold(AutopilotMission(plan: plan, origin: origin), nowUs: nowUs))
    }

    /// After a pass, the current item follows the board's again; never while the autopilot flies its mission
    /// itself (the controller gone): its own progress is then the truth, and setting the board's last item would
    /// pull it back to an item it has flown.
    mutating func missionCurrentActions(nowUs: Int64) -> [CompanionAction] {
        guard !autopilotFliesMission else {
            missionCurrent.want(nil)
            return []
        }
        if let copy = mission.plan, let item = missionBoardItem, mission.holds(copy.checksum), target != nil {
            missionCurrent.want(copy.seq(ofItem: item, flavor: telemetryFlavor))
        }
        return missionCurrent.tick(nowUs: nowUs, target: target).map { output in
            switch output {
            case .send(let message): .send(encoder.encode(message))
            case .log(let text): .log(.warning, text)
            }
        }
    }

    /// An autopilot runs one mission-protocol transfer at a time: the fence's and the mission's take turns.
    mutating func resumeWaitingLists(nowUs: Int64) -> [CompanionAction] {
        var actions: [CompanionAction] = []
        fence.linkBusy = mission.isTransferring
        actions += fenceActions(fence.linkFreed(nowUs: nowUs))
        mission.linkBusy = fence.isTransferring
        actions += missionActions(mission.linkFreed(nowUs: nowUs))
        return actions
    }

    mutating func missionActions(_ outputs: [MissionSync.Output]) -> [CompanionAction] {
        outputs.map { output in
            switch output {
            case .send(let message): .send(encodeListMessage(message))
            case .log(let level, let text): .log(level, text)
            case .status(let status): .publishAutopilotMission(status)
            }
        }
    }
}
