import Navigation
import QuadProtocol

/// The way to a target behind a keep-out zone (issue 38): the corners of a path the planner found around the zones,
/// flown one leg at a time, then the target itself. The target stays the controller's target (what the ground sent
/// and sees echoed); only the steering aims at the corner of the current leg.
public struct AirspaceRoute: Sendable, Equatable {
    /// The target's point: the route belongs to it and is dropped with it.
    public let goal: GeoPoint
    /// Where it was planned from (the drone's fix, else home).
    public let start: GeoPoint
    /// The zone the straight leg met, for the log and the bus.
    public internal(set) var zoneName: String?
    /// The path's corners between the start and the goal, in order.
    public let corners: [GeoPoint]
    /// The corner flown to now; `corners.count`: the last leg, to the goal.
    public private(set) var next = 0
    /// The planned path's length and the straight line's, for the log.
    public let lengthM: Double
    public let straightM: Double

    init(path: [GeoPoint], zoneName: String? = nil) {
        let goal = path.last ?? GeoPoint(latitudeDeg: 0, longitudeDeg: 0)
        self.goal = goal
        start = path.first ?? goal
        self.zoneName = zoneName
        corners = Array(path.dropFirst().dropLast())
        lengthM = zip(path, path.dropFirst()).reduce(0) { $0 + Geodesy.inverse(from: $1.0, to: $1.1).distanceM }
        straightM = path.first.map { Geodesy.inverse(from: $0, to: goal).distanceM } ?? 0
    }

    /// The corner the drone steers to now, nil on the last leg (the goal itself).
    public var corner: GeoPoint? { next < corners.count ? corners[next] : nil }

    /// Legs in all, and the one flown now (1-based), for the log.
    public var legCount: Int { corners.count + 1 }
    public var leg: Int { next + 1 }

    mutating func cornerReached() { next = min(next + 1, corners.count) }

    /// `solution`, computed by the navigator for the goal, re-aimed at the current corner from the same fix and
    /// heading (its ages stay: the corner is as fresh as the inputs). Unchanged on the last leg.
    func steering(_ solution: NavigationSolution) -> NavigationSolution {
        guard let corner else { return solution }
        let drone = GeoPoint(latitudeDeg: solution.droneLatitudeDeg, longitudeDeg: solution.droneLongitudeDeg)
        let toCorner = Geodesy.inverse(from: drone, to: corner)
        var aimed = solution
        aimed.targetLatitudeDeg = corner.latitudeDeg
        aimed.targetLongitudeDeg = corner.longitudeDeg
        aimed.distanceM = toCorner.distanceM
        aimed.bearingDeg = toCorner.initialBearingDeg
        // The navigator's difference holds its mount offset: turn it by the change of bearing only.
        aimed.directionDifferenceDeg = Geodesy.wrapDeg180(
            solution.directionDifferenceDeg + toCorner.initialBearingDeg - solution.bearingDeg)
        return aimed
    }
}

extension AirspaceRoute {
    /// The way still to fly when the current corner (or, on the last leg, the goal) is `aheadM` away: that, then
    /// corner to corner, then the last leg. What the state publishes as the distance to the target.
    func remainingM(aheadM: Double) -> Double {
        guard next < corners.count else { return aheadM }
        let rest = Array(corners[next...]) + [goal]
        return aheadM + zip(rest, rest.dropFirst()).reduce(0) { $0 + Geodesy.inverse(from: $1.0, to: $1.1).distanceM }
    }
}

extension AirspaceRoute {
    /// The route as `airspace/route` carries it (sequence and stamp 0: the machine and the service set them). A path
    /// of more corners than the payload holds (never seen: the planner's paths have a handful) carries the 64 from
    /// the one flown now.
    func plan(_ purpose: AirspaceRoutePlan.Purpose) -> AirspaceRoutePlan {
        let first = max(0, min(next, corners.count - AirspaceRoutePlan.maxCorners))
        let shown = corners[first..<min(corners.count, first + AirspaceRoutePlan.maxCorners)]
        let point = { (p: GeoPoint) in
            AirspaceRoutePlan.Point(latitudeDeg: p.latitudeDeg, longitudeDeg: p.longitudeDeg)
        }
        return AirspaceRoutePlan(sequence: 0, timestampUs: 0, purpose: purpose, goal: point(goal), start: point(start),
                                 corners: shown.map(point), nextCorner: next - first, lengthM: lengthM,
                                 straightM: straightM, zoneName: zoneName ?? "")
    }
}
