/// MISSION_REQUEST (40): the older form of MISSION_REQUEST_INT, same fields; an autopilot may still ask with it
/// (the uploader answers with MISSION_ITEM_INT either way).
public struct MissionRequest: MAVLinkMessage {
    public static let messageId: UInt32 = 40
    public static let crcExtra: UInt8 = 230
    public static let baseLength = 4
    public static let fullLength = 5

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

    public init(reading p: inout MAVLinkPayloadReader) {
        seq = p.read()
        targetSystem = p.read()
        targetComponent = p.read()
        missionType = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(seq)
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(missionType)
    }
}
