/// The layout MISSION_CLEAR_ALL and MISSION_REQUEST_LIST share: target system and component u8, then the mission
/// type (an extension field).
public protocol MissionListMessage: MAVLinkMessage {
    var targetSystem: UInt8 { get }
    var targetComponent: UInt8 { get }
    var missionType: UInt8 { get }
    init(targetSystem: UInt8, targetComponent: UInt8, missionType: UInt8)
}

extension MissionListMessage {
    public static var baseLength: Int { 2 }
    public static var fullLength: Int { 3 }

    public init(reading p: inout MAVLinkPayloadReader) {
        let system: UInt8 = p.read()
        let component: UInt8 = p.read()
        self.init(targetSystem: system, targetComponent: component, missionType: p.read())
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(missionType)
    }
}
