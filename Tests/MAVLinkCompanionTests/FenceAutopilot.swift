import MAVLink
@testable import MAVLinkCompanion

/// An autopilot's fence store for `FenceSyncTests`: answers the mission protocol (type 1) and PARAM_SET the way
/// PX4 and ArduCopter do (it asks for the next missing item, ACKs when it has them all).
struct FenceAutopilot: ListStore {
    var stored: [FenceItem] = []
    var parameters: [String: Double] = [:]
    var flavor = AutopilotFlavor.px4
    /// Uploads to refuse (MAV_MISSION_ERROR) before one is taken.
    var refusals = 0
    /// Ask for item 1 before item 0, and for each item twice.
    var outOfOrder = false
    /// As PX4: a MISSION_COUNT while it still receives a list is refused (MAV_MISSION_ERROR, "WPM: REJ. CMD:
    /// Busy"), and the open transfer goes on.
    var busyWhileReceiving = false
    /// Parameters it does not have (never answers for them).
    var unknownParameters: Set<String> = []
    private var incoming: [FenceItem?] = []

    static let companion: UInt8 = 245

    func request(_ seq: Int) -> MAVLinkInbound {
        .missionRequestInt(MissionRequestInt(seq: UInt16(seq), targetSystem: Self.companion, targetComponent: 191,
                                             missionType: MAVMissionType.fence))
    }

    func ack(_ result: UInt8) -> MAVLinkInbound {
        .missionAck(MissionAck(type: result, targetSystem: Self.companion, targetComponent: 191,
                               missionType: MAVMissionType.fence))
    }

    mutating func handle(_ message: FenceSync.Message) -> [MAVLinkInbound] {
        switch message {
        case .count(let count):
            if busyWhileReceiving, incoming.contains(where: { $0 == nil }) { return [ack(MissionAck.error)] }
            incoming = Array(repeating: nil, count: Int(count.count))
            if count.count == 0 { return finishUpload() }
            return outOfOrder && count.count > 1 ? [request(1), request(0), request(0)] : [request(0)]
        case .item(let item):
            guard Int(item.seq) < incoming.count, item.missionType == MAVMissionType.fence else { return [] }
            incoming[Int(item.seq)] = FenceItem(item)
            guard let missing = incoming.firstIndex(where: { $0 == nil }) else { return finishUpload() }
            return outOfOrder ? [request(missing), request(missing)] : [request(missing)]
        case .paramSet(let set):
            guard !unknownParameters.contains(set.paramId) else { return [] }
            let value = flavor == .px4 && set.paramType == ParamValue.typeInt32
                ? Double(Int32(bitPattern: set.paramValue.bitPattern)) : Double(set.paramValue)
            parameters[set.paramId] = value
            return [.paramValue(ParamValue(paramId: set.paramId, paramValue: set.paramValue, paramType: set.paramType,
                                           paramCount: 1, paramIndex: 0))]
        case .requestList:
            return [.missionCount(MissionCount(count: UInt16(stored.count), targetSystem: Self.companion,
                                               targetComponent: 191, missionType: MAVMissionType.fence))]
        case .request(let request):
            guard Int(request.seq) < stored.count else { return [] }
            return [.missionItemInt(stored[Int(request.seq)].missionItem(seq: request.seq,
                                                                         target: (Self.companion, 191)))]
        case .ack:
            return []
        }
    }

    private mutating func finishUpload() -> [MAVLinkInbound] {
        if refusals > 0 {
            refusals -= 1
            return [ack(MissionAck.error)]
        }
        stored = incoming.compactMap { $0 }
        return [ack(MissionAck.accepted)]
    }
}

/// Runs a `FenceSync` against a `FenceAutopilot` (`ListExchange`).
typealias FenceExchange = ListExchange<FencePlan, FenceAutopilot>

extension ListExchange where List == FencePlan, Store == FenceAutopilot {
    init() { self.init(sync: FenceSync(systemId: FenceAutopilot.companion), autopilot: FenceAutopilot()) }

    struct AirspaceStatusSummary: Equatable {
        var accepted: Bool
        var refusal: String?
    }

    /// The fence statuses published, as accepted-or-not and the refusal's reason.
    var statuses: [AirspaceStatusSummary] {
        published.map { .init(accepted: $0.accepted != nil, refusal: $0.uploadRefusal?.reason) }
    }
}
