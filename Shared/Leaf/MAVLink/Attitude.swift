/// ATTITUDE (30): roll, pitch, yaw and their rates (radians, FRD body frame; yaw 0 = north).
public struct Attitude: MAVLinkMessage {
    public static let messageId: UInt32 = 30
    public static let crcExtra: UInt8 = 39
    public static let fullLength = 28

    public var timeBootMs: UInt32
    public var rollRad: Float
    public var pitchRad: Float
    public var yawRad: Float
    public var rollSpeedRadps: Float
    public var pitchSpeedRadps: Float
    public var yawSpeedRadps: Float

    public init(timeBootMs: UInt32, rollRad: Float, pitchRad: Float, yawRad: Float, rollSpeedRadps: Float = 0,
                pitchSpeedRadps: Float = 0, yawSpeedRadps: Float = 0) {
        self.timeBootMs = timeBootMs
        self.rollRad = rollRad
        self.pitchRad = pitchRad
        self.yawRad = yawRad
        self.rollSpeedRadps = rollSpeedRadps
        self.pitchSpeedRadps = pitchSpeedRadps
        self.yawSpeedRadps = yawSpeedRadps
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        timeBootMs = p.read()
        rollRad = p.float()
        pitchRad = p.float()
        yawRad = p.float()
        rollSpeedRadps = p.float()
        pitchSpeedRadps = p.float()
        yawSpeedRadps = p.float()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(timeBootMs)
        p.float(rollRad)
        p.float(pitchRad)
        p.float(yawRad)
        p.float(rollSpeedRadps)
        p.float(pitchSpeedRadps)
        p.float(yawSpeedRadps)
    }
}
