/// MISSION_REQUEST_LIST (43): ask the vehicle for its items of one mission type; it answers with MISSION_COUNT.
public struct MissionRequestList: MAVLinkMessage {
    public static let messageId: UInt32 = 43
    public static let crcExtra: UInt8 = 132
    public static let baseLength = 2
    public static let fullLength = 3

    public var targetSystem: UInt8
    public var targetComponent: UInt8
    public var missionType: UInt8 = 0

    public init(targetSystem: UInt8, targetComponent: UInt8, missionType: UInt8 = 0) {
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.missionType = missionType
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        targetSystem = p.read()
        targetComponent = p.read()
        missionType = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(missionType)
    }
}
