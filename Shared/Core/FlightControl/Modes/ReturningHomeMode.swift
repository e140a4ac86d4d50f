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
        /// Going home around keep-out zones (the way home judged as a target's is, at the return's start): its
        /// corners are passed one by one, then home itself is flown to. Nil: straight home.
        var route: AirspaceRoute?

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

/// The return's own behaviour: pure functions of its data and a narrow `Context` (what it reads of the controller);
/// what it asks of the controller beyond its own data comes back in a `Step` the controller performs.
extension ControllerMode.ReturningHome {
    /// All the return reads of the controller.
    struct Context {
        let now: MonotonicInstant
        /// Navdata's altitude while fresh.
        let altitudeM: Double?
        /// The altitude held now (the return altitude, then the approach altitude over home).
        let wantedAltitudeM: Double?
        /// Navdata shows the wanted altitude (or none is wanted).
        let altitudeReached: Bool
        let configuration: ControllerConfiguration
        /// A target is kept (accepted during a return to the fence: flown to once back inside).
        let hasTarget: Bool
        /// For the log line of a return the wind defeats.
        let wind: WindEstimator
    }

    /// What a fix asks of the controller: a transition, the approach altitude to hold, the target dropped, the
    /// return given up for this flight.
    struct Step {
        var transition: Transition?
        var wantedAltitudeM: Double?
        var dropsTarget = false
        var abandonsReturn = false
        /// Clear of a zone with `--on-airspace-breach return`: home next, if a return can start.
        var returnsHome = false
    }

    /// How the command steers in this phase.
    enum Steering: Equatable {
        /// Over home (filtered): the drone's own hover while it comes down.
        case ownHover
        /// Toward home (the position law near it, the article's law further out), or back inside the fence.
        case home
        /// Braking or climbing: hover, the altitude hold's gaz only.
        case none
    }

    /// A return starting (braking, progress and arrival judged afresh), or one re-aimed at `goal`: its start,
    /// phase and progress go on, its arrival is measured afresh for the goal.
    static func entering(goal: ReturnGoal, continuing: Self?, now: MonotonicInstant, progress: ProgressWatch,
                         arrival: ArrivalFilter, route: AirspaceRoute?) -> Self {
        guard var returning = continuing else {
            return Self(goal: goal, startedAt: now, progress: progress, homeArrival: arrival, route: route)
        }
        returning.goal = goal
        returning.homeArrival.reset()
        returning.route = route
        return returning
    }

    /// On the tick: the phases that end with time or altitude — the brake, then (going home) the climb.
    mutating func tick(_ context: Context) -> [ControllerAction] {
        let now = context.now
        switch phase {
        case .brake:
            guard now - startedAt >= context.configuration.returnBrake else { return [] }
            phase = goal == .home && !context.altitudeReached
                ? .climb(bestAltitudeM: context.altitudeM ?? -.infinity, risingAt: now) : .flyHome
        case .climb(let bestM, let risingAt):
            if context.altitudeReached {
                phase = .flyHome
            } else if let altitudeM = context.altitudeM,
                      altitudeM > bestM + context.configuration.altitude.toleranceM / 3 {
                phase = .climb(bestAltitudeM: altitudeM, risingAt: now)
            } else if now - risingAt >= context.configuration.progressTimeout {
                // Not rising (the vehicle's own altitude limit, a ceiling it holds): home from here, the altitude
                // still asked for.
                phase = .flyHome
                let atM = bestM.isFinite ? "\(Int(bestM.rounded())) m" : "an unknown altitude"
                return [.log(.warning, "return: the climb to \(context.wantedAltitudeM ?? 0) m stopped at \(atM): "
                    + "flying home from there")]
            }
        case .flyHome, .descend:
            break
        }
        return []
    }

    /// Where the return steers: home (the route's corner first, around a keep-out zone), or (leaving an airspace
    /// zone) the point the margin clears.
    func goalPoint(home: GeoPoint?) -> GeoPoint? {
        if case .leaveZone(let point) = goal { return point }
        return route?.corner ?? home
    }

