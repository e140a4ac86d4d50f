import Clocks
import QuadProtocol

extension ControllerMode {
    /// Asked the vehicle to take off; navdata has not shown it in the air yet.
    struct TakingOff: Sendable, Equatable {
        let startedAt: MonotonicInstant
        /// The takeoff the flight commands ask the link for: new for each takeoff this run accepts, so a link
        /// never arms a vehicle on a continuing command (`TakeoffGate`).
        let takeoffId: UInt32
        /// The flight had no home when this takeoff began (not a takeoff from a landing in the air): the fixes on
        /// the ground and in the climb place it.
        let placesHome: Bool
    }
}

/// Taking off. On entry: a new takeoff id (`entering`), and a flight starts (`apply`).
extension ControllerStateMachine {
    /// On entry: a takeoff id of its own (a re-entry keeps the takeoff under way).
    mutating func takingOffEntry(now: MonotonicInstant) -> ControllerMode.TakingOff {
        if case .takingOff(let takingOff) = mode { return takingOff }
        takeoffCount &+= 1
        let takeoffId = Self.takeoffId(runId: runId, count: takeoffCount)
        return ControllerMode.TakingOff(startedAt: now, takeoffId: takeoffId, placesHome: home == nil)
    }

    /// On its tick: land if navdata never shows the drone in the air, or stops coming.
    func takingOffTick(_ takingOff: ControllerMode.TakingOff, now: MonotonicInstant) -> Transition? {
        if now - takingOff.startedAt > configuration.takeoffTimeout {
            return Transition(to: .landing, reason: .takeoffTimeout, log: .log(.warning,
                "takeoff not seen in navdata within \(configuration.takeoffTimeout.inSeconds) s: landing"))
        }
        if !droneStateFresh(now: now, within: configuration.takeoffNavdataLoss) {
            // Without navdata this takeoff cannot be watched; a link that comes back must not find it still asked
            // for (its takeoff id would arm a vehicle nobody is watching). Land: it may already be off the ground.
            return Transition(to: .landing, reason: .takeoffAbortedDroneLinkLost,
                              log: .log(.warning, "no navdata while taking off: takeoff aborted, landing"))
        }
        return nil
    }

    /// On navdata: in the air at ~1 m, the takeoff is over: home becomes the mean of the fixes on the ground and
    /// in the climb, then climb to the (stored) target's altitude, else the cruise altitude, and on to the target,
    /// else hover.
    mutating func takingOffNavdata(_ takingOff: ControllerMode.TakingOff, observed: ObservedFlight) -> Transition? {
        guard observed == .airborne else { return nil }
        // A takeoff right after start has one fix or two on the ground: a home that far off (drone-sim's 1.5 m
        // noise per axis) is where a return lands. The climb is straight up, so its fixes place home too.
        if takingOff.placesHome, let refined = groundPosition.mean { flight?.home = refined }
        let altitudeM = wantedAltitude(for: target)
        flight?.wantedAltitudeM = altitudeM
        return Transition(to: target == nil ? .hovering : .flyingToTarget, reason: .airborne)
    }

    /// Its flight command: fly, with this takeoff's id.
    func takingOffCommand(_ takingOff: ControllerMode.TakingOff, into command: inout FlightCommand) {
        command.takeoffId = takingOff.takeoffId
    }
}
