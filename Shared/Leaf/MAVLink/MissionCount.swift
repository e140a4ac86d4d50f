/// MISSION_COUNT (44): the uploader says how many items follow; the vehicle asks for each by MISSION_REQUEST_INT.
public struct MissionCount: MAVLinkMessage {
    public static let messageId: UInt32 = 44
    public static let crcExtra: UInt8 = 221
    public static let baseLength = 4
    public static let fullLength = 5

    public var count: UInt16
    public var targetSystem: UInt8
    public var targetComponent: UInt8
    /// MAV_MISSION_TYPE: 0 = the flight plan (fence and rally points are other types).
    public var missionType: UInt8 = 0

    public init(count: UInt16, targetSystem: UInt8, targetComponent: UInt8, missionType: UInt8 = 0) {
        self.count = count
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.missionType = missionType
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        count = p.read()
        targetSystem = p.read()
        targetComponent = p.read()
        missionType = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(count)
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(missionType)
    }
}
