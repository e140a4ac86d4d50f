import Clocks
import Navigation
import QuadProtocol

/// Events from the drone side: navdata summaries, position fixes, navigation solutions.
extension ControllerStateMachine {
    /// Navdata: every takeoff/landing/emergency transition happens here, on what the drone reports.
    public mutating func droneState(_ state: DroneState, now: MonotonicInstant) -> [ControllerAction] {
        lastDroneState = state
        // The drone is on the ground (or the flight was resumed): the previous run's flight is over.
        defer { resumable = nil }
        lastDroneStateAt = now
        observeWind(state, now: now)
        flight?.droneLinkLostReported = false
        var actions: [ControllerAction] = []

        if state.isEmergency {
            if activity != .emergency {
                enterEmergency(reason: .droneEmergency, now: now)
                actions.append(.log(.error, "drone reports emergency (state bit 31)"))
            }
            return finish(actions, now: now)
        }
        actions += apply(modeNavdata(observed: state.observedFlight, now: now), now: now)
        observeBudget(state, now: now)
        actions += apply(checkWind(), now: now)
        if (activity.isAirborne || activity == .takingOff) && isBatteryLow(state)
            && flight?.batteryFailsafeFired == false {
            flight?.batteryFailsafeFired = true
            actions += apply(lowBatteryFailsafe(state, now: now), now: now)
        }
        return finish(actions, now: now)
    }

    /// Navdata (fresh or not: the last word) shows the vehicle in the air, climbing or descending.
    var vehicleIsAirborne: Bool {
        guard let observed = lastDroneState?.observedFlight else { return false }
        return observed == .airborne || observed == .landing || observed == .takingOff
    }

    /// Battery drain over the flight, and the ground speed while steering forward (the low-battery return's
    /// estimate of the way home).
    mutating func observeBudget(_ state: DroneState, now: MonotonicInstant) {
        guard activity.isAirborne else { flight?.battery.pauseSpeed(); return }
        flight?.battery.observe(percent: Double(state.batteryPercent), at: now)
        let forwardCommanded = (lastFlight?.progressive ?? false) && (lastFlight?.pitchFrac ?? 0) < 0
        // The settling near a goal (the position law, slowing to a stop) is no measure of the cruise speed home.
        var filter = targetArrival
        if case .returningHome(let returning) = mode { filter = returning.homeArrival }
        let settling = (filter?.filteredDistanceM ?? .infinity) < law.slowdownRadiusM
        let cruising = (activity == .flyingToTarget || activity == .returningHome) && forwardCommanded && !settling
        guard cruising else { flight?.battery.pauseSpeed(); return }
        let vx = Double(state.velocityXMps), vy = Double(state.velocityYMps)
        flight?.battery.observeSpeed(mps: (vx * vx + vy * vy).squareRoot(), at: now)
    }

    /// Updates the wind estimate while we command the tilt ourselves, in the air; none behind an autopilot that holds
    /// the ground velocity (`vehicleHoldsGroundVelocity`).
    mutating func observeWind(_ state: DroneState, now: MonotonicInstant) {
        // Zeroed once when the link said so (`presence`); nothing to update from then on.
        guard !vehicleHoldsGroundVelocity else { return }
        guard activity.isAirborne, let flight = lastFlight, flight.progressive, let heading = headingFor(state)
        else { wind.pause(); return }
        wind.observe(forwardMps: Double(state.velocityXMps), rightMps: Double(state.velocityYMps), headingDeg: heading,
                     commandedPitchFrac: flight.pitchFrac, commandedRollFrac: flight.rollFrac,
                     at: now)
    }

    /// The drone's compass if navdata has it, else its yaw (the frame navdata's velocities are in).
    func headingFor(_ state: DroneState) -> Double? {
        let heading = state.magnetoHeadingDeg.map(Double.init) ?? Double(state.yawDeg)
        return heading.isFinite ? heading : nil
    }

