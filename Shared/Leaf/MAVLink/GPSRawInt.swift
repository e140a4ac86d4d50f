/// GPS_RAW_INT (24): the receiver's own fix (not the fused estimate): fix type, satellites, accuracy.
public struct GPSRawInt: MAVLinkMessage {
    public static let messageId: UInt32 = 24
    public static let crcExtra: UInt8 = 24
    public static let baseLength = 30
    public static let fullLength = 52

    public var timeUs: UInt64
    public var latE7: Int32
    public var lonE7: Int32
    public var altMm: Int32
    /// HDOP × 100; UINT16_MAX = unknown.
    public var eph: UInt16
    public var epv: UInt16
    public var velCmps: UInt16
    public var cogCdeg: UInt16
    /// GPS_FIX_TYPE: 0/1 no fix, 2 2D, 3 3D, 4 DGPS, 5/6 RTK.
    public var fixType: UInt8
    /// UINT8_MAX = unknown.
    public var satellitesVisible: UInt8
    // Extensions.
    public var altEllipsoidMm: Int32 = 0
    public var hAccMm: UInt32 = 0
    public var vAccMm: UInt32 = 0
    public var velAccMmps: UInt32 = 0
    public var hdgAccDegE5: UInt32 = 0
    public var yawCdeg: UInt16 = 0

    public init(timeUs: UInt64, latE7: Int32, lonE7: Int32, altMm: Int32, eph: UInt16 = .max, epv: UInt16 = .max,
                velCmps: UInt16 = .max, cogCdeg: UInt16 = .max, fixType: UInt8, satellitesVisible: UInt8,
                hAccMm: UInt32 = 0) {
        self.timeUs = timeUs
        self.latE7 = latE7
        self.lonE7 = lonE7
        self.altMm = altMm
        self.eph = eph
        self.epv = epv
        self.velCmps = velCmps
        self.cogCdeg = cogCdeg
        self.fixType = fixType
        self.satellitesVisible = satellitesVisible
        self.hAccMm = hAccMm
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        timeUs = p.read()
        latE7 = p.read()
        lonE7 = p.read()
        altMm = p.read()
        eph = p.read()
        epv = p.read()
        velCmps = p.read()
        cogCdeg = p.read()
        fixType = p.read()
        satellitesVisible = p.read()
        altEllipsoidMm = p.read()
        hAccMm = p.read()
        vAccMm = p.read()
        velAccMmps = p.read()
        hdgAccDegE5 = p.read()
        yawCdeg = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(timeUs)
        p.write(latE7)
        p.write(lonE7)
        p.write(altMm)
        p.write(eph)
        p.write(epv)
        p.write(velCmps)
        p.write(cogCdeg)
        p.write(fixType)
        p.write(satellitesVisible)
        p.write(altEllipsoidMm)
        p.write(hAccMm)
        p.write(vAccMm)
        p.write(velAccMmps)
        p.write(hdgAccDegE5)
        p.write(yawCdeg)
    }
}
