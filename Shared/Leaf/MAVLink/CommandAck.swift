/// COMMAND_ACK (77): the result of a COMMAND_LONG.
public struct CommandAck: MAVLinkMessage {
    public static let messageId: UInt32 = 77
    public static let crcExtra: UInt8 = 143
    public static let baseLength = 3
    public static let fullLength = 10

    public var command: UInt16
    /// MAV_RESULT (see `MAVResult`); raw so that an unknown value is reported, not a decode error.
    public var result: UInt8
    // Extensions.
    public var progress: UInt8 = 0
    public var resultParam2: Int32 = 0
    public var targetSystem: UInt8 = 0
    public var targetComponent: UInt8 = 0

    public init(command: UInt16, result: MAVResult, targetSystem: UInt8 = 0, targetComponent: UInt8 = 0) {
        self.command = command
        self.result = result.rawValue
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        command = p.read()
        result = p.read()
        progress = p.read()
        resultParam2 = p.read()
        targetSystem = p.read()
        targetComponent = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(command)
        p.write(result)
        p.write(progress)
        p.write(resultParam2)
        p.write(targetSystem)
        p.write(targetComponent)
    }
}
