/// MISSION_REQUEST (40): the older form of MISSION_REQUEST_INT, the same fields; an autopilot may still ask with it
/// (the uploader answers with MISSION_ITEM_INT either way).
public struct MissionRequest: MissionSeqMessage {
    public static let messageId: UInt32 = 40
    public static let crcExtra: UInt8 = 230

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
