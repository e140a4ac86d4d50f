import Clocks

/// A usable position from gpsd: 2D or 3D fix, finite latitude and longitude in range. Built only by
/// `GPSDTPV.fixStatus`, so holding a `GPSFix` means the position passed every check.
public struct GPSFix: Sendable, Equatable {
    public enum Dimension: Int, Sendable, Equatable {
        case twoD = 2
        case threeD = 3
    }

    public var dimension: Dimension
    public var latitudeDeg: Double
    public var longitudeDeg: Double
    /// Altitude above mean sea level, metres; nil for a 2D fix or when gpsd did not report it.
    public var altitudeM: Double?
    /// Course over ground, degrees clockwise from true north, [0, 360); nil when unknown.
    public var trackDeg: Double?
    public var speedMps: Double?
    /// gpsd's estimated horizontal position error, metres (receiver-dependent confidence).
    public var ephM: Double?
    /// Estimated longitude / latitude error, metres, 95 % confidence.
    public var epxM: Double?
    public var epyM: Double?
    /// The fix time exactly as gpsd sent it, and parsed (UTC from the GPS: a wall stamp).
    public var time: String?
    public var stamp: WallInstant?

    public init(dimension: Dimension, latitudeDeg: Double, longitudeDeg: Double, altitudeM: Double? = nil,
                trackDeg: Double? = nil, speedMps: Double? = nil, ephM: Double? = nil, epxM: Double? = nil,
                epyM: Double? = nil, time: String? = nil, stamp: WallInstant? = nil) {
        self.dimension = dimension
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
        self.altitudeM = altitudeM
        self.trackDeg = trackDeg
        self.speedMps = speedMps
        self.ephM = ephM
        self.epxM = epxM
        self.epyM = epyM
        self.time = time
        self.stamp = stamp
    }

    /// Best single horizontal error figure: `eph` when present, else the larger of `epx`/`epy`.
    public var horizontalErrorM: Double? {
        if let ephM { return ephM }
        switch (epxM, epyM) {
        case let (x?, y?): return max(x, y)
        case let (x?, nil): return x
        case let (nil, y?): return y
        case (nil, nil): return nil
        }
    }

    /// Age of the fix by its own stamp against this host's wall clock (negative if it claims to be from the
    /// future); nil when the fix has no time, or a garbage one too far from the clock to subtract.
    public func age(wallClock: WallInstant) -> Duration? {
        guard let stamp else { return nil }
        let (ageUs, overflow) = wallClock.us.subtractingReportingOverflow(stamp.us)
        return overflow ? nil : .microseconds(ageUs)
    }

    /// A fix is stale when its own time is more than `maxAgeS` before (or after: clocks disagree) `wallClock`, or when
    /// it has no time at all — an undated position cannot be shown to be current.
    public func isStale(wallClock: WallInstant, maxAgeS: Double) -> Bool {
        guard let age = age(wallClock: wallClock), maxAgeS.isFinite, maxAgeS >= 0 else { return true }
        return Double(age.us.magnitude) > maxAgeS * 1_000_000
    }
}
