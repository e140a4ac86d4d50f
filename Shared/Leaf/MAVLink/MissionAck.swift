/// MISSION_ACK (47): the end of an upload (MAV_MISSION_RESULT: 0 accepted, 1 error, …) or a clear.
public struct MissionAck: MAVLinkMessage {
    public static let messageId: UInt32 = 47
    public static let crcExtra: UInt8 = 153
    public static let baseLength = 3
    public static let fullLength = 4

    public var targetSystem: UInt8
    public var targetComponent: UInt8
    public var type: UInt8
    public var missionType: UInt8 = 0

    public static let accepted: UInt8 = 0
    public static let error: UInt8 = 1
    public static let unsupported: UInt8 = 3
    public static let invalidSequence: UInt8 = 13

    public init(type: UInt8, targetSystem: UInt8, targetComponent: UInt8, missionType: UInt8 = 0) {
        self.type = type
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.missionType = missionType
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        targetSystem = p.read()
        targetComponent = p.read()
        type = p.read()
        missionType = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(type)
        p.write(missionType)
    }
}
