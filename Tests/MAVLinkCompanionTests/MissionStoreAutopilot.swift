import MAVLink
@testable import MAVLinkCompanion
import Mission

/// An autopilot's mission store (mission type 0) for `MissionSyncTests`: asks for the next missing item, ACKs when
/// it has them all, and stores as the real ones do: ArduPilot keeps its own home as item 0 and whole seconds, PX4
/// keeps what it was sent.
struct MissionStoreAutopilot: ListStore {
    var flavor = AutopilotFlavor.px4
    var stored: [MissionItemInt] = []
    /// Uploads to refuse (MAV_MISSION_ERROR) before one is taken.
    var refusals = 0
    private var incoming: [MissionItemInt?] = []

    static let companion: UInt8 = 245
    static let homeE7: (Int32, Int32) = (525_000_000, 133_000_000)

    mutating func handle(_ message: AutopilotListMessage) -> [MAVLinkInbound] {
        switch message {
        case .count(let count):
            guard count.missionType == MAVMissionType.mission else { return [] }
            incoming = Array(repeating: nil, count: Int(count.count))
            return count.count == 0 ? finishUpload() : [request(0)]
        case .item(let item):
            guard Int(item.seq) < incoming.count, item.missionType == MAVMissionType.mission else { return [] }
            incoming[Int(item.seq)] = item
            guard let missing = incoming.firstIndex(where: { $0 == nil }) else { return finishUpload() }
            return [request(missing)]
        case .requestList(let list):
            guard list.missionType == MAVMissionType.mission else { return [] }
            return [.missionCount(MissionCount(count: UInt16(stored.count), targetSystem: Self.companion,
                                               targetComponent: 191, missionType: MAVMissionType.mission))]
        case .request(let request):
            guard Int(request.seq) < stored.count else { return [] }
            var item = stored[Int(request.seq)]
            item.seq = request.seq
            item.targetSystem = Self.companion
            item.targetComponent = 191
            return [.missionItemInt(item)]
        case .ack, .paramSet:
            return []
        }
    }

    private func request(_ seq: Int) -> MAVLinkInbound {
        .missionRequestInt(MissionRequestInt(seq: UInt16(seq), targetSystem: Self.companion, targetComponent: 191,
                                             missionType: MAVMissionType.mission))
    }

    private mutating func finishUpload() -> [MAVLinkInbound] {
        let ack = { (result: UInt8) in
            MAVLinkInbound.missionAck(MissionAck(type: result, targetSystem: Self.companion, targetComponent: 191,
                                                 missionType: MAVMissionType.mission))
        }
        if refusals > 0 {
            refusals -= 1
            return [ack(MissionAck.error)]
        }
        stored = incoming.compactMap { $0 }.map { item in
            var kept = item
            if flavor == .ardupilot {
                // Whole seconds, and frame 3 for frame 6 (ArduPilot answers MISSION_ITEM_INT in the frame it keeps).
                kept.params[0] = kept.params[0].rounded(.down)
                if kept.frame == MAVFrame.globalRelativeAltInt { kept.frame = MAVFrame.globalRelativeAlt }
            }
            return kept
        }
        if flavor == .ardupilot, !stored.isEmpty {
            stored[0].x = Self.homeE7.0
            stored[0].y = Self.homeE7.1
            stored[0].z = 34
        }
        return [ack(MissionAck.accepted)]
    }
}

/// Runs a `MissionSync` against a `MissionStoreAutopilot` (`ListExchange`).
typealias MissionExchange = ListExchange<AutopilotMission, MissionStoreAutopilot>

extension ListExchange where List == AutopilotMission, Store == MissionStoreAutopilot {
    init() {
        self.init(sync: MissionSync(systemId: MissionStoreAutopilot.companion), autopilot: MissionStoreAutopilot())
    }
}
