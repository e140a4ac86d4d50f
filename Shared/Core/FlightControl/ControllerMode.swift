import Clocks
import QuadProtocol

/// What the controller is doing, with the data that means something in that activity only (its timers, its
/// goal, its progress watch, its arrival filter). Leaving a mode drops its data by construction: a later mode
/// starts from its own `entering` value, never from a leftover flag. The published activity
/// (`ControllerState.Activity`, the wire) is `activity`.
///
/// Each mode has its file in `Modes/` (its data, what it does on entry, on the events that concern it, on its tick,
/// and its flight command), as functions of its own data and a narrow `Context`: only what it reads of the
/// controller (the time, freshness, configuration values, a target kept, …; a mode that reads nothing takes none),
/// never the controller itself, so what a mode can change is in its signatures. A handler returns a `Transition`
/// instead of changing the mode, and a step for what else it asks (home refined, the altitude to hold, a takeoff
/// counted, the flight resumed); the dispatch below builds the contexts and performs the steps, `apply` performs
/// the transition, the one place the mode changes. The rules that cut across modes (freshness, geofence, ground
/// link, pilot, targets, failsafes) are in `ControllerStateMachine+X` and return transitions the same way (with the
/// log lines or refusals they add); the event handler or the tick that ran the rule applies what it returns, right
/// after it, so the rules keep their order. What an entry needs beyond the activity (a return's goal) is in the
/// transition.
///
/// Where each datum lives, by how long it means something:
/// - one mode: in that mode's case (a takeoff's id and start, a hover's timed landing — over home, or after a
///   return given up — a flight to the target's progress and arrival filter, which `arrived` carries on while the
///   drone holds there, a return's goal and phase);
/// - one flight, from takeoff until navdata shows the drone landed: in `Flight` (home, the altitude to hold, the
///   battery budget, the failsafes that fire once per flight, the lost-pilot timers). The controller holds it as
///   an optional that entering `.landed` drops, rather than in every airborne case, because a flight spans seven
///   of the eight modes (emergency keeps one cut in the air) and handing it from case to case would be noise;
///   the timers of a narrower span (lost pilot: taking off and airborne) are dropped by `Flight.entering`, the
///   one place that knows their spans;
/// - the controller's whole run: on `ControllerStateMachine` (configuration, run id, last inputs, the target,
///   which a landed controller keeps for the next takeoff, the pilot, the wind estimate, the flight memory).
enum ControllerMode: Sendable, Equatable {
    case unknown(Unknown)
    case landed(Landed)
    case takingOff(TakingOff)
    case hovering(Hovering)
    case flyingToTarget(FlyingToTarget)
    case arrived(Arrived)
    case returningHome(ReturningHome)
    case landing
    case emergency(Emergency)

    /// The published activity.
    var activity: ControllerState.Activity {
        switch self {
        case .unknown: return .unknown
        case .landed: return .landed
        case .takingOff: return .takingOff
        case .hovering: return .hovering
        case .flyingToTarget: return .flyingToTarget
        case .arrived: return .arrived
        case .returningHome: return .returningHome
        case .landing: return .landing
        case .emergency: return .emergency
        }
    }

    // A mode's data while in it: what a re-entry continues from.
    var landed: Landed? { if case .landed(let landed) = self { landed } else { nil } }
    var takingOff: TakingOff? { if case .takingOff(let takingOff) = self { takingOff } else { nil } }
    var hovering: Hovering? { if case .hovering(let hovering) = self { hovering } else { nil } }
    var arrived: Arrived? { if case .arrived(let arrived) = self { arrived } else { nil } }
    var flyingToTarget: FlyingToTarget? { if case .flyingToTarget(let flying) = self { flying } else { nil } }
}

