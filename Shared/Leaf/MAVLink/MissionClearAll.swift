/// MISSION_CLEAR_ALL (45): delete the vehicle's mission; answered by MISSION_ACK.
public struct MissionClearAll: MissionListMessage {
    public static let messageId: UInt32 = 45
    public static let crcExtra: UInt8 = 232

    public var targetSystem: UInt8
    public var targetComponent: UInt8
    public var missionType: UInt8 = 0

    public init(targetSystem: UInt8, targetComponent: UInt8, missionType: UInt8 = 0) {
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.missionType = missionType
    }
}
