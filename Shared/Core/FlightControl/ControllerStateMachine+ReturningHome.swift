import Clocks
import Navigation
import QuadProtocol

/// Returning home, the controller's side: the `return` command and its refusals, the entry (the target dropped, the
/// return altitude set, the way home around keep-out zones), the return's context, and performing its steps and
/// steering. The return's own behaviour is `ControllerMode.ReturningHome` (`Modes/ReturningHomeMode.swift`).
extension ControllerStateMachine {
    /// A return to start (or to re-aim: its start, phase and progress go on, its arrival is measured afresh for
    /// this goal); the target is dropped now, the altitude becomes the return altitude on entry.
    mutating func returnTransition(goal: ReturnGoal, reason: Reason, now: MonotonicInstant,
                                   log: ControllerAction? = nil) -> Transition {
        clearTarget()
        return .returningHome(goal: goal, reason: reason, altitudeM: returnAltitudeM(now: now), log: log)
    }

    /// Why a return home cannot start now, or nil.
    func returnRefusal() -> Reason? {
        switch activity {
        case .emergency: return .returnRefusedEmergency
        case .unknown: return .returnRefusedNoDroneState
        case .landed: return .returnRefusedNotAirborne
        case .landing, .takingOff:
            // Only a vehicle that navdata shows in the air can fly home; one on the ground has nowhere to return.
            guard vehicleIsAirborne else { return .returnRefusedNotAirborne }
            if home == nil { return .returnRefusedNoHome }
            return flight?.returnAbandoned == true ? .returnRefusedNotProgressing : nil
        case .hovering, .flyingToTarget, .arrived, .returningHome:
            if home == nil { return .returnRefusedNoHome }
            // After a return lost ground the drone lands where it is; another try would lose ground again.
            if flight?.returnAbandoned == true { return .returnRefusedNotProgressing }
            return nil
        }
    }

    /// The `return` command.
    mutating func returnHome(now: MonotonicInstant) -> CommandAnswer {
        if let refusal = returnRefusal() { return ([refuse(kind: "command", reason: refusal, now: now)], nil) }
        return ([], returnTransition(goal: .home, reason: .returnHome, now: now))
    }

    /// Return altitude: the configured one, else the higher of cruise and current, never above the ceiling.
    func returnAltitudeM(now: MonotonicInstant) -> Double {
        let wanted = configuration.returnAltitudeM
            ?? max(altitudeHold.cruiseAltitudeM, currentAltitudeM(now: now) ?? 0)
        return min(wanted, altitudeHold.maxAltitudeM)
    }

    /// The battery a return home from `distanceM` costs, percent: climb to the return altitude, fly home at the
    /// measured speed (else the cruise speed), hover over home, descend (`BatteryBudget`'s drain).
    func returnCostPercent(distanceM: Double, now: MonotonicInstant, climbMps: Double = 0.5, descentMps: Double = 0.5)
        -> Double {
        let budget = flight?.battery ?? BatteryBudget()
        let altitudeM = returnAltitudeM(now: now)
        let climbM = max(altitudeM - (currentAltitudeM(now: now) ?? altitudeM), 0)
        let speedMps = max(budget.measuredSpeedMps ?? configuration.cruiseSpeedMps, 0.1)
        let descentS = max(altitudeM, 0) / descentMps
        let seconds = climbM / climbMps + distanceM / speedMps + configuration.returnHomeHover.inSeconds + descentS
        return budget.percent(forSeconds: seconds)
    }

    /// On entry: the transition's goal (`ReturningHome.entering`), and going home the way around keep-out zones.
    mutating func returningHomeEntry(_ transition: Transition, now: MonotonicInstant) -> ControllerMode.ReturningHome {
        let continuing: ControllerMode.ReturningHome? = if case .returningHome(let returning) = mode { returning }
            else { nil }
        let goal = transition.returnGoal ?? .insideFence
        return ControllerMode.ReturningHome.entering(goal: goal, continuing: continuing, now: now,
                                                     progress: newProgressWatch, arrival: newArrivalFilter,
                                                     route: goal == .home ? homeRoute(now: now) : nil)
    }

