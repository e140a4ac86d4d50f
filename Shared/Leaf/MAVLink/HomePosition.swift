/// HOME_POSITION (242): where the vehicle will return to; PX4 sends it once it has a position (MAVSDK's
/// `is_home_position_ok` waits for it).
public struct HomePosition: MAVLinkMessage {
    public static let messageId: UInt32 = 242
    public static let crcExtra: UInt8 = 104
    public static let baseLength = 52
    public static let fullLength = 60

    public var latE7: Int32
    public var lonE7: Int32
    /// Altitude above mean sea level.
    public var altMm: Int32
    /// Local position of home (NED, metres).
    public var xM: Float = 0
    public var yM: Float = 0
    public var zM: Float = 0
    /// Surface orientation quaternion (w, x, y, z).
    public var q: [Float] = [1, 0, 0, 0]
    public var approachXM: Float = 0
    public var approachYM: Float = 0
    public var approachZM: Float = 0
    // Extension.
    public var timeUs: UInt64 = 0

    public init(latE7: Int32, lonE7: Int32, altMm: Int32, timeUs: UInt64 = 0) {
        self.latE7 = latE7
        self.lonE7 = lonE7
        self.altMm = altMm
        self.timeUs = timeUs
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        latE7 = p.read()
        lonE7 = p.read()
        altMm = p.read()
        xM = p.float()
        yM = p.float()
        zM = p.float()
        q = (0..<4).map { _ in p.float() }
        approachXM = p.float()
        approachYM = p.float()
        approachZM = p.float()
        timeUs = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(latE7)
        p.write(lonE7)
        p.write(altMm)
        p.float(xM)
        p.float(yM)
        p.float(zM)
        for index in 0..<4 { p.float(index < q.count ? q[index] : 0) }
        p.float(approachXM)
        p.float(approachYM)
        p.float(approachZM)
        p.write(timeUs)
    }
}
