import Clocks

/// Whether a TPV gives a position, and if not, why.
public enum GPSFixStatus: Sendable, Equatable {
    case fix(GPSFix)
    case noFix(NoFixReason)

    public enum NoFixReason: Sendable, Equatable {
        /// gpsd's mode was below 2 (0 = unknown, 1 = no fix).
        case mode(Int)
        case missingLatitude
        case missingLongitude
        case latitudeOutOfRange(Double)
        case longitudeOutOfRange(Double)
    }
}

extension GPSDTPV {
    /// A fix only when mode ≥ 2 and latitude/longitude are present, finite and in range; never a bad position.
    /// Secondary fields that are out of range (negative speed or error, track outside [0, 360]) are dropped, not
    /// trusted.
    public var fixStatus: GPSFixStatus {
        guard mode >= 2 else { return .noFix(.mode(mode)) }
        guard let lat = latitudeDeg else { return .noFix(.missingLatitude) }
        guard let lon = longitudeDeg else { return .noFix(.missingLongitude) }
        guard (-90.0...90.0).contains(lat) else { return .noFix(.latitudeOutOfRange(lat)) }
        guard (-180.0...180.0).contains(lon) else { return .noFix(.longitudeOutOfRange(lon)) }
        let dimension: GPSFix.Dimension = mode >= 3 ? .threeD : .twoD
        func nonNegative(_ v: Double?) -> Double? { v.flatMap { $0 >= 0 ? $0 : nil } }
        let track = trackDeg.flatMap { (0.0...360.0).contains($0) ? ($0 == 360 ? 0 : $0) : nil }
        return .fix(GPSFix(
            dimension: dimension, latitudeDeg: lat, longitudeDeg: lon,
            altitudeM: dimension == .threeD ? altitudeMSLM : nil,
            trackDeg: track, speedMps: nonNegative(speedMps),
            ephM: nonNegative(ephM), epxM: nonNegative(epxM), epyM: nonNegative(epyM),
            time: time, stamp: time.flatMap(GPSDTime.microseconds(from:)).map(WallInstant.init(us:))))
    }
}