extension ControllerStateMachine {
    /// The mode a transition enters, with its data as the mode's own entry makes it (in its file): re-entering the
    /// same activity keeps its data (a hover its landing timer, a return its start and progress, a takeoff its id),
    /// except a flight to the target, whose freshness clock restarts; any other entry starts from fresh data.
    mutating func entering(_ transition: Transition, now: MonotonicInstant) -> ControllerMode {
        switch transition.activity {
        // Only the start is unknown: no transition leads back to it.
        case .unknown: return .unknown(.init())
        case .landed: return .landed(.entering(continuing: mode.landed))
        case .takingOff:
            let entry = ControllerMode.TakingOff.entering(continuing: mode.takingOff, now: now, runId: runId,
                                                          takeoffCount: takeoffCount, hasHome: home != nil)
            if let count = entry.takeoffCount { takeoffCount = count }
            return .takingOff(entry.takingOff)
        case .hovering:
            return .hovering(.entering(transition, continuing: mode.hovering, context: hoveringContext(now: now)))
        case .flyingToTarget:
            return .flyingToTarget(.entering(continuing: mode.flyingToTarget, fromArrived: mode.arrived, now: now,
                                             newProgress: newProgressWatch, newArrival: newArrivalFilter))
        case .arrived:
            return .arrived(.entering(continuing: mode.arrived, flightArrival: targetArrival,
                                      newArrival: newArrivalFilter))
        case .returningHome: return .returningHome(returningHomeEntry(transition, now: now))
        case .landing: return .landing
        // Only a new emergency enters it (`enterEmergency`): that cancels a reset under way.
        case .emergency: return .emergency(.init())
        }
    }

    /// Navdata (without the emergency bit) as the current mode reads it. The first navdata of a run ends
    /// `unknown`: a restarted controller's first navdata showing the drone in the air resumes the flight.
    mutating func modeNavdata(observed: ObservedFlight, now: MonotonicInstant) -> Transition? {
        switch mode {
        case .unknown(let unknown):
            let step = unknown.navdata(observed: observed)
            return step.resumesFlight ? resumeFlight(now: now) : step.transition
        case .landed(let landed): return landed.navdata(observed: observed)
        case .takingOff(let takingOff):
            let step = takingOff.navdata(observed: observed, context: takingOffContext(now: now))
            if let seen = step.takingOff { mode = .takingOff(seen) }
            if let home = step.home { flight?.home = home }
            if let altitudeM = step.wantedAltitudeM { flight?.wantedAltitudeM = altitudeM }
            return step.transition
        case .hovering, .flyingToTarget, .arrived, .returningHome: return airborneNavdata(observed: observed)
        case .landing: return ControllerMode.Landing.navdata(observed: observed)
        case .emergency(let emergency): return emergency.navdata()
        }
    }

    /// In any airborne mode: navdata showing the drone landing or on the ground (its own landing, a low battery
    /// the firmware acted on) is followed.
    func airborneNavdata(observed: ObservedFlight) -> Transition? {
        switch observed {
        case .landing: return Transition(to: .landing, reason: .droneLanding)
        case .onGround: return Transition(to: .landed, reason: .droneLanded)
        case .takingOff, .airborne, .unknown: return nil
        }
    }

    /// The flight command of the current mode, filled into `command` (fly, no motion, sequence and stamp set).
    mutating func modeCommand(into command: inout FlightCommand, now: MonotonicInstant) {
        switch mode {
        // Never sent (no flight command goes out before the first navdata); landing is what it would say.
        case .unknown: command.refMode = .land
        case .landed(var landed):
            landed.command(into: &command)
            mode = .landed(landed)
        case .takingOff(let takingOff): takingOff.command(into: &command)
        // The drone's own hover, at the wanted altitude.
        case .hovering: holdAltitude(&command, now: now)
        case .flyingToTarget(let flying):
            if flying.holdsPosition(flyingToTargetContext(now: now)),
               holdPosition(flying.arrival, leg: true, into: &command, now: now) {
            } else {
                apply(targetSteering(now: now), compensation: targetCompensation, to: &command, now: now)
            }
            holdAltitude(&command, now: now)
        case .arrived(let arrived):
            let stayYawFrac = missionStayYawFrac(now: now)
            if arrived.holdsPosition(arrivedContext(now: now)),
               holdPosition(arrived.arrival, leg: true, into: &command, now: now) {
                command.yawFrac = stayYawFrac ?? 0
            } else if let stayYawFrac {
                // Over the point, where the drone's own hover holds it: the turn alone, no tilt.
                command.progressive = true
                command.yawFrac = stayYawFrac
            }
            holdAltitude(&command, now: now)
        case .returningHome(let returning): returningHomeCommand(returning, into: &command, now: now)
        case .landing: ControllerMode.Landing.command(into: &command)
        case .emergency(let emergency): emergency.command(into: &command)
        }
    }

