import Navigation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the airspace says of a drone in flight (issue 38, item 3): its position and ground velocity against the
/// walls (keep-out edges and the inclusion union's boundary). A target and its leg keep the margin when accepted;
/// the watch is for what the drone does on the way (wind, noise, an overshoot).
public enum AirspaceWatch: Sendable, Equatable {
    case clear
    /// Where the drone would stop (after `reactionS`, braking at `decelerationMps2`) comes within half the margin of
    /// a wall, or past it: stop now, before the margin is used up.
    case brake(zoneName: String?)
    /// The drone is within half the margin of a wall (drifted there), or in a zone where it may not be: leave for
    /// `to`, the nearest point the margin clears (nil when none is found near).
    case leave(breach: Violation?, zoneName: String?, to: GeoPoint?)

    /// How hard the drone stops: the reaction before braking and the deceleration.
    public struct Stopping: Sendable, Equatable {
        public var reactionS: Double
        public var decelerationMps2: Double

        /// The AR.Drone's hover brake (drone-sim: about 2 m/s²) and two control periods of reaction, with room.
        public init(reactionS: Double = 0.5, decelerationMps2: Double = 1.5) {
            self.reactionS = reactionS
            self.decelerationMps2 = decelerationMps2
        }

        public func distanceM(speedMps: Double) -> Double {
            speedMps * reactionS + speedMps * speedMps / (2 * max(decelerationMps2, 0.1))
        }
    }
}

extension Airspace {
    /// The drone at `position`, moving at the ground velocity given (m/s east and north). Altitude is not watched
    /// here (the altitude hold keeps the wanted altitude, which the target check keeps under the ceiling).
    public func watch(position: GeoPoint, velocityEastMps: Double, velocityNorthMps: Double,
                      stopping: AirspaceWatch.Stopping = .init()) -> AirspaceWatch {
        let p = flat(position)
        if let breach = violation(position) {
            return .leave(breach: breach, zoneName: breach.zoneName, to: safePoint(near: position))
        }
        let nearest = walls.nearest(p)
        let guardM = marginM / 2
        if nearest.distanceM < guardM {
            return .leave(breach: nil, zoneName: nearest.zone.map { zones[$0].name }, to: safePoint(near: position))
        }
        let v = Vec(x: velocityEastMps.isFinite ? velocityEastMps : 0,
                    y: velocityNorthMps.isFinite ? velocityNorthMps : 0)
        let speedMps = v.length
        guard speedMps > 0.05 else { return .clear }
        let stop = p + (stopping.distanceM(speedMps: speedMps) / speedMps) * v
        // From a point at least `guardM` from every wall: the way to the stop comes closer only when it heads in.
        if walls.allowed(stop), walls.clear(p, stop, marginM: guardM) { return .clear }
        return .brake(zoneName: walls.nearest(stop).zone.map { zones[$0].name })
    }

    /// The nearest allowed point at least the margin (and 1 m more) from every wall: straight out from the nearest
    /// wall, else the first of 16 directions around `point` that clears, at growing distances up to 4 margins.
    /// Nil when there is none within that (the caller hovers, or lands).
    public func safePoint(near point: GeoPoint) -> GeoPoint? {
        let p = flat(point)
        let outM = marginM + 1
        func safe(_ v: Vec) -> Bool { walls.allowed(v) && walls.nearest(v).distanceM >= marginM }
        let nearest = walls.nearest(p)
        if let q = nearest.point, nearest.distanceM > 1e-6 {
            // Allowed: away from the wall; in a zone: through the wall, out the other side.
            let direction = (1 / nearest.distanceM) * (walls.allowed(p) ? p - q : q - p)
            let candidate = q + outM * direction
            if safe(candidate) { return geo(candidate) }
        }
        for step in 1...8 {
            let distanceM = Double(step) * outM / 2
            for k in 0..<16 {
                let angle = Double(k) * .pi / 8
                let candidate = p + distanceM * Vec(x: sin(angle), y: cos(angle))
                if safe(candidate) { return geo(candidate) }
            }
        }
        return nil
    }
}
