#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// East/north metres around an origin, through the geodesic from the origin (azimuthal equidistant): distances and
/// bearings from the origin are exact, and within a few kilometres of it distances between two points are off by
/// far less than a GPS fix. What filters, plots and track simplification work in; `point(_:)` goes back.
public struct LocalTangentPlane: Sendable, Equatable {
    public struct Metres: Sendable, Equatable {
        public var eastM: Double
        public var northM: Double

        public init(eastM: Double, northM: Double) {
            self.eastM = eastM
            self.northM = northM
        }

        /// Straight-line distance in the plane.
        public func distanceM(to other: Metres) -> Double {
            let dEast = other.eastM - eastM, dNorth = other.northM - northM
            return (dEast * dEast + dNorth * dNorth).squareRoot()
        }
    }

    public let origin: GeoPoint

    public init(origin: GeoPoint) { self.origin = origin }

    public func metres(_ point: GeoPoint) -> Metres {
        let inverse = Geodesy.inverse(from: origin, to: point)
        let bearingRad = inverse.initialBearingDeg * .pi / 180
        return Metres(eastM: inverse.distanceM * sin(bearingRad), northM: inverse.distanceM * cos(bearingRad))
    }

    public func point(_ metres: Metres) -> GeoPoint {
        let distanceM = (metres.eastM * metres.eastM + metres.northM * metres.northM).squareRoot()
        guard distanceM > 0 else { return origin }
        return Geodesy.destination(from: origin, bearingDeg: atan2(metres.eastM, metres.northM) * 180 / .pi,
                                   distanceM: distanceM)
    }
}
