/// What the drone's sensors report at one instant: noisy GPS and compass, plus the navdata demo fields.
public struct SensorReadings: Sendable, Equatable {
    public var gps: GPSReading
    /// Magnetometer heading, degrees clockwise from north, [0, 360), with noise.
    public var magnetoHeadingDeg: Double
    public var demo: DemoReadings

    public init(gps: GPSReading, magnetoHeadingDeg: Double, demo: DemoReadings) {
        self.gps = gps
        self.magnetoHeadingDeg = magnetoHeadingDeg
        self.demo = demo
    }
}

public struct GPSReading: Sendable, Equatable {
    public var latitudeDeg: Double
    public var longitudeDeg: Double
    /// Height above the take-off point, m (the simulator has no terrain).
    public var elevationM: Double
    public var speedMps: Double
    public var satelliteCount: UInt32

    public init(
        latitudeDeg: Double, longitudeDeg: Double, elevationM: Double, speedMps: Double, satelliteCount: UInt32
    ) {
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
        self.elevationM = elevationM
        self.speedMps = speedMps
        self.satelliteCount = satelliteCount
    }
}

/// The navdata demo option's values, in its wire units.
public struct DemoReadings: Sendable, Equatable {
    /// (major << 16) | minor.
    public var controlState: UInt32
    public var batteryPct: UInt32
    /// Pitch, millidegrees; negative = nose down.
    public var pitchMdeg: Float
    /// Roll, millidegrees; positive = right wing down.
    public var rollMdeg: Float
    /// Yaw, millidegrees in [−180 000, 180 000), clockwise from north.
    public var yawMdeg: Float
    public var altitudeMm: Int32
    /// Body frame, mm/s: x forward, y right, z up.
    public var vxMmps: Float
    public var vyMmps: Float
    public var vzMmps: Float

    public init(
        controlState: UInt32, batteryPct: UInt32, pitchMdeg: Float, rollMdeg: Float, yawMdeg: Float,
        altitudeMm: Int32, vxMmps: Float, vyMmps: Float, vzMmps: Float
    ) {
        self.controlState = controlState
        self.batteryPct = batteryPct
        self.pitchMdeg = pitchMdeg
        self.rollMdeg = rollMdeg
        self.yawMdeg = yawMdeg
        self.altitudeMm = altitudeMm
        self.vxMmps = vxMmps
        self.vyMmps = vyMmps
        self.vzMmps = vzMmps
    }
}
