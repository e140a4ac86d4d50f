import MAVLink

/// The vehicle's flight plan and its upload, as PX4 keeps them: MISSION_COUNT, then each item asked for in turn by
/// MISSION_REQUEST_INT, then MISSION_ACK. Pure: messages in, messages out.
struct SimulatedMission: Sendable, Equatable {
    struct Upload: Sendable, Equatable {
        var count: Int
        var items: [MissionItemInt]
        var system: UInt8
        var component: UInt8
    }

    var items: [MissionItemInt] = []
    var upload: Upload?
    /// The item flown to now.
    var current = 0
    var isStarted = false
    var isComplete: Bool { isStarted && current >= items.count }

    /// What the vehicle sends back to a message of the upload.
    enum Reply: Equatable { case request(MissionRequestInt), ack(MissionAck) }

    mutating func receive(_ count: MissionCount, from system: UInt8, _ component: UInt8) -> Reply {
        guard count.missionType == 0 else {
            return .ack(MissionAck(type: MissionAck.unsupported, targetSystem: system, targetComponent: component,
                                   missionType: count.missionType))
        }
        guard count.count > 0 else {
            replace(with: [])
            return .ack(MissionAck(type: MissionAck.accepted, targetSystem: system, targetComponent: component))
        }
        upload = Upload(count: Int(count.count), items: [], system: system, component: component)
        return .request(MissionRequestInt(seq: 0, targetSystem: system, targetComponent: component))
    }

    /// An item: the next one is asked for; one out of turn asks again for the expected one; none without an upload.
    mutating func receive(_ item: MissionItemInt) -> Reply? {
        guard var upload, item.missionType == 0 else { return nil }
        guard Int(item.seq) == upload.items.count else {
            return .request(MissionRequestInt(seq: UInt16(upload.items.count), targetSystem: upload.system,
                                              targetComponent: upload.component))
        }
        upload.items.append(item)
        guard upload.items.count == upload.count else {
            self.upload = upload
            return .request(MissionRequestInt(seq: UInt16(upload.items.count), targetSystem: upload.system,
                                              targetComponent: upload.component))
        }
        replace(with: upload.items)
        return .ack(MissionAck(type: MissionAck.accepted, targetSystem: upload.system,
            targetComponent: upload.component))
    }

    mutating func replace(with newItems: [MissionItemInt]) {
        items = newItems
        upload = nil
        current = 0
        isStarted = false
    }

    /// MISSION_CURRENT as PX4 sends it: 1 no mission, 2 not started, 3 active, 5 complete.
    var currentMessage: MissionCurrent {
        let state: UInt8 = items.isEmpty ? 1 : !isStarted ? 2 : isComplete ? 5 : 3
        return MissionCurrent(seq: UInt16(min(current, max(items.count - 1, 0))), total: UInt16(items.count),
                              missionState: state)
    }
}
