#if canImport(Glibc)
import Glibc
#endif
import Clocks
import Navigation
import QuadProtocol

extension ControllerMode {
    /// Flying back toward home (the `return` command, the failsafes that go home, the geofence), in phases as
    /// PX4's RTL: brake, climb to the return altitude, fly home (the control law far out, the position law inside
    /// the slowdown radius), descend over home to the approach height, then hover and land (`Hovering`).
    struct ReturningHome: Sendable, Equatable {
        /// Where this return ends (re-aimed by a later return: `returnTransition`).
        var goal: ReturnGoal
        let startedAt: MonotonicInstant
        var phase: Phase = .brake
        /// Does the return get closer? Watched while flying home only.
        var progress: ProgressWatch
        /// Arrival over home, filtered like a target's.
        var homeArrival: ArrivalFilter

        enum Phase: Sendable, Equatable {
            /// Hover for `returnBrake`: a drone flying away stops before it turns.
            case brake
            /// Going home only: up to the return altitude before any horizontal motion, as PX4's RTL climbs to
            /// RTL_RETURN_ALT. The highest altitude seen and when it last rose: a climb that stops rising for the
            /// progress timeout (a ceiling the vehicle holds, an altitude limit of its own) flies home from there.
            case climb(bestAltitudeM: Double, risingAt: MonotonicInstant)
            /// Steering home (or back inside the fence).
            case flyHome
            /// Over home, down to `returnApproachAltitudeM` under the drone's own hover, steered back by the
            /// position law whenever it drifts off; then `homeReached`.
            case descend

            /// Steering (and its progress watch) is on: after the brake and the climb.
            var movesHome: Bool { self == .flyHome || self == .descend }
        }
    }
}

