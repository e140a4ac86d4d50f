import Clocks
import QuadProtocol

extension GPSFix {
    /// The fix as a bus message (navigator side: a gpsd on the drone board publishes the drone's position).
    /// Values that do not fit a Float, or a satellite count beyond 255, are clamped rather than trapping. The track
    /// is course over ground, noise when standing still, so it becomes the heading only above `minHeadingSpeedMps`.
    public func positionFix(sequence: UInt32, stamp: WallInstant, satellites: Int?,
                            minHeadingSpeedMps: Double = 1.0) -> PositionFix {
        func float(_ v: Double?) -> Float? {
            guard let v, abs(v) <= Double(Float.greatestFiniteMagnitude) else { return nil }
            return Float(v)
        }
        return PositionFix(
            sequence: sequence, timestampUs: stamp.us, latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg,
            altitudeM: float(altitudeM), headingDeg: (speedMps ?? 0) >= minHeadingSpeedMps ? float(trackDeg)
                : nil, horizontalAccuracyM: float(horizontalErrorM),
            satellites: UInt8(clamping: satellites ?? 0), source: .gpsd)
    }
}
