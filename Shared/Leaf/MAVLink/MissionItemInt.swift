/// MISSION_ITEM_INT (73): one mission item, a MAV_CMD with its position as integers (lat/lon × 1e7).
public struct MissionItemInt: MAVLinkMessage {
    public static let messageId: UInt32 = 73
    public static let crcExtra: UInt8 = 38
    public static let baseLength = 37
    public static let fullLength = 38

    /// param1 … param4 (NAV_WAYPOINT: hold time s, acceptance radius m, pass radius m, yaw deg).
    public var params: [Float]
    /// Latitude × 1e7 in a global frame.
    public var x: Int32
    /// Longitude × 1e7 in a global frame.
    public var y: Int32
    /// Altitude in metres in `frame`'s reference.
    public var z: Float
    public var seq: UInt16
    public var command: UInt16
    public var targetSystem: UInt8
    public var targetComponent: UInt8
    public var frame: UInt8
    public var current: UInt8 = 0
    public var autocontinue: UInt8 = 1
    public var missionType: UInt8 = 0

    public init(seq: UInt16, command: UInt16, frame: UInt8, x: Int32, y: Int32, z: Float, targetSystem: UInt8,
                targetComponent: UInt8, params: [Float] = []) {
        self.seq = seq
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
        seq = p.read()
        command = p.read()
        targetSystem = p.read()
        targetComponent = p.read()
        frame = p.read()
        current = p.read()
        autocontinue = p.read()
        missionType = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        for index in 0..<4 { p.float(index < params.count ? params[index] : 0) }
        p.write(x)
        p.write(y)
        p.float(z)
        p.write(seq)
        p.write(command)
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(frame)
        p.write(current)
        p.write(autocontinue)
        p.write(missionType)
    }
}
