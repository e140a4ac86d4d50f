/// PARAM_REQUEST_LIST (21): ask for every parameter; the autopilot answers with one PARAM_VALUE each.
public struct ParamRequestList: MAVLinkMessage {
    public static let messageId: UInt32 = 21
    public static let crcExtra: UInt8 = 159
    public static let fullLength = 2

    public var targetSystem: UInt8
    public var targetComponent: UInt8

    public init(targetSystem: UInt8, targetComponent: UInt8) {
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        targetSystem = p.read()
        targetComponent = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(targetSystem)
        p.write(targetComponent)
    }
}
