import Clocks
import Navigation
import QuadProtocol

/// How old each input is, measured from when it was received (plus the ages a solution reports itself).
extension ControllerStateMachine {
    /// Navdata received within `within` (default: `droneStateTimeout`).
    func droneStateFresh(now: MonotonicInstant, within: Duration? = nil) -> Bool {
        guard lastDroneState != nil, let at = lastDroneStateAt else { return false }
        return now - at <= within ?? configuration.droneStateTimeout
    }

    func positionFresh(now: MonotonicInstant) -> Bool {
        guard lastPosition != nil, let at = lastPositionAt else { return false }
        return now - at <= configuration.staleAfter
    }

    /// The matching solution is recent and was computed from recent position and heading.
    func navigationFresh(now: MonotonicInstant) -> Bool {
        guard let solution = lastNavigation else { return false }
        return solutionAgesFresh(solution) && lastNavigationAt.map { now - $0 <= configuration.staleAfter } == true
    }

    func solutionAgesFresh(_ solution: NavigationSolution) -> Bool {
        .milliseconds(Int64(max(solution.positionAgeMs, solution.headingAgeMs))) <= configuration.staleAfter
    }

    /// The solution was computed for the current target's point (not a leftover from before a target change). By
    /// the point, not the sequence: a navigator that restarted learns the target from this controller's state, and
    /// the same point re-sent (a new sequence) keeps its solutions valid.
    func solutionMatchesTarget(_ solution: NavigationSolution) -> Bool {
        guard let target else { return false }
        let tolerance = configuration.targetMatchToleranceDeg
        return abs(solution.targetLatitudeDeg - target.latitudeDeg) <= tolerance
            && abs(solution.targetLongitudeDeg - target.longitudeDeg) <= tolerance
    }

    /// Drone heading: the drone's own compass if navdata has it, else the one the navigator used.
    func bodyHeadingDeg(now: MonotonicInstant) -> Double? {
        if droneStateFresh(now: now), let heading = lastDroneState?.magnetoHeadingDeg, heading.isFinite {
            return Double(heading)
        }
        if let heading = navigationHeadingDeg, let at = navigationHeadingAt, now - at <= configuration.staleAfter {
            return heading
        }
        return nil
    }

    /// `--land-battery` rules (the drone's VBAT_LOW bit, fixed at ~20 % by its firmware, would make any lower
    /// setting meaningless).
    func isBatteryLow(_ state: DroneState) -> Bool {
        state.batteryPercent < configuration.landBatteryPercent
    }

    func isValidCoordinate(latitudeDeg: Double, longitudeDeg: Double) -> Bool {
        latitudeDeg.isFinite && longitudeDeg.isFinite && abs(latitudeDeg) <= 90 && abs(longitudeDeg) <= 180
    }

    /// A target's ttl counts from its receipt on this host (never from the sender's clock, which may be off by
    /// minutes or years).
    /// Past its ttl counted from receipt, or — when its sender beacons — by its sender's own clock.
    func targetExpired(now: MonotonicInstant) -> Bool {
        guard let target, target.ttlS > 0 else { return false }
        return now - targetReceivedAt > .seconds(clamping: Double(target.ttlS)) || expiredInQueue(target, now: now)
    }

    /// Older than its ttl by its sender's clock (it waited somewhere on the way).
    func expiredInQueue(_ target: Target, now: MonotonicInstant) -> Bool {
        guard target.ttlS > 0,
              let age = senderClocks.age(senderId: target.senderId, stamp: WallInstant(us: target.timestampUs),
                                         now: now)
        else { return false }
        return age > .seconds(clamping: Double(target.ttlS))
    }
}
