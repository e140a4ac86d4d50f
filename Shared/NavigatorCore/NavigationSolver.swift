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
/// Time: the solution's `timestampUs` is the newest input time seen; ages are measured from it, in
/// milliseconds, saturating at 0 and UInt32.max. The target's age counts from when it was received, not
/// from the sender's `timestampUs` (sender clocks may differ).
public struct NavigationSolver: Sendable, Equatable {
    /// A value with the time it became known, microseconds.
    public struct Timed<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var timeUs: Int64
    }

    /// Angle of the heading sensor relative to the drone's nose, degrees (objc.io taped the iPhone at 90°).
    /// directionDifference = bearing − heading − mountOffset.
    public var mountOffsetDeg: Double
    public private(set) var position: Timed<GeoPoint>?
    /// Degrees clockwise from true north, [0, 360).
    public private(set) var heading: Timed<Double>?
    public private(set) var target: Timed<Target>?
    private var counter = SequenceCounter()

    public init(mountOffsetDeg: Double = 0) {
        self.mountOffsetDeg = mountOffsetDeg
    }

    public mutating func updatePosition(_ point: GeoPoint, atUs timeUs: Int64) -> NavigationSolution? {
        guard point.isValid else { return nil }
        position = Timed(value: point, timeUs: timeUs)
        return solve()
    }

    public mutating func updateHeading(_ headingDeg: Double, atUs timeUs: Int64) -> NavigationSolution? {
        guard headingDeg.isFinite else { return nil }
        heading = Timed(value: Geodesy.wrapDeg360(headingDeg), timeUs: timeUs)
        return solve()
    }

    public mutating func updateTarget(_ newTarget: Target, receivedAtUs timeUs: Int64) -> NavigationSolution? {
        guard GeoPoint(latitudeDeg: newTarget.latitudeDeg, longitudeDeg: newTarget.longitudeDeg).isValid else {
            return nil
        }
        target = Timed(value: newTarget, timeUs: timeUs)
        return solve()
    }

    /// Milliseconds from `thenUs` to `nowUs`, clamped to [0, UInt32.max] (no overflow trap).
    static func ageMs(nowUs: Int64, thenUs: Int64) -> UInt32 {
        let (diffUs, overflow) = nowUs.subtractingReportingOverflow(thenUs)
        if overflow { return nowUs > thenUs ? .max : 0 }
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
        let nowUs = max(position.timeUs, heading.timeUs, target.timeUs)
        return NavigationSolution(
            sequence: counter.next(), timestampUs: nowUs, targetSequence: target.value.sequence,
            targetLatitudeDeg: goal.latitudeDeg, targetLongitudeDeg: goal.longitudeDeg,
            droneLatitudeDeg: position.value.latitudeDeg, droneLongitudeDeg: position.value.longitudeDeg,
            distanceM: inverse.distanceM, bearingDeg: inverse.initialBearingDeg, headingDeg: heading.value,
            directionDifferenceDeg: difference,
            positionAgeMs: Self.ageMs(nowUs: nowUs, thenUs: position.timeUs),
            headingAgeMs: Self.ageMs(nowUs: nowUs, thenUs: heading.timeUs),
            targetAgeMs: Self.ageMs(nowUs: nowUs, thenUs: target.timeUs))
    }
}
