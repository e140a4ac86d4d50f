#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Steady wind. `fromDeg` is the direction the wind blows FROM (meteorological convention, as in a METAR):
/// a wind from 270° (west) pushes the drone east.
public struct Wind: Sendable, Equatable {
    public var speedMps: Double
    public var fromDeg: Double

    public init(speedMps: Double, fromDeg: Double) {
        self.speedMps = speedMps
        self.fromDeg = fromDeg
    }

    public static let calm = Wind(speedMps: 0, fromDeg: 0)

    /// The air's velocity over the ground, east and north components, m/s.
    public var velocityEastNorthMps: (east: Double, north: Double) {
        let towardRad = (fromDeg + 180) * .pi / 180
        return (speedMps * sin(towardRad), speedMps * cos(towardRad))
    }
}
