/// COMMAND_INT (75): a MAV_CMD with a position as integers (lat/lon × 1e7) in `frame`, answered by COMMAND_ACK.
public struct CommandInt: MAVLinkMessage {
    public static let messageId: UInt32 = 75
    public static let crcExtra: UInt8 = 158
    public static let fullLength = 35

    /// param1 … param4.
    public var params: [Float]
    /// Latitude × 1e7 in a global frame.
    public var x: Int32
    /// Longitude × 1e7 in a global frame.
    public var y: Int32
    /// Altitude in metres (its reference is `frame`'s).
    public var z: Float
    public var command: UInt16
    public var targetSystem: UInt8
    public var targetComponent: UInt8
    /// MAV_FRAME: 0 GLOBAL (AMSL), 3 GLOBAL_RELATIVE_ALT, 5/6 their _INT twins.
    public var frame: UInt8
    public var current: UInt8 = 0
    public var autocontinue: UInt8 = 0

    public init(command: UInt16, frame: UInt8, x: Int32, y: Int32, z: Float, targetSystem: UInt8,
                targetComponent: UInt8, params: [Float] = []) {
        self.command = command
        self.frame = frame
        self.x = x
        self.y = y
        self.z = z
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.params = (0..<4).map { $0 < params.count ? params[$0] : 0 }
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        params = (0..<4).map { _ in p.float() }
        x = p.read()
        y = p.read()
        z = p.float()
        command = p.read()
        targetSystem = p.read()
        targetComponent = p.read()
        frame = p.read()
        current = p.read()
        autocontinue = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        for index in 0..<4 { p.float(index < params.count ? params[index] : 0) }
        p.write(x)
        p.write(y)
        p.float(z)
        p.write(command)
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(frame)
        p.write(current)
        p.write(autocontinue)
    }

    /// param1…param4 by their 1-based number.
    public func param(_ number: Int) -> Float {
        (1...4).contains(number) && number <= params.count ? params[number - 1] : 0
    }
}
