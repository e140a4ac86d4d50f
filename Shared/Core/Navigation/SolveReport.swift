import TextSupport

/// The answer of `navigator solve --from LAT,LON --to LAT,LON [--heading DEG] [--mount-offset DEG]`:
/// one geodesic plus the turn the drone would make, as stable JSON text.
public struct SolveReport: Sendable, Equatable {
    public var from: GeoPoint
    public var to: GeoPoint
    public var distanceM: Double
    /// Initial bearing from → to, degrees clockwise from true north, [0, 360).
    public var bearingDeg: Double
    /// Direction of travel on arrival at `to`, [0, 360).
    public var finalBearingDeg: Double
    public var headingDeg: Double
    public var mountOffsetDeg: Double
    /// wrapDeg180(bearing − heading − mountOffset); positive = turn right.
    public var directionDifferenceDeg: Double

    public init(from: GeoPoint, to: GeoPoint, headingDeg: Double = 0, mountOffsetDeg: Double = 0) {
        let inverse = Geodesy.inverse(from: from, to: to)
        self.from = from
        self.to = to
        distanceM = inverse.distanceM
        bearingDeg = inverse.initialBearingDeg
        finalBearingDeg = inverse.finalBearingDeg
        self.headingDeg = headingDeg
        self.mountOffsetDeg = mountOffsetDeg
        directionDifferenceDeg = Geodesy.directionDifferenceDeg(
            bearingDeg: inverse.initialBearingDeg, headingDeg: headingDeg, mountOffsetDeg: mountOffsetDeg)
    }

    /// One line of JSON, keys in this fixed order: distance_m (0.001 m), bearing_deg, final_bearing_deg,
    /// direction_difference_deg, heading_deg, mount_offset_deg (angles to 1e-6°). Non-finite values are null.
    public var jsonText: String {
        let fields: [(String, String)] = [
            ("distance_m", DecimalText.json(distanceM, fractionDigits: 3)),
            ("bearing_deg", Self.angleText(bearingDeg, wrap: Geodesy.wrapDeg360)),
            ("final_bearing_deg", Self.angleText(finalBearingDeg, wrap: Geodesy.wrapDeg360)),
            ("direction_difference_deg", Self.angleText(directionDifferenceDeg, wrap: Geodesy.wrapDeg180)),
            ("heading_deg", DecimalText.json(headingDeg, fractionDigits: 6)),
            ("mount_offset_deg", DecimalText.json(mountOffsetDeg, fractionDigits: 6)),
        ]
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// Rounds to 1e-6° and wraps again, so 359.9999996 prints as 0.000000, not 360.000000.
    static func angleText(_ angleDeg: Double, wrap: (Double) -> Double) -> String {
        DecimalText.json(wrap((angleDeg * 1e6).rounded(.toNearestOrAwayFromZero) / 1e6), fractionDigits: 6)
    }
}