    /// The way home from the drone's fresh fix when the straight one meets a keep-out zone: around it, as a target
    /// behind a zone is flown. Nil: straight home (also when no path keeps the route's clearance: said in the log,
    /// and the airspace watch still brakes before the zone).
    mutating func homeRoute(now: MonotonicInstant) -> AirspaceRoute? {
        guard let home, positionFresh(now: now), let start = lastPosition else { return nil }
        let judged = judgedRoute(from: start, to: home)
        guard let zoneName = judged.zoneName else { return nil }
        guard let route = judged.route else {
            pendingLogs.append(.log(.warning, """
                return: the straight way home meets '\(zoneName)' and no path around it is known: flying straight, \
                the airspace watch braking before the zone
                """))
            return nil
        }
        pendingLogs.append(.log(.notice, """
            return: the straight way home meets '\(zoneName)': around it in \(route.legCount) legs, \
            \(Int(route.lengthM.rounded())) m (straight \(Int(route.straightM.rounded())) m)
            """))
        return route
    }

    /// What the return reads of the controller now (`ReturningHome.Context`).
    func returnContext(now: MonotonicInstant) -> ControllerMode.ReturningHome.Context {
        ControllerMode.ReturningHome.Context(
            now: now, altitudeM: currentAltitudeM(now: now), wantedAltitudeM: wantedAltitudeM,
            altitudeReached: altitudeReached(now: now), configuration: configuration, hasTarget: target != nil,
            wind: wind)
    }

    /// The return's tick (`ReturningHome.tick`): the phases that end with time or altitude.
    mutating func returningHomeTick(_ returning: ControllerMode.ReturningHome,
                                    now: MonotonicInstant) -> [ControllerAction] {
        var returning = returning
        let actions = returning.tick(returnContext(now: now))
        mode = .returningHome(returning)
        return actions
    }

    /// A position fix while returning (`ReturningHome.fix`); the controller does what the return's step asks of it.
    mutating func followReturn(distanceM: Double, bearingDeg: Double, at point: GeoPoint,
                               now: MonotonicInstant) -> Transition? {
        guard case .returningHome(var returning) = mode else { return nil }
        let step = returning.fix(distanceM: distanceM, bearingDeg: bearingDeg, at: point,
                                 context: returnContext(now: now))
        mode = .returningHome(returning)
        if let altitudeM = step.wantedAltitudeM { flight?.wantedAltitudeM = altitudeM }
        if step.dropsTarget { clearTarget() }
        if step.abandonsReturn { flight?.returnAbandoned = true }
        if step.returnsHome, returnRefusal() == nil {
            return returnTransition(goal: .home, reason: .clearOfAirspaceZone, now: now,
                                    log: .log(.notice, "airspace: clear of the zone: returning home "
                                        + "(--on-airspace-breach return)"))
        }
        return step.transition
    }

    /// Its flight command, by what the return asks for (`ReturningHome.steering`).
    mutating func returningHomeCommand(_ returning: ControllerMode.ReturningHome, into command: inout FlightCommand,
                                       now: MonotonicInstant) {
        switch returning.steering(positionFresh: positionFresh(now: now),
                                  arrivalRadiusM: configuration.controlLaw.arrivalRadiusM) {
        case .ownHover, .none:
            break
        case .home:
            if returning.goal == .home, positionFresh(now: now),
               holdPosition(returning.homeArrival, leg: false, into: &command, now: now) {
            } else {
                apply(returnSteering(toward: returning.goalPoint(home: home), now: now),
                      compensation: configuration.windCompensation, to: &command, now: now)
            }
        }
        holdAltitude(&command, now: now)
    }

    /// Steering toward the return's goal point with the article's control law; hover whenever position or heading
    /// is unknown or stale.
    func returnSteering(toward goal: GeoPoint?, now: MonotonicInstant) -> ControlLaw.Steering {
        guard let goal, let position = lastPosition, positionFresh(now: now),
              let headingDeg = bodyHeadingDeg(now: now)
        else { return .hover }
        let toHome = Geodesy.inverse(from: position, to: goal)
        let differenceDeg = Geodesy.wrapDeg180(toHome.initialBearingDeg - headingDeg)
        return law.steering(distanceM: toHome.distanceM, directionDifferenceDeg: differenceDeg)
    }
}
