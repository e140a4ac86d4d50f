import Clocks
import Navigation
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
        /// When navdata first showed the climb (the vehicle's own "taking off"): the takeoff is confirmed, and from
        /// then on the climb has `takeoffClimbTimeout`, not `takeoffTimeout`.
        var climbSeenAt: MonotonicInstant?
    }
}

/// Taking off: pure functions of its data and a narrow `Context`; what it asks of the controller comes back in an
/// `Entry` or a `Step`. On entry a flight starts (`apply`).
extension ControllerMode.TakingOff {
    /// All the takeoff reads of the controller after its entry.
    struct Context {
        let now: MonotonicInstant
        /// Navdata came within `takeoffNavdataLoss`.
        let navdataFresh: Bool
        let takeoffTimeout: Duration
        let takeoffClimbTimeout: Duration
        /// The mean of the fixes on the ground and in the climb, if any.
        let groundPositionMean: GeoPoint?
        /// The altitude to climb to: the (stored) target's, else the cruise altitude.
        let climbAltitudeM: Double
        let hasTarget: Bool
    }

    /// A takeoff entered, and the takeoff count the controller keeps from now (nil: unchanged).
    struct Entry {
        var takingOff: ControllerMode.TakingOff
        var takeoffCount: UInt32?
    }

    /// What navdata asks of the controller: home refined, the altitude to hold, a transition.
    struct Step {
        /// The takeoff with the climb now seen (nil: unchanged).
        var takingOff: ControllerMode.TakingOff?
        var transition: Transition?
        var home: GeoPoint?
        var wantedAltitudeM: Double?
    }

    /// On entry: a takeoff id of its own, from the next takeoff count (a re-entry keeps the takeoff under way).
    static func entering(continuing: Self?, now: MonotonicInstant, runId: UInt32, takeoffCount: UInt32,
                         hasHome: Bool) -> Entry {
        if let continuing { return Entry(takingOff: continuing) }
        let count = takeoffCount &+ 1
        let takeoffId = ControllerStateMachine.takeoffId(runId: runId, count: count)
        return Entry(takingOff: Self(startedAt: now, takeoffId: takeoffId, placesHome: !hasHome), takeoffCount: count)
    }

    /// On its tick: land if navdata never confirms the takeoff (neither a climb nor the drone in the air), if the
    /// confirmed climb never ends, or if navdata stops coming. A busy PX4 SIH was still climbing 10 s after the
    /// command (its "taking off" from ~2 s on): the timeout that ran until the climb was over landed it.
    func tick(_ context: Context) -> Transition? {
        if let climbSeenAt {
            if context.now - climbSeenAt > context.takeoffClimbTimeout {
                return Transition(to: .landing, reason: .takeoffTimeout, log: .log(.warning,
                    "takeoff climbing for \(context.takeoffClimbTimeout.inSeconds) s and not in the air: landing"))
            }
        } else if context.now - startedAt > context.takeoffTimeout {
            return Transition(to: .landing, reason: .takeoffTimeout, log: .log(.warning,
                "takeoff not confirmed in navdata (no climb, not in the air) within "
                    + "\(context.takeoffTimeout.inSeconds) s: landing"))
        }
        if !context.navdataFresh {
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
    func navdata(observed: ObservedFlight, context: Context) -> Step {
        if observed == .takingOff, climbSeenAt == nil {
            var seen = self
            seen.climbSeenAt = context.now
            return Step(takingOff: seen)
        }
        guard observed == .airborne else { return Step() }
        // A takeoff right after start has one fix or two on the ground: a home that far off (drone-sim's 1.5 m
        // noise per axis) is where a return lands. The climb is straight up, so its fixes place home too.
        return Step(transition: Transition(to: context.hasTarget ? .flyingToTarget : .hovering, reason: .airborne),
                    home: placesHome ? context.groundPositionMean : nil, wantedAltitudeM: context.climbAltitudeM)
    }

    /// Its flight command: fly, with this takeoff's id.
    func command(into command: inout FlightCommand) {
        command.takeoffId = takeoffId
    }
}
