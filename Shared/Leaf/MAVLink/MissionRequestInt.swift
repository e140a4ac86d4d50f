/// MISSION_REQUEST_INT (51): the vehicle asks the uploader for item `seq`.
public struct MissionRequestInt: MissionSeqMessage {
    public static let messageId: UInt32 = 51
    public static let crcExtra: UInt8 = 196

    public var seq: UInt16
    public var targetSystem: UInt8
    public var targetComponent: UInt8
    public var missionType: UInt8 = 0

    public init(seq: UInt16, targetSystem: UInt8, targetComponent: UInt8, missionType: UInt8 = 0) {
        self.seq = seq
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.missionType = missionType
    }
}
