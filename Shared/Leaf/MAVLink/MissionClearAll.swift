/// MISSION_CLEAR_ALL (45): delete the vehicle's mission; answered by MISSION_ACK.
public struct MissionClearAll: MAVLinkMessage {
    public static let messageId: UInt32 = 45
    public static let crcExtra: UInt8 = 232
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