    /// What a takeoff reads of the controller now (`TakingOff.Context`).
    func takingOffContext(now: MonotonicInstant) -> ControllerMode.TakingOff.Context {
        ControllerMode.TakingOff.Context(
            now: now, navdataFresh: droneStateFresh(now: now, within: configuration.takeoffNavdataLoss),
            takeoffTimeout: configuration.takeoffTimeout, takeoffClimbTimeout: configuration.takeoffClimbTimeout,
            groundPositionMean: groundPosition.mean,
            climbAltitudeM: wantedAltitude(for: target), hasTarget: target != nil)
    }

    /// What a hover reads of the controller now (`Hovering.Context`).
    func hoveringContext(now: MonotonicInstant) -> ControllerMode.Hovering.Context {
        ControllerMode.Hovering.Context(
            now: now, positionFresh: positionFresh(now: now), navdataFresh: droneStateFresh(now: now),
            returnHomeHover: configuration.returnHomeHover,
            abandonedReturnLandAfter: configuration.abandonedReturnLandAfter)
    }

    /// What the hold over the target reads of the controller now (`Arrived.Context`).
    func arrivedContext(now: MonotonicInstant) -> ControllerMode.Arrived.Context {
        ControllerMode.Arrived.Context(positionFresh: positionFresh(now: now),
                                       navigationFresh: navigationFresh(now: now), law: targetArrivalLaw,
                                       linkHoldsTarget: vehicleHoldsGroundVelocity)
    }

    /// What the flight to the target reads of the controller now (`FlyingToTarget.Context`).
    func flyingToTargetContext(now: MonotonicInstant) -> ControllerMode.FlyingToTarget.Context {
        ControllerMode.FlyingToTarget.Context(
            now: now, positionFresh: positionFresh(now: now), navigationFresh: navigationFresh(now: now),
            altitudeReached: altitudeReached(now: now), staleAfter: configuration.staleAfter,
            staleNavigation: configuration.failsafes.staleNavigation, law: targetArrivalLaw)
    }

    /// A fresh navigation solution while flying to the target: arrived? (`FlyingToTarget.arrival`).
    func flyingToTargetArrival(_ flying: ControllerMode.FlyingToTarget, now: MonotonicInstant) -> Transition? {
        flying.arrival(flyingToTargetContext(now: now))
    }

    /// The same, still flying: does it get closer? A flight that lost ground drops its target
    /// (`FlyingToTarget.observeProgress`).
    mutating func flyingToTargetProgress(distanceM: Double, now: MonotonicInstant) -> Transition? {
        guard case .flyingToTarget(var flying) = mode else { return nil }
        let transition = flying.observeProgress(distanceM: distanceM, now: now)
        mode = .flyingToTarget(flying)
        if transition != nil { clearTarget() }
        return transition
    }

    /// On a target that moved (beyond the arrival hysteresis): progress toward the old one says nothing about it.
    mutating func flyingToTargetMoved() {
        guard case .flyingToTarget(var flying) = mode else { return }
        flying.progress.reset()
        mode = .flyingToTarget(flying)
    }

    /// A fresh navigation solution while hovering (`Hovering.navigation`).
    func hoveringNavigation(now: MonotonicInstant) -> Transition? {
        ControllerMode.Hovering.navigation(hoveringContext(now: now))
    }

