import Clocks
import Navigation
import QuadProtocol

/// Where the target is relative to the drone, recomputed whenever an input changes (no timer): the navigator's
/// glue between wire messages (`Target` in, `NavigationSolution` out) and the wire-free geodesy in Navigation.
///
/// Holds the latest drone position, heading and target, each with the time it became known. Every
/// `update…` returns the new solution, or nil while an input is still missing or when the input was
/// rejected (non-finite, latitude outside ±90, longitude outside ±180); a rejected input leaves the state
/// unchanged. A solution never contains NaN or infinity.
///
/// Time: inputs come with the board's monotonic time; `solvedAt` is the newest input time seen and ages are
/// measured from it, in milliseconds, saturating at 0 and UInt32.max. The target's age counts from when it was
/// received, not from the sender's `timestampUs` (sender clocks may differ). The solution's own `timestampUs` is a
/// wire stamp (wall clock) left 0 here: the publisher stamps it, so a monotonic time never reaches the wire.
public struct NavigationSolver: Sendable, Equatable {
    /// A value with the time it became known.
    public struct Timed<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var time: MonotonicInstant
    }

    /// Angle of the heading sensor relative to the drone's nose, degrees (objc.io taped the iPhone at 90°).
    /// directionDifference = bearing − heading − mountOffset.
    public var mountOffsetDeg: Double
    public private(set) var position: Timed<GeoPoint>?
    /// Degrees clockwise from true north, [0, 360).
    public private(set) var heading: Timed<Double>?
    public private(set) var target: Timed<Target>?
    /// The newest input time of the latest solution: what its ages are measured from.
    public private(set) var solvedAt: MonotonicInstant?
    private var counter = SequenceCounter()

    public init(mountOffsetDeg: Double = 0) {
        self.mountOffsetDeg = mountOffsetDeg
    }

    public mutating func updatePosition(_ point: GeoPoint, at time: MonotonicInstant) -> NavigationSolution? {
        guard point.isValid else { return nil }
        position = Timed(value: point, time: time)
        return solve()
    }

    public mutating func updateHeading(_ headingDeg: Double, at time: MonotonicInstant) -> NavigationSolution? {
        guard headingDeg.isFinite else { return nil }
        heading = Timed(value: Geodesy.wrapDeg360(headingDeg), time: time)
        return solve()
    }

    public mutating func updateTarget(_ newTarget: Target, receivedAt time: MonotonicInstant) -> NavigationSolution? {
        guard GeoPoint(latitudeDeg: newTarget.latitudeDeg, longitudeDeg: newTarget.longitudeDeg).isValid else {
            return nil
        }
        target = Timed(value: newTarget, time: time)
        return solve()
    }

    /// Milliseconds from `then` to `now`, clamped to [0, UInt32.max] (no overflow trap).
    static func ageMs(now: MonotonicInstant, then: MonotonicInstant) -> UInt32 {
        let (diffUs, overflow) = now.us.subtractingReportingOverflow(then.us)
        if overflow { return now > then ? .max : 0 }
        guard diffUs > 0 else { return 0 }
        return UInt32(clamping: diffUs / 1000)
    }

    private mutating func solve() -> NavigationSolution? {
        guard let position, let heading, let target else { return nil }
        let goal = GeoPoint(latitudeDeg: target.value.latitudeDeg, longitudeDeg: target.value.longitudeDeg)
        let inverse = Geodesy.inverse(from: position.value, to: goal)
        let difference = Geodesy.directionDifferenceDeg(bearingDeg: inverse.initialBearingDeg,
                                                     headingDeg: heading.value, mountOffsetDeg: mountOffsetDeg)
        guard inverse.distanceM.isFinite, difference.isFinite else { return nil }
        let now = max(position.time, heading.time, target.time)
        solvedAt = now
        return NavigationSolution(
            sequence: counter.next(), timestampUs: 0, targetSequence: target.value.sequence,
            targetLatitudeDeg: goal.latitudeDeg, targetLongitudeDeg: goal.longitudeDeg,
            droneLatitudeDeg: position.value.latitudeDeg, droneLongitudeDeg: position.value.longitudeDeg,
            distanceM: inverse.distanceM, bearingDeg: inverse.initialBearingDeg, headingDeg: heading.value,
            directionDifferenceDeg: difference,
            positionAgeMs: Self.ageMs(now: now, then: position.time),
            headingAgeMs: Self.ageMs(now: now, then: heading.time),
            targetAgeMs: Self.ageMs(now: now, then: target.time))
    }
}