    /// On a position fix `distanceM` from the goal point on `bearingDeg`: arrival (over home, back inside the
    /// fence, clear of a zone) and
    /// the progress watch; a return that loses ground is given up: hover, then land (or land at once).
    mutating func fix(distanceM: Double, bearingDeg: Double, at point: GeoPoint, context: Context) -> Step {
        let configuration = context.configuration
        let arrivalRadiusM = configuration.controlLaw.arrivalRadiusM
        // A corner of the way home around a zone: passed within twice the arrival radius (no settling there), and
        // the next leg's progress watched afresh.
        if goal == .home, var around = route, around.corner != nil {
            if phase.movesHome, distanceM <= 2 * arrivalRadiusM {
                around.cornerReached()
                route = around
                progress.reset()
                return Step()
            }
        } else {
            switch goal {
            case .leaveZone:
                if distanceM <= arrivalRadiusM {
                    return Step(transition: Transition(to: .hovering, reason: .clearOfAirspaceZone),
                                returnsHome: configuration.failsafes.airspaceBreach == .returnHome)
                }
            case .insideFence:
                if distanceM <= configuration.geofenceRadiusM - configuration.geofenceReturnMarginM {
                    // A target accepted during the return (it was checked against the fence) is flown to next.
                    return Step(transition: Transition(to: context.hasTarget ? .flyingToTarget : .hovering,
                                                       reason: .backInsideGeofence))
                }
            case .home:
                // Called once per position fix: each is a sample, also when a still vehicle repeats it.
                homeArrival.observe(distanceM: distanceM, bearingDeg: bearingDeg, latitudeDeg: point.latitudeDeg,
                                    longitudeDeg: point.longitudeDeg, newFix: true, at: context.now)
                // Home is where the drone lands, not just a point to pass: the position law settles it to half the
                // arrival radius (by the filtered position) before the hover and the landing.
                if let filteredM = homeArrival.filteredDistanceM, filteredM < arrivalRadiusM / 2 {
                    if let altitudeM = context.altitudeM,
                       altitudeM > configuration.returnApproachAltitudeM + configuration.altitude.toleranceM {
                        // The landing itself is not steered (the drone's own descent drifts with the wind): come down
                        // under the position law first, as autopilots do, and land from low.
                        phase = .descend
                        return Step(wantedAltitudeM: configuration.returnApproachAltitudeM)
                    }
                    // Over home: hover to let the position settle, then land (`hoveringTick`). A target sent meanwhile
                    // is a new order and cancels the landing; one stored during the return is not.
                    return Step(transition: Transition(to: .hovering, reason: .homeReached), dropsTarget: true)
                }
            }
        }
        guard phase.movesHome, progress.observe(distanceM: distanceM, at: context.now) else { return Step() }
        let bestM = progress.bestDistanceM
        if configuration.abandonedReturnLandAfter <= .zero {
            // The wind has won: every second of hover drifts further. Land now, where the drone is.
            return Step(transition: Transition(to: .landing, reason: .windTooStrong, log: .log(.warning,
                "return home lost ground (\(Int(distanceM)) m from home, best \(Int(bestM)) m), "
                    + "\(context.wind.summary): landing at once")), dropsTarget: true, abandonsReturn: true)
        }
        return Step(transition: Transition(
            to: .hovering, reason: .returnHomeNotProgressing,
            log: .log(.warning, "return home lost ground (\(Int(distanceM)) m from home, best \(Int(bestM)) m): "
                + "hovering, landing in \(configuration.abandonedReturnLandAfter.inSeconds) s")),
                    dropsTarget: true, abandonsReturn: true)
    }

    /// How the command steers: over home (filtered, with a fresh fix) the drone's own hover, as `.arrived` — an
    /// autopilot then holds its position itself; under the position law's small tilts the real PX4 drifted
    /// 0.2 → 0.6 m in the descent and landed 0.8–1.4 m off; flying home, or drifted off home while descending
    /// there (wind), steer (back) home; braking and climbing, no steering.
    func steering(positionFresh: Bool, arrivalRadiusM: Double) -> Steering {
        if goal == .home, positionFresh, let distanceM = homeArrival.filteredDistanceM,
           distanceM < arrivalRadiusM / 2 {
            return .ownHover
        }
        return phase.movesHome ? .home : .none
    }
}
