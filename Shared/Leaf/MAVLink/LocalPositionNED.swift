/// LOCAL_POSITION_NED (32): the autopilot's estimate in its local frame (metres north, east, down of its origin)
/// and velocity. Position setpoints (hover) are given in this frame.
public struct LocalPositionNED: MAVLinkMessage {
    public static let messageId: UInt32 = 32
    public static let crcExtra: UInt8 = 185
    public static let fullLength = 28

    public var timeBootMs: UInt32
    public var xM: Float
    public var yM: Float
    public var zM: Float
    public var vxMps: Float
    public var vyMps: Float
    public var vzMps: Float

    public init(timeBootMs: UInt32, xM: Float, yM: Float, zM: Float, vxMps: Float = 0, vyMps: Float = 0,
                vzMps: Float = 0) {
        self.timeBootMs = timeBootMs
        self.xM = xM
        self.yM = yM
        self.zM = zM
        self.vxMps = vxMps
        self.vyMps = vyMps
        self.vzMps = vzMps
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        timeBootMs = p.read()
        xM = p.float()
        yM = p.float()
        zM = p.float()
        vxMps = p.float()
        vyMps = p.float()
        vzMps = p.float()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(timeBootMs)
        for value in [xM, yM, zM, vxMps, vyMps, vzMps] { p.float(value) }
    }
}
