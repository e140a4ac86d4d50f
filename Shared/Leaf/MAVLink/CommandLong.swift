/// COMMAND_LONG (76): a MAV_CMD with seven float parameters, answered by COMMAND_ACK.
public struct CommandLong: MAVLinkMessage {
    public static let messageId: UInt32 = 76
    public static let crcExtra: UInt8 = 152
    public static let fullLength = 33

    /// param1 … param7.
    public var params: [Float]
    public var command: UInt16
    public var targetSystem: UInt8
    public var targetComponent: UInt8
    /// 0 for the first transmission, +1 for each resend.
    public var confirmation: UInt8

    public init(command: UInt16, targetSystem: UInt8, targetComponent: UInt8, confirmation: UInt8 = 0,
                params: [Float] = []) {
        self.command = command
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.confirmation = confirmation
        self.params = (0..<7).map { $0 < params.count ? params[$0] : 0 }
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        params = (0..<7).map { _ in p.float() }
        command = p.read()
        targetSystem = p.read()
        targetComponent = p.read()
        confirmation = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        for index in 0..<7 { p.float(index < params.count ? params[index] : 0) }
        p.write(command)
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(confirmation)
    }

    /// param1…param7 by their 1-based number, as the MAV_CMD docs name them.
    public func param(_ number: Int) -> Float {
        (1...7).contains(number) && number <= params.count ? params[number - 1] : 0
    }
}
