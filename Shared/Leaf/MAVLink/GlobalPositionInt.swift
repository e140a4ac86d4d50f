/// GLOBAL_POSITION_INT (33): the fused position, velocity (NED) and heading.
public struct GlobalPositionInt: MAVLinkMessage {
    public static let messageId: UInt32 = 33
    public static let crcExtra: UInt8 = 104
    public static let fullLength = 28

    public var timeBootMs: UInt32
    public var latE7: Int32
    public var lonE7: Int32
    /// Above mean sea level.
    public var altMm: Int32
    /// Above home.
    public var relativeAltMm: Int32
    /// North, east, down ground speeds.
    public var vxCmps: Int16
    public var vyCmps: Int16
    public var vzCmps: Int16
    /// Heading 0…35999; UINT16_MAX = unknown.
    public var hdgCdeg: UInt16

    public init(timeBootMs: UInt32, latE7: Int32, lonE7: Int32, altMm: Int32, relativeAltMm: Int32, vxCmps: Int16,
                vyCmps: Int16, vzCmps: Int16, hdgCdeg: UInt16) {
        self.timeBootMs = timeBootMs
        self.latE7 = latE7
        self.lonE7 = lonE7
        self.altMm = altMm
        self.relativeAltMm = relativeAltMm
        self.vxCmps = vxCmps
        self.vyCmps = vyCmps
        self.vzCmps = vzCmps
        self.hdgCdeg = hdgCdeg
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        timeBootMs = p.read()
        latE7 = p.read()
        lonE7 = p.read()
        altMm = p.read()
        relativeAltMm = p.read()
        vxCmps = p.read()
        vyCmps = p.read()
        vzCmps = p.read()
        hdgCdeg = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(timeBootMs)
        p.write(latE7)
        p.write(lonE7)
        p.write(altMm)
        p.write(relativeAltMm)
        p.write(vxCmps)
        p.write(vyCmps)
        p.write(vzCmps)
        p.write(hdgCdeg)
    }
}
