import MAVLink

/// One item of an autopilot's fence (MAVLink mission type 1): a polygon vertex or a circle, in the form both the
/// upload and the read-back compare in (latitude and longitude × 1e7, as MISSION_ITEM_INT carries them).
public struct FenceItem: Sendable, Equatable {
    /// MAV_CMD_NAV_FENCE_*: 5001/5002 polygon vertex (inclusion/exclusion), 5003/5004 circle.
    public var command: UInt16
    /// The polygon's vertex count, or the circle's radius in metres.
    public var param1: Float
    public var latitudeE7: Int32
    public var longitudeE7: Int32

    public init(command: UInt16, param1: Float, latitudeE7: Int32, longitudeE7: Int32) {
        self.command = command
        self.param1 = param1
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }

    /// As MISSION_ITEM_INT number `seq` of the fence list.
    func missionItem(seq: UInt16, target: (system: UInt8, component: UInt8)) -> MissionItemInt {
        var item = MissionItemInt(seq: seq, command: command, frame: MAVFrame.global, x: latitudeE7, y: longitudeE7,
                                  z: 0, targetSystem: target.system, targetComponent: target.component,
                                  params: [param1])
        item.missionType = MAVMissionType.fence
        item.autocontinue = 0
        return item
    }

    init(_ item: MissionItemInt) {
        self.init(command: item.command, param1: item.params.first ?? 0, latitudeE7: item.x, longitudeE7: item.y)
    }

    /// The same item as stored by an autopilot: a coordinate may come back 1e-7° off (PX4 keeps doubles and
    /// rounds on the way out, about 1 cm), a radius or a count as a float.
    func matches(_ other: FenceItem) -> Bool {
        command == other.command && abs(param1 - other.param1) <= 0.01
            && abs(Int64(latitudeE7) - Int64(other.latitudeE7)) <= 1
            && abs(Int64(longitudeE7) - Int64(other.longitudeE7)) <= 1
    }
}