/// Returning home. On entry: the target is dropped and the return altitude set (`returnTransition`).
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

    /// On entry: the transition's goal; braking starts, progress and arrival are judged afresh (a re-entry, a
    /// re-aimed return, keeps its start, phase and progress, its arrival measured afresh for the goal).
    func returningHomeEntry(_ transition: Transition, now: MonotonicInstant) -> ControllerMode.ReturningHome {
        let goal = transition.returnGoal ?? .insideFence
        guard case .returningHome(var returning) = mode else {
            return ControllerMode.ReturningHome(goal: goal, startedAt: now, progress: newProgressWatch,
                                                homeArrival: newArrivalFilter)
        }
        returning.goal = goal
        returning.homeArrival.reset()
        return returning
    }

    /// On its tick: the phases that end with time or altitude — the brake, then (going home) the climb.
    mutating func returningHomeTick(_ returning: ControllerMode.ReturningHome,
                                    now: MonotonicInstant) -> [ControllerAction] {
        var returning = returning
        var actions: [ControllerAction] = []
        switch returning.phase {
        case .brake:
            guard now - returning.startedAt >= configuration.returnBrake else {
                return []
            }
            returning.phase = returning.goal == .home && !altitudeReached(now: now)
                ? .climb(bestAltitudeM: currentAltitudeM(now: now) ?? -.infinity, risingAt: now) : .flyHome
        case .climb(let bestM, let risingAt):
            if altitudeReached(now: now) {
                returning.phase = .flyHome
            } else if let altitudeM = currentAltitudeM(now: now),
                      altitudeM > bestM + altitudeHold.toleranceM / 3 {
                returning.phase = .climb(bestAltitudeM: altitudeM, risingAt: now)
            } else if now - risingAt >= configuration.progressTimeout {
                // Not rising (the vehicle's own altitude limit, a ceiling it holds): home from here, the altitude
                // still asked for.
                returning.phase = .flyHome
                let atM = bestM.isFinite ? "\(Int(bestM.rounded())) m" : "an unknown altitude"
                actions.append(.log(.warning, "return: the climb to \(wantedAltitudeM ?? 0) m stopped at \(atM): "
                    + "flying home from there"))
            }
        case .flyHome, .descend:
            return []
        }
        mode = .returningHome(returning)
        return actions
    }

    /// On a position fix: arrival (over home, or back inside the fence) and the progress watch; a return that
    /// loses ground is abandoned: hover, then land (or land at once).
    mutating func followReturn(distanceM: Double, bearingDeg: Double, at point: GeoPoint,
                               now: MonotonicInstant) -> Transition? {
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
                                          at: now)
            mode = .returningHome(returning)
            // Home is where the drone lands, not just a point to pass: the position law settles it to half the
            // arrival radius (by the filtered position) before the hover and the landing.
            if let filteredM = returning.homeArrival.filteredDistanceM, filteredM < law.arrivalRadiusM / 2 {
                if let altitudeM = currentAltitudeM(now: now),
                   altitudeM > configuration.returnApproachAltitudeM + configuration.altitude.toleranceM {
                    // The landing itself is not steered (the drone's own descent drifts with the wind): come down
                    // under the position law first, as autopilots do, and land from low.
                    returning.phase = .descend
                    mode = .returningHome(returning)
                    flight?.wantedAltitudeM = configuration.returnApproachAltitudeM
                    return nil
                }
                // Over home: hover to let the position settle, then land (`hoveringTick`). A target sent meanwhile
                // is a new order and cancels the landing; one stored during the return is not.
                clearTarget()
                return Transition(to: .hovering, reason: .homeReached)
            }
        }
        guard returning.phase.movesHome else { return nil }
        let losingGround = returning.progress.observe(distanceM: distanceM, at: now)
        mode = .returningHome(returning)
        guard losingGround else { return nil }
        let bestM = returning.progress.bestDistanceM
        clearTarget()
        flight?.returnAbandoned = true
        if configuration.abandonedReturnLandAfter <= .zero {
            // The wind has won: every second of hover drifts further. Land now, where the drone is.
            return Transition(to: .landing, reason: .windTooStrong, log: .log(.warning,
                "return home lost ground (\(Int(distanceM)) m from home, best \(Int(bestM)) m), "
                    + "\(windText): landing at once"))
        }
        return Transition(
            to: .hovering, reason: .returnHomeNotProgressing,
            log: .log(.warning, "return home lost ground (\(Int(distanceM)) m from home, best \(Int(bestM)) m): "
                + "hovering, landing in \(configuration.abandonedReturnLandAfter.inSeconds) s"))
    }

    /// Its flight command by phase: brake and climb hover (the climb's gaz from the altitude hold); flying home,
    /// the control law, then the position law inside the slowdown radius; over home, the drone's own hover.
    mutating func returningHomeCommand(_ returning: ControllerMode.ReturningHome, into command: inout FlightCommand,
                                       now: MonotonicInstant) {
        if returning.goal == .home, positionFresh(now: now),
           let distanceM = returning.homeArrival.filteredDistanceM, distanceM < law.arrivalRadiusM / 2 {
            // Over home, coming down to the approach altitude: the drone's own hover, as `.arrived`. An
            // autopilot then holds its position itself; under the position law's small tilts the real PX4
            // drifted 0.2 → 0.6 m in the descent and landed 0.8–1.4 m off.
        } else if returning.phase.movesHome {
            // Flying home, or drifted off home while descending there (wind): steer (back) home.
            if returning.goal == .home, positionFresh(now: now),
               holdPosition(returning.homeArrival, into: &command, now: now) {
            } else {
                apply(returnHomeSteering(now: now), to: &command, now: now)
            }
        }
        holdAltitude(&command, now: now)
    }

    /// Steering toward home with the article's control law; hover whenever position or heading is unknown or
    /// stale.
    func returnHomeSteering(now: MonotonicInstant) -> ControlLaw.Steering {
        guard let home, let position = lastPosition, positionFresh(now: now),
              let headingDeg = bodyHeadingDeg(now: now)
        else { return .hover }
        let toHome = Geodesy.inverse(from: position, to: home)
        let differenceDeg = Geodesy.wrapDeg180(toHome.initialBearingDeg - headingDeg)
        return law.steering(distanceM: toHome.distanceM, directionDifferenceDeg: differenceDeg)
    }
}