    /// A fresh navigation solution over the target (`Arrived.navigation`).
    func arrivedNavigation(_ arrived: ControllerMode.Arrived, now: MonotonicInstant) -> Transition? {
        arrived.navigation(arrivedContext(now: now))
    }

    /// On `land` before the first navdata (`Unknown.land`).
    mutating func unknownLand() {
        guard case .unknown(var unknown) = mode else { return }
        unknown.land()
        mode = .unknown(unknown)
    }

    /// On the flat trim command: only on the ground (`Landed.flatTrim`).
    mutating func flatTrim(now: MonotonicInstant) -> CommandAnswer {
        guard case .landed(var landed) = mode else {
            return ([refuse(kind: "command", reason: .flatTrimRefusedNotLanded, now: now)], nil)
        }
        let transition = landed.flatTrim()
        mode = .landed(landed)
        return ([], transition)
    }

    /// On the reset command: only in emergency (`Emergency.reset`).
    mutating func reset(now: MonotonicInstant) -> CommandAnswer {
        guard case .emergency(var emergency) = mode else {
            return ([refuse(kind: "command", reason: .resetRefusedNotInEmergency, now: now)], nil)
        }
        let transition = emergency.reset()
        mode = .emergency(emergency)
        return ([], transition)
    }

    var newProgressWatch: ProgressWatch {
        ProgressWatch(marginM: configuration.progressMarginM,
                      timeout: configuration.progressTimeout)
    }

    var newArrivalFilter: ArrivalFilter {
        ArrivalFilter(window: configuration.arrivalWindow,
                      minimumFixes: configuration.arrivalMinimumFixes)
    }

    /// The takeoff the flight commands ask for while taking off; 0 at every other time.
    public var takeoffId: UInt32 {
        if case .takingOff(let takingOff) = mode { return takingOff.takeoffId }
        return 0
    }

    /// Returning to land at home (not just back inside the fence).
    var isReturningToLandAtHome: Bool {
        if case .returningHome(let returning) = mode { return returning.goal == .home }
        return false
    }

    /// The target's arrival filter while flying to it or holding over it; nil in every other mode.
    var targetArrival: ArrivalFilter? {
        switch mode {
        case .flyingToTarget(let flying): return flying.arrival
        case .arrived(let arrived): return arrived.arrival
        default: return nil
        }
    }

    /// Feeds the target's arrival filter (flying to it or over it; no other mode has one). The navigator solves on
    /// every input: the solution a position fix made (its position 0 ms old) is a fix of its own, also when a still
    /// vehicle repeats it; one a heading or target update made repeats an earlier fix.
    mutating func observeTargetArrival(_ solution: NavigationSolution, now: MonotonicInstant) {
        let newFix = solution.positionAgeMs == 0
        switch mode {
        case .flyingToTarget(var flying):
            flying.arrival.observe(distanceM: solution.distanceM, bearingDeg: solution.bearingDeg,
                                   latitudeDeg: solution.droneLatitudeDeg, longitudeDeg: solution.droneLongitudeDeg,
                                   newFix: newFix, at: now)
            mode = .flyingToTarget(flying)
        case .arrived(var arrived):
            arrived.arrival.observe(distanceM: solution.distanceM, bearingDeg: solution.bearingDeg,
                                    latitudeDeg: solution.droneLatitudeDeg, longitudeDeg: solution.droneLongitudeDeg,
                                    newFix: newFix, at: now)
            mode = .arrived(arrived)
        default: break
        }
    }

    /// The target moved or went: its fixes so far say nothing about the new one.
    mutating func resetTargetArrival() {
        switch mode {
        case .flyingToTarget(var flying):
            flying.arrival.reset()
            mode = .flyingToTarget(flying)
        case .arrived(var arrived):
            arrived.arrival.reset()
            mode = .arrived(arrived)
        default: break
        }
    }

    var recoveringFromEmergency: Bool {
        if case .emergency(let emergency) = mode { return emergency.recovering }
        return false
    }
}
