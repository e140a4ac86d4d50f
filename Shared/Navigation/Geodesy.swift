#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances and bearings on the Earth. PLACEHOLDER (spherical haversine): the Navigation work replaces the
/// implementation with an ellipsoidal one; the API below is the contract other modules build against.
public enum Geodesy {
    public struct Inverse: Sendable, Equatable {
        /// Shortest distance along the surface, metres.
        public var distanceM: Double
        /// Bearing at the start point, degrees clockwise from true north, [0, 360).
        public var initialBearingDeg: Double
        /// Bearing at the end point, degrees clockwise from true north, [0, 360).
        public var finalBearingDeg: Double
    }

    /// Distance and bearings from `from` to `to`.
    public static func inverse(from: GeoPoint, to: GeoPoint) -> Inverse {
        let r = 6_371_008.8
        let φ1 = from.latitudeDeg * .pi / 180, φ2 = to.latitudeDeg * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (to.longitudeDeg - from.longitudeDeg) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        let d = 2 * r * atan2(a.squareRoot(), (1 - a).squareRoot())
        let y = sin(Δλ) * cos(φ2), x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let b = (atan2(y, x) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        return Inverse(distanceM: d, initialBearingDeg: b, finalBearingDeg: b)
    }

    /// The point `distanceM` metres from `from` along the initial bearing `bearingDeg`.
    public static func destination(from: GeoPoint, bearingDeg: Double, distanceM: Double) -> GeoPoint {
        let r = 6_371_008.8
        let δ = distanceM / r, θ = bearingDeg * .pi / 180
        let φ1 = from.latitudeDeg * .pi / 180, λ1 = from.longitudeDeg * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        var lon = λ2 * 180 / .pi
        lon = (lon + 540).truncatingRemainder(dividingBy: 360) - 180
        return GeoPoint(latitudeDeg: φ2 * 180 / .pi, longitudeDeg: lon)
    }

    /// Wraps an angle to [−180, 180).
    public static func wrapDeg180(_ angleDeg: Double) -> Double {
        let r = (angleDeg + 180).truncatingRemainder(dividingBy: 360)
        return (r < 0 ? r + 360 : r) - 180
    }

    /// Wraps an angle to [0, 360).
    public static func wrapDeg360(_ angleDeg: Double) -> Double {
        let r = angleDeg.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }
}
