/// MISSION_SET_CURRENT (41): make item `seq` the one the vehicle flies to when its mission runs (the autopilot
/// answers with MISSION_CURRENT). In any mode: it moves where a later mission mode starts.
public struct MissionSetCurrent: MAVLinkMessage {
    public static let messageId: UInt32 = 41
    public static let crcExtra: UInt8 = 28
    public static let baseLength = 4
    public static let fullLength = 4

    public var seq: UInt16
    public var targetSystem: UInt8
    public var targetComponent: UInt8

    public init(seq: UInt16, targetSystem: UInt8, targetComponent: UInt8) {
        self.seq = seq
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        seq = p.read()
        targetSystem = p.read()
        targetComponent = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(seq)
        p.write(targetSystem)
        p.write(targetComponent)
    }
}
