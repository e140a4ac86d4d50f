/// MISSION_REQUEST_LIST (43): ask the vehicle for its items of one mission type; it answers with MISSION_COUNT.
public struct MissionRequestList: MissionListMessage {
    public static let messageId: UInt32 = 43
    public static let crcExtra: UInt8 = 132

    public var targetSystem: UInt8
    public var targetComponent: UInt8
    public var missionType: UInt8 = 0

    public init(targetSystem: UInt8, targetComponent: UInt8, missionType: UInt8 = 0) {
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.missionType = missionType
    }
}
