/// One line from gpsd in JSON mode, typed by its `class`.
public enum GPSDReport: Sendable, Equatable {
    case version(GPSDVersion)
    case devices([GPSDDevice])
    case watch(GPSDWatch)
    case tpv(GPSDTPV)
    case sky(GPSDSky)
    case error(message: String)
    /// A class we do not use (DEVICE, GST, ATT, TOFF, PPS, …).
    case other(className: String)
}

/// `{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}` — the first line after connecting.
public struct GPSDVersion: Sendable, Equatable {
    public var release: String
    public var protocolMajor: Int
    public var protocolMinor: Int

    public init(release: String, protocolMajor: Int, protocolMinor: Int) {
        self.release = release
        self.protocolMajor = protocolMajor
        self.protocolMinor = protocolMinor
    }
}

/// One entry of a DEVICES report.
public struct GPSDDevice: Sendable, Equatable {
    public var path: String
    public var driver: String?

    public init(path: String, driver: String? = nil) {
        self.path = path
        self.driver = driver
    }
}

/// gpsd's echo of the watch policy in force.
public struct GPSDWatch: Sendable, Equatable {
    public var enable: Bool
    public var json: Bool

    public init(enable: Bool, json: Bool) {
        self.enable = enable
        self.json = json
    }
}

/// Satellite summary from a SKY report.
public struct GPSDSky: Sendable, Equatable {
    /// Satellites used in the solution: `uSat`, else the count of `satellites[].used == true`; nil when unknown.
    public var satellitesUsed: Int?
    public var satellitesVisible: Int?
    public var hdop: Double?

    public init(satellitesUsed: Int? = nil, satellitesVisible: Int? = nil, hdop: Double? = nil) {
        self.satellitesUsed = satellitesUsed
        self.satellitesVisible = satellitesVisible
        self.hdop = hdop
    }
}

/// A TPV (time-position-velocity) report with every field as gpsd sent it; absent, mistyped or non-finite
/// numbers are nil. Use `fixStatus` to get a position you may act on.
public struct GPSDTPV: Sendable, Equatable {
    public var device: String?
    /// 0 unknown, 1 no fix, 2 two-dimensional, 3 three-dimensional.
    public var mode: Int
    public var time: String?
    public var latitudeDeg: Double?
    public var longitudeDeg: Double?
    /// `altMSL`, falling back to the pre-3.20 `alt`.
    public var altitudeMSLM: Double?
    public var trackDeg: Double?
    public var speedMps: Double?
    public var ephM: Double?
    public var epxM: Double?
    public var epyM: Double?

    public init(device: String? = nil, mode: Int, time: String? = nil, latitudeDeg: Double? = nil,
                longitudeDeg: Double? = nil, altitudeMSLM: Double? = nil, trackDeg: Double? = nil,
                speedMps: Double? = nil, ephM: Double? = nil, epxM: Double? = nil, epyM: Double? = nil) {
        self.device = device
        self.mode = mode
        self.time = time
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
        self.altitudeMSLM = altitudeMSLM
        self.trackDeg = trackDeg
        self.speedMps = speedMps
        self.ephM = ephM
        self.epxM = epxM
        self.epyM = epyM
    }
}
