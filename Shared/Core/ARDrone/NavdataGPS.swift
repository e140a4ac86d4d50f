/// One receiver channel of the GPS option.
public struct GPSChannel: Sendable, Equatable {
    public var satellite: UInt8
    /// Carrier-to-noise ratio, dB-Hz.
    public var cn0: UInt8

    public init(satellite: UInt8, cn0: UInt8) {
        self.satellite = satellite
        self.cn0 = cn0
    }
}

/// The GPS option (tag 27, 216 bytes), sent by firmware ≥ 2.4.1 with the Flight Recorder when bit 27 is set in
/// `general:navdata_options`. Layout from node-ar-drone / ardrone_autonomy (firmware 2.4.8); a tag 27 of
/// another size (12 = SDK zimmu_3000) is kept as a raw option instead. Some firmware sends a longer variant;
/// only the first 216 bytes are read.
public struct NavdataGPS: Sendable, Equatable {
    public static let channelCount = 12
    public static let trajectoryTermCount = 10

    public var latitudeDeg: Double
    public var longitudeDeg: Double
    /// Elevation, metres.
    public var elevationM: Double
    public var hdop: Double
    /// Non-zero when the receiver has a position.
    public var dataAvailable: Int32
    public var zeroValidated: Int32
    public var waypointValidated: Int32
    public var latitude0Deg: Double
    public var longitude0Deg: Double
    public var latitudeFusedDeg: Double
    public var longitudeFusedDeg: Double
    public var gpsState: UInt32
    /// x_traj, x_ref, y_traj, y_ref, theta_p, phi_p, theta_i, phi_i, theta_d, phi_d (exactly 10 on the wire).
    public var trajectoryTerms: [Float]
    public var vdop: Double
    public var pdop: Double
    public var speed: Float
    /// Drone time format (see `NavdataTime`).
    public var lastFrameTimestamp: UInt32
    /// Course, degrees.
    public var degree: Float
    public var degreeMagnetic: Float
    /// Estimated horizontal / vertical position error, metres.
    public var ehpe: Float
    public var ehve: Float
    /// Average C/N0 of the best four satellites.
    public var cn0: Float
    public var satelliteCount: UInt32
    /// Exactly 12 on the wire; encoding pads with zeros or drops extras.
    public var channels: [GPSChannel]
    public var gpsPlugged: Int32
    public var ephemerisStatus: UInt32
    public var velocityXTrajectory: Float
    public var velocityYTrajectory: Float
    public var firmwareStatus: UInt32

    public init(latitudeDeg: Double, longitudeDeg: Double, elevationM: Double = 0, hdop: Double = 0,
                dataAvailable: Int32 = 1, zeroValidated: Int32 = 0, waypointValidated: Int32 = 0,
                latitude0Deg: Double = 0, longitude0Deg: Double = 0, latitudeFusedDeg: Double = 0,
                longitudeFusedDeg: Double = 0, gpsState: UInt32 = 1,
                trajectoryTerms: [Float] = Array(repeating: 0, count: trajectoryTermCount),
                vdop: Double = 0, pdop: Double = 0, speed: Float = 0, lastFrameTimestamp: UInt32 = 0,
                degree: Float = 0, degreeMagnetic: Float = 0, ehpe: Float = 0, ehve: Float = 0, cn0: Float = 0,
                satelliteCount: UInt32 = 0,
                channels: [GPSChannel] = Array(repeating: GPSChannel(satellite: 0, cn0: 0), count: channelCount),
                gpsPlugged: Int32 = 1, ephemerisStatus: UInt32 = 0, velocityXTrajectory: Float = 0,
                velocityYTrajectory: Float = 0, firmwareStatus: UInt32 = 0) {
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
        self.elevationM = elevationM
        self.hdop = hdop
        self.dataAvailable = dataAvailable
        self.zeroValidated = zeroValidated
        self.waypointValidated = waypointValidated
        self.latitude0Deg = latitude0Deg
        self.longitude0Deg = longitude0Deg
        self.latitudeFusedDeg = latitudeFusedDeg
        self.longitudeFusedDeg = longitudeFusedDeg
        self.gpsState = gpsState
        self.trajectoryTerms = trajectoryTerms
        self.vdop = vdop
        self.pdop = pdop
        self.speed = speed
        self.lastFrameTimestamp = lastFrameTimestamp
        self.degree = degree
        self.degreeMagnetic = degreeMagnetic
        self.ehpe = ehpe
        self.ehve = ehve
        self.cn0 = cn0
        self.satelliteCount = satelliteCount
        self.channels = channels
        self.gpsPlugged = gpsPlugged
        self.ephemerisStatus = ephemerisStatus
        self.velocityXTrajectory = velocityXTrajectory
        self.velocityYTrajectory = velocityYTrajectory
        self.firmwareStatus = firmwareStatus
    }
}
