import Clocks
import Navigation
import QuadProtocol

/// How old each input is, measured from when it was received (plus the ages a solution reports itself).
extension ControllerStateMachine {
    var staleAfterUs: Int64 { configuration.staleAfter.us }

    func droneStateFresh(nowUs: Int64) -> Bool {
        lastDroneState != nil && nowUs &- lastDroneStateAtUs <= configuration.droneStateTimeout.us
    }

    func positionFresh(nowUs: Int64) -> Bool {
        lastPosition != nil && nowUs &- lastPositionAtUs <= staleAfterUs
    }

    /// The matching solution is recent and was computed from recent position and heading.
    func navigationFresh(nowUs: Int64) -> Bool {
        guard let solution = lastNavigation else { return false }
        return solutionAgesFresh(solution) && nowUs &- lastNavigationAtUs <= staleAfterUs
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
    func bodyHeadingDeg(nowUs: Int64) -> Double? {
        if droneStateFresh(nowUs: nowUs), let heading = lastDroneState?.magnetoHeadingDeg, heading.isFinite {
            return Double(heading)
        }
        if let heading = navigationHeadingDeg, nowUs &- navigationHeadingAtUs <= staleAfterUs { return heading }
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
    func targetExpired(nowUs: Int64) -> Bool {
        guard let target, target.ttlS > 0 else { return false }
        let ttlUs = microseconds(fromSeconds: Double(target.ttlS))
        return nowUs &- targetReceivedAtUs > ttlUs || expiredInQueue(target, nowUs: nowUs)
    }

    /// Older than its ttl by its sender's clock (it waited somewhere on the way).
    func expiredInQueue(_ target: Target, nowUs: Int64) -> Bool {
        guard target.ttlS > 0,
              let ageUs = senderClocks.ageUs(senderId: target.senderId, stamp: WallInstant(us: target.timestampUs),
                                             now: MonotonicInstant(us: nowUs))
        else { return false }
        return ageUs > microseconds(fromSeconds: Double(target.ttlS))
    }
}
