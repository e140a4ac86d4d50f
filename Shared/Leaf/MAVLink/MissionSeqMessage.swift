/// The layout MISSION_REQUEST_INT and MISSION_REQUEST share: seq u16, target system and component u8, then the
/// mission type (an extension field).
public protocol MissionSeqMessage: MAVLinkMessage {
    var seq: UInt16 { get }
    var targetSystem: UInt8 { get }
    var targetComponent: UInt8 { get }
    var missionType: UInt8 { get }
    init(seq: UInt16, targetSystem: UInt8, targetComponent: UInt8, missionType: UInt8)
}

extension MissionSeqMessage {
    public static var baseLength: Int { 4 }
    public static var fullLength: Int { 5 }

    public init(reading p: inout MAVLinkPayloadReader) {
        let seq: UInt16 = p.read()
        let system: UInt8 = p.read()
        let component: UInt8 = p.read()
        self.init(seq: seq, targetSystem: system, targetComponent: component, missionType: p.read())
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(seq)
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(missionType)
    }
}
