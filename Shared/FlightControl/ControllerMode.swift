import QuadProtocol

/// What the controller is doing, with the data that means something in that activity only (its timers, its
/// goal, its progress watch, its arrival filter). Leaving a mode drops its data by construction: a later mode
/// starts from its own `entering` value, never from a leftover flag. The published activity
/// (`ControllerState.Activity`, the wire) is `activity`.
///
/// Where each datum lives, by how long it means something:
/// - one mode: in that mode's case (a takeoff's id and start, a hover's landing time over home, a flight to the
///   target's progress and arrival filter, which `arrived` carries on while the drone holds there, a return's
///   goal);
/// - one flight, from takeoff until navdata shows the drone landed: in `Flight` (home, the altitude to hold, the
///   battery budget, the failsafes that fire once per flight, the lost-pilot timers). The controller holds it as
///   an optional that entering `.landed` drops, rather than in every airborne case, because a flight spans seven
///   of the eight modes (emergency keeps one cut in the air) and handing it from case to case would be noise;
///   the timers of a narrower span (lost pilot: taking off and airborne; abandoned return: airborne) are dropped
///   by `Flight.entering`, the one place that knows their spans;
/// - the controller's whole run: on `ControllerStateMachine` (configuration, run id, last inputs, the target,
///   which a landed controller keeps for the next takeoff, the pilot, the wind estimate, the flight memory).
enum ControllerMode: Sendable, Equatable {
    case landed(Landed)
    case takingOff(TakingOff)
    case hovering(Hovering)
    case flyingToTarget(FlyingToTarget)
    case arrived(Arrived)
    case returningHome(ReturningHome)
    case landing
    case emergency(Emergency)

    /// On the ground (or not known to be flying yet).
    struct Landed: Sendable, Equatable {
        /// A flat trim was asked for: sent with the next flight command, then cleared.
        var flatTrimPending = false
        /// `land` arrived before the first navdata of this run: obeyed as soon as navdata shows the drone in the
        /// air (cleared by any navdata).
        var landBeforeNavdata = false
    }

    /// Asked the vehicle to take off; navdata has not shown it in the air yet.
    struct TakingOff: Sendable, Equatable {
        let startedAtUs: Int64
        /// The takeoff the flight commands ask the link for: new for each takeoff this run accepts, so a link
        /// never arms a vehicle on a continuing command (`TakeoffGate`).
        let takeoffId: UInt32
    }

    /// Holding where the drone is.
    struct Hovering: Sendable, Equatable {
        /// Hovering over home after a return: land at this time.
        var homeReachedLandAtUs: Int64?
    }

    /// Steering toward the target.
    struct FlyingToTarget: Sendable, Equatable {
        /// Since the last (re)entry: inputs must be fresh within `staleAfterMs` of it.
        var sinceUs: Int64
        /// Does the flight to the target get closer?
        var progress: ProgressWatch
        /// Arrival on several fixes, not one noisy one.
        var arrival: ArrivalFilter
    }

    /// Holding over the target.
    struct Arrived: Sendable, Equatable {
        /// The flight's filter, carried on: it tells when the drone has left the arrival radius.
        var arrival: ArrivalFilter
    }

    /// Flying back toward home (the `return` command, the failsafes that go home, the geofence).
    struct ReturningHome: Sendable, Equatable {
        /// Where this return ends (re-aimed by a later `startReturn`).
        var goal: ReturnGoal
        let startedAtUs: Int64
        /// Does the return get closer?
        var progress: ProgressWatch
        /// Arrival over home, filtered like a target's.
        var homeArrival: ArrivalFilter
    }

    /// Motors cut.
    struct Emergency: Sendable, Equatable {
        /// A reset was accepted: emergencyRecover until navdata shows the bit cleared.
        var recovering = false
    }

    /// The published activity.
    var activity: ControllerState.Activity {
        switch self {
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
}

extension ControllerStateMachine {
    /// The mode a transition to `next` enters from the current one: re-entering the same activity keeps its data
    /// (a hover keeps its landing timer, a return its start and progress, a takeoff its id), except a flight to the
    /// target, whose freshness clock restarts; any other entry starts from fresh data.
    mutating func entering(_ next: Activity, nowUs: Int64) -> ControllerMode {
        switch (next, mode) {
        case (.landed, .landed(let landed)): return .landed(landed)
        case (.landed, _): return .landed(.init())
        case (.takingOff, .takingOff(let takingOff)): return .takingOff(takingOff)
        case (.takingOff, _):
            takeoffCount &+= 1
            return .takingOff(.init(startedAtUs: nowUs,
                                    takeoffId: Self.takeoffId(runId: runId, count: takeoffCount)))
        case (.hovering, .hovering(let hovering)): return .hovering(hovering)
        case (.hovering, _): return .hovering(.init())
        case (.flyingToTarget, .flyingToTarget(var flying)):
            flying.sinceUs = nowUs
            return .flyingToTarget(flying)
        case (.flyingToTarget, .arrived(let arrived)):
            return .flyingToTarget(.init(sinceUs: nowUs, progress: newProgressWatch, arrival: arrived.arrival))
        case (.flyingToTarget, _):
            return .flyingToTarget(.init(sinceUs: nowUs, progress: newProgressWatch, arrival: newArrivalFilter))
        case (.arrived, .arrived(let arrived)): return .arrived(arrived)
        case (.arrived, .flyingToTarget(let flying)): return .arrived(.init(arrival: flying.arrival))
        case (.arrived, _): return .arrived(.init(arrival: newArrivalFilter))
        case (.returningHome, .returningHome(let returning)): return .returningHome(returning)
        case (.returningHome, _):
            return .returningHome(.init(goal: .insideFence, startedAtUs: nowUs, progress: newProgressWatch,
                                        homeArrival: newArrivalFilter))
        case (.landing, _): return .landing
        case (.emergency, .emergency(let emergency)): return .emergency(emergency)
        case (.emergency, _): return .emergency(.init())
        }
    }

    var newProgressWatch: ProgressWatch {
        ProgressWatch(marginM: configuration.progressMarginM,
                      timeoutUs: microseconds(fromSeconds: configuration.progressTimeoutS))
    }

    var newArrivalFilter: ArrivalFilter {
        ArrivalFilter(windowUs: configuration.arrivalWindowMs &* 1000, minimumFixes: configuration.arrivalMinimumFixes)
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

    /// Feeds the target's arrival filter (flying to it or over it; no other mode has one).
    mutating func observeTargetArrival(_ solution: NavigationSolution, nowUs: Int64) {
        switch mode {
        case .flyingToTarget(var flying):
            flying.arrival.observe(distanceM: solution.distanceM, bearingDeg: solution.bearingDeg,
                                   latitudeDeg: solution.droneLatitudeDeg, longitudeDeg: solution.droneLongitudeDeg,
                                   atUs: nowUs)
            mode = .flyingToTarget(flying)
        case .arrived(var arrived):
            arrived.arrival.observe(distanceM: solution.distanceM, bearingDeg: solution.bearingDeg,
                                    latitudeDeg: solution.droneLatitudeDeg, longitudeDeg: solution.droneLongitudeDeg,
                                    atUs: nowUs)
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