    /// A GPS fix of the drone: freshness, home, and the geofence.
    public mutating func position(_ fix: PositionFix, now: MonotonicInstant) -> [ControllerAction] {
        guard isValidCoordinate(latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg) else {
            return finish([.rejected(kind: "position", reason: .positionInvalid)], now: now)
        }
        let point = GeoPoint(latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg)
        lastPosition = point
        lastPositionAt = now
        if activity == .landed || activity == .takingOff {
            // On the ground as navdata showed it (a drone not yet known to be landed may be flying), and through
            // the takeoff's climb straight up: the fixes that place home (`takingOffNavdata` refines it).
            groundPosition.observe(point, at: now)
        } else {
            groundPosition.reset()
        }
        var actions: [ControllerAction] = []
        // A flight this run saw take off takes home from its first fix; a resumed one never invents it.
        if home == nil, flight?.homeFromFirstFix == true, activity.isAirborne || activity == .takingOff {
            let home = setHome(point, now: now)
            actions += home.actions
            actions += apply(home.transition, now: now)
        }
        actions += apply(checkGeofence(dronePosition: point, now: now), now: now)
        actions += apply(watchAirspace(dronePosition: point, now: now), now: now)
        return finish(actions, now: now)
    }

    /// A navigator solution: arrival, hysteresis and resuming after a failsafe hover. The first solution for a
    /// target, and one that changes the activity, answer with a flight command at once (target → PCMD latency);
    /// the others leave it to the tick, which sends the latest at the control rate (`tickHz`). Solutions come in
    /// pairs (heading, then position, from one navdata frame): a command on each doubled the flight commands, and
    /// drone-link's PCMDs, with nothing the tick would not send ≤ one period later.
    public mutating func navigation(_ solution: NavigationSolution, now: MonotonicInstant) -> [ControllerAction] {
        if solution.bearingDeg.isFinite && solution.directionDifferenceDeg.isFinite {
            navigationHeadingDeg = Geodesy.wrapDeg360(solution.bearingDeg - solution.directionDifferenceDeg)
            navigationHeadingAt = now
        }
        guard target != nil else { return finish([], now: now) }
        guard solutionMatchesTarget(solution) else {
            return finish([.rejected(kind: "navigation", reason: .navigationTargetMismatch)], now: now)
        }
        guard solution.distanceM.isFinite, solution.distanceM >= 0, solution.directionDifferenceDeg.isFinite else {
            return finish([.rejected(kind: "navigation", reason: .navigationInvalid)], now: now)
        }
        // A new target clears the last solution (`target(_:)`).
        let firstForTarget = lastNavigation == nil
        let activityBefore = activity
        // Around a keep-out zone the steering aims at the route's corner (`steeringSolution`).
        var (solution, actions) = steeringSolution(solution, now: now)
        guard target != nil else { return finish(actions, now: now, sendFlight: true) }
        // Hovering until the paths around the zones are built: the target is judged again then, not flown now.
        guard !awaitingPaths else { return finish(actions, now: now, sendFlight: !actions.isEmpty) }
        lastNavigation = solution
        lastNavigationAt = now
        var cornerPassed = false
        if solutionAgesFresh(solution) {
            if case .hovering = mode { actions += apply(hoveringNavigation(now: now), now: now) }
            observeTargetArrival(solution, now: now)
            switch mode {
            case .flyingToTarget(let flying):
                if let arrival = flyingToTargetArrival(flying, now: now) {
                    // A corner of the route is passed on to the next leg; only the target itself is arrived at.
                    let corner = cornerReached(now: now)
                    cornerPassed = corner != nil
                    actions += corner ?? apply(arrival, now: now)
                }
            case .arrived(let arrived): actions += apply(arrivedNavigation(arrived, now: now), now: now)
            default: break
            }
            // Also right after leaving the arrival radius: the new flight's progress counts from this solution.
            // The next leg's progress counts from its first solution, not this one (aimed at the corner passed).
            if case .flyingToTarget = mode, !cornerPassed {
                actions += apply(flyingToTargetProgress(distanceM: solution.distanceM, now: now), now: now)
            }
        }
        return finish(actions, now: now,
                      sendFlight: firstForTarget || activity != activityBefore || !actions.isEmpty)
    }
}
