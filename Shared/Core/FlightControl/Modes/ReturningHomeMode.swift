import Clocks
import Navigation
import QuadProtocol

extension ControllerMode {
    /// Flying back toward home (the `return` command, the failsafes that go home, the geofence).
    struct ReturningHome: Sendable, Equatable {
        /// Where this return ends (re-aimed by a later return: `returnTransition`).
        var goal: ReturnGoal
        let startedAtUs: Int64
        /// Does the return get closer?
        var progress: ProgressWatch
        /// Arrival over home, filtered like a target's.
        var homeArrival: ArrivalFilter
    }
}

/// Returning home. On entry: the target is dropped and the return altitude set (`returnTransition`).
extension ControllerStateMachine {
    /// On entry: the transition's goal; braking starts, progress and arrival are judged afresh (a re-entry, a
    /// re-aimed return, keeps its start and progress, its arrival measured afresh for the goal).
    func returningHomeEntry(_ transition: Transition, nowUs: Int64) -> ControllerMode.ReturningHome {
        let goal = transition.returnGoal ?? .insideFence
        guard case .returningHome(var returning) = mode else {
            return ControllerMode.ReturningHome(goal: goal, startedAtUs: nowUs, progress: newProgressWatch,
                                                homeArrival: newArrivalFilter)
        }
        returning.goal = goal
        returning.homeArrival.reset()
        return returning
    }

    /// On a position fix: arrival (over home, or back inside the fence) and the progress watch; a return that
    /// loses ground is abandoned: hover, then land (or land at once).
    mutating func followReturn(distanceM: Double, bearingDeg: Double, at point: GeoPoint,
                               nowUs: Int64) -> Transition? {
        guard case .returningHome(var returning) = mode else { return nil }
        switch returning.goal {
        case .insideFence:
            if distanceM <= configuration.geofenceRadiusM - configuration.geofenceReturnMarginM {
                // A target accepted during the return (it was checked against the fence) is flown to next.
                return Transition(to: target == nil ? .hovering : .flyingToTarget, reason: .backInsideGeofence)
            }
        case .home:
            returning.homeArrival.observe(distanceM: distanceM, bearingDeg: bearingDeg,
                                          latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg,
                                          at: MonotonicInstant(us: nowUs))
            mode = .returningHome(returning)
            // Home is where the drone lands, not just a point to pass: the position law settles it to half the
            // arrival radius (by the filtered position) before the hover and the landing.
            if let filteredM = returning.homeArrival.filteredDistanceM, filteredM < law.arrivalRadiusM / 2,
               let altitudeM = currentAltitudeM(nowUs: nowUs),
               altitudeM > configuration.returnApproachAltitudeM + configuration.altitude.toleranceM {
                // The landing itself is not steered (the drone's own descent drifts with the wind): come down
                // under the position law first, as autopilots do, and land from low.
                flight?.wantedAltitudeM = configuration.returnApproachAltitudeM
                return nil
            }
            if let filteredM = returning.homeArrival.filteredDistanceM, filteredM < law.arrivalRadiusM / 2 {
                // Over home: hover to let the position settle, then land (see `tick`). A target sent meanwhile
                // is a new order and cancels the landing; one stored during the return is not.
                clearTarget()
                return Transition(to: .hovering, reason: .homeReached)
            }
        }
        guard nowUs &- returning.startedAtUs >= microseconds(fromSeconds: configuration.geofenceBrakeS) else {
            return nil
        }
        let losingGround = returning.progress.observe(distanceM: distanceM, at: MonotonicInstant(us: nowUs))
        mode = .returningHome(returning)
        guard losingGround else { return nil }
        let bestM = returning.progress.bestDistanceM
        clearTarget()
        flight?.returnAbandoned = true
        if configuration.abandonedReturnLandAfterS <= 0 {
            // The wind has won: every second of hover drifts further. Land now, where the drone is.
            return Transition(to: .landing, reason: .windTooStrong, log: .log(.warning,
                "return home lost ground (\(Int(distanceM)) m from home, best \(Int(bestM)) m), "
                    + "\(windText): landing at once"))
        }
        return Transition(
            to: .hovering, reason: .returnHomeNotProgressing,
            log: .log(.warning, "return home lost ground (\(Int(distanceM)) m from home, best \(Int(bestM)) m): "
                + "hovering, landing in \(configuration.abandonedReturnLandAfterS) s"),
            abandonedReturnLandAtUs: nowUs &+ microseconds(fromSeconds: configuration.abandonedReturnLandAfterS))
    }

    /// Its flight command: brake first (hover), then steer home; near home, the position law settles it.
    mutating func returningHomeCommand(_ returning: ControllerMode.ReturningHome, into command: inout FlightCommand,
                                       nowUs: Int64) {
        if returning.goal == .home, positionFresh(nowUs: nowUs),
           let distanceM = returning.homeArrival.filteredDistanceM, distanceM < law.arrivalRadiusM / 2 {
            // Over home, coming down to the approach altitude: the drone's own hover, as `.arrived`. An
            // autopilot then holds its position itself; under the position law's small tilts the real PX4
            // drifted 0.2 → 0.6 m in the descent and landed 0.8–1.4 m off.
        } else if nowUs &- returning.startedAtUs >= microseconds(fromSeconds: configuration.geofenceBrakeS),
           returning.goal == .home, positionFresh(nowUs: nowUs),
           holdPosition(returning.homeArrival, into: &command, nowUs: nowUs) {
        } else {
            apply(returnHomeSteering(returning, nowUs: nowUs), to: &command, nowUs: nowUs)
        }
        holdAltitude(&command, nowUs: nowUs)
    }
}
