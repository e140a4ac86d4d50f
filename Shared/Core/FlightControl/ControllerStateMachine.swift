import Clocks
import Navigation
import QuadProtocol
import Randomness

/// The drone-controller's brain. Feed it events (navdata, positions, navigation solutions, targets, commands,
/// claims, presence, ticks) with the time they were received; it returns what to publish. It never reads a
/// clock, sleeps or does I/O. Transitions follow OBSERVED navdata, never fixed delays.
///
/// Every `now` is the receiving host's MONOTONIC clock (`MonotonicInstant`): ages, timeouts and ttls are measured
/// from receipt. Timestamps written by other hosts (in payloads) are never compared with it: the ground's clock may
/// be off by minutes or years, and the board's wall clock may step.
public struct ControllerStateMachine: Sendable {
    public typealias Activity = ControllerState.Activity

    public let configuration: ControllerConfiguration
    /// This run's id (random, non-zero, picked by the executable at start), published in every state. A command,
    /// claim or target addressed to another run was sent to an earlier run (e.g. queued in a bridge while this
    /// controller restarted) and is refused; RunAddress.none (tests, replays) accepts every address.
    public let runId: UInt32

    /// What the controller is doing, with the timers and goal of that activity (`ControllerMode`).
    var mode: ControllerMode = .unknown(.init())
    /// The published activity.
    public var activity: Activity { mode.activity }
    /// Why the last change or refusal.
    public internal(set) var reason: Reason = .unspecified
    /// Sender id of the broadcaster holding control; nil while anyone may steer.
    public internal(set) var pilotId: String?
    /// The accepted target (flown to when airborne, kept for after takeoff when landed, until its ttl runs out).
    public internal(set) var target: Target?
    /// The way around keep-out zones to `target`, when its straight leg meets one (dropped with the target).
    public internal(set) var route: AirspaceRoute?
    /// The way home around keep-out zones while a return flies one (nil: straight home, or no return).
    public var returnRoute: AirspaceRoute? {
        if case .returningHome(let returning) = mode { return returning.route }
        return nil
    }
    /// The target's leg meets a zone and the paths around the zones are not built yet (a restart, a new airspace):
    /// hovering with the target kept, judged again when they are (`pathPlannerBuilt`).
    var awaitingPaths = false
    /// When `target` was received (its ttl counts from here).
    var targetReceivedAt = MonotonicInstant(us: 0)
    /// This flight's data (home, altitude, battery, failsafe timers); nil while landed (`Flight`).
    var flight: Flight?
    /// Position at takeoff; the geofence is centred here. Nil while landed.
    public var home: GeoPoint? { flight?.home }

    // Observations, stamped with the receive time (the event's `now`, in microseconds).
    var lastDroneState: DroneState?
    /// Wind seen in navdata against what we commanded; fed forward by the wind compensation.
    var wind = WindEstimator()
    /// The vehicle link's kind, from its presence: mavlink-link turns a tilt into a ground-velocity setpoint that the
    /// autopilot holds against the wind itself, so there is no wind for this controller to estimate or to fly
    /// against (what `wind` would read there is the autopilot's lag: it wound up past 5 m/s on PX4 and landed a
    /// return 6 m off, `wind-too-strong`). drone-link (the AR.Drone) flies the tilt: air speed, carried by the wind.
    /// mavlink-link also holds an arrived target as a position (from this controller's published state): arrived,
    /// the controller hovers there instead of correcting with its position law (`Arrived.holdsPosition`).
    var vehicleHoldsGroundVelocity = false
    /// The last flight command sent (its tilt is what the wind estimate compares against).
    var lastFlight: FlightCommand?
    /// When `lastFlight` was built (monotonic; the tick's "due" check). Its wire stamp is the service's wall clock.
    var lastFlightSentAt: MonotonicInstant?
    var lastDroneStateAt: MonotonicInstant?
    var lastPosition: GeoPoint?
    var lastPositionAt: MonotonicInstant?
    /// The latest solution that matches `target`; nil after a target change until a matching one arrives.
    var lastNavigation: NavigationSolution?
    var lastNavigationAt: MonotonicInstant?
    /// Body heading implied by any solution (bearing − difference, so the navigator's mount offset is included).
    var navigationHeadingDeg: Double?
    var navigationHeadingAt: MonotonicInstant?

    // Timers and flags that span several modes (those of one mode are in `mode`).
    /// Takeoffs this run accepted (each gets its own `takeoffId`).
    var takeoffCount: UInt32 = 0
    /// Which boot of the board the monotonic times belong to (the service sets it; "" = no flight memory kept).
    public var bootId = ""
    /// The previous run's flight, waiting for the first navdata (`restore`, `resumeFlight`).
    var resumable: FlightMemory?
    var lastRemembered: FlightMemory?
    /// Where the drone stands while landed, averaged: home at takeoff (`PositionAverage`).
    var groundPosition = PositionAverage(window: .seconds(5))
    /// The last second of fixes in the air: the airspace watch's position, noise averaged (`watchAirspace`).
    var airspaceFixes = PositionAverage(window: .seconds(1))
    /// Log lines a transition wants said, flushed with the next published actions (`finish`).
    var pendingLogs: [ControllerAction] = []
    /// The pilot that went offline (restored if it comes back before anyone else claims).
    var lostPilotId: String?
    /// Receipt of the latest ground beacon (monotonic); nil until the first, which arms the ground-link rule.
    var lastGroundBeaconAt: MonotonicInstant?
    /// Each beacon sender's own clock, as its latest beacon showed it (see `senderAgeUs`).
    var senderClocks = SenderClocks()
    public internal(set) var isGroundLinkLost = false
    /// The altitude to hold (navdata altitude, metres above ground); nil = none (landed, or a plain hover).
    public var wantedAltitudeM: Double? { flight?.wantedAltitudeM }
    /// A refusal is published even when the visible fields did not change, so a sender waiting for the
    /// controller's answer always gets one (with a new sequence number).
    var mustPublish = false
    /// The uploaded airspace and what it last refused (`ControllerStateMachine+Airspace`).
    public internal(set) var airspace = AirspaceRecord()
    /// The mission plan held and its executor (`ControllerStateMachine+Mission`); nil before the first upload.
    public internal(set) var mission: MissionRunner?
    /// The last mission upload refused, for `mission/status`.
    var missionStatusRecord = MissionStatusRecord()

    // Output counters.
    var flightSequence: UInt32 = 0
    var stateSequence: UInt32 = 0
    var lastPublished: PublishedFields?
    /// The route last published on `airspace/route` (sequence 0) and its counter: none at start, which the service
    /// publishes itself (`routePlanChange`).
    var lastRoutePlan = AirspaceRoutePlan.none()
    var routePlanSequence: UInt32 = 0

    public init(configuration: ControllerConfiguration = ControllerConfiguration(), runId: UInt32 = RunAddress.none) {
        self.configuration = configuration
        self.runId = runId
    }

    var law: ControlLaw { configuration.controlLaw }

    /// The state as it would be published now (does not count as a publication). While returning home the
    /// distance is to home (the return's goal), not to a target: the ground tools label it so by the activity.
    /// Its `timestampUs` is 0: the wire stamp is wall time, written by the service when it publishes.
    public func currentState(now: MonotonicInstant) -> ControllerState {
        return ControllerState(
            sequence: stateSequence, timestampUs: 0, activity: activity, reason: reason, pilotId: pilotId ?? "",
            targetLatitudeDeg: target?.latitudeDeg, targetLongitudeDeg: target?.longitudeDeg,
            distanceToTargetM: activity == .returningHome ? distanceToHomeM(now: now)
                : lastNavigation.map { Float(route?.remainingM(aheadM: $0.distanceM) ?? $0.distanceM) },
            runId: runId, targetSequence: target?.sequence ?? 0)
    }

    /// From the latest fresh position fix to home; nil without either.
    func distanceToHomeM(now: MonotonicInstant) -> Float? {
        guard let home, let lastPosition, positionFresh(now: now) else { return nil }
        return Float(Geodesy.inverse(from: lastPosition, to: home).distanceM)
    }

    /// The fields whose change triggers a publication (distance alone does not: it changes every update; nor does
    /// the target's sequence: the same point re-sent every second by `follow` is no news).
    struct PublishedFields: Equatable {
        var activity: Activity
        var reason: Reason
        var pilotId: String?
        var targetLatitudeDeg: Double?
        var targetLongitudeDeg: Double?
    }

    var publishedFields: PublishedFields {
        PublishedFields(activity: activity, reason: reason, pilotId: pilotId,
                        targetLatitudeDeg: target?.latitudeDeg, targetLongitudeDeg: target?.longitudeDeg)
    }

    /// Appends `publishState` if something visible changed, then (optionally) a fresh flight command.
    mutating func finish(_ actions: [ControllerAction], now: MonotonicInstant,
                         sendFlight: Bool = false) -> [ControllerAction] {
        var out = actions + pendingLogs
        pendingLogs = []
        out += rememberActions()
        let fields = publishedFields
        if fields != lastPublished || mustPublish {
            lastPublished = fields
            mustPublish = false
            stateSequence &+= 1
            out.append(.publishState(currentState(now: now)))
        }
        out += routePlanChange()
        // Until navdata says whether the drone is flying, send nothing (unless an emergency): drone-link keeps
        // the drone as it is (its own hover fallback keeps the fly bit the drone reports), so a controller
        // restarted mid-flight neither lands the drone nor flies on stale data.
        if sendFlight, lastDroneState != nil || activity == .emergency {
            out.append(.sendFlight(nextFlightCommand(now: now)))
        }
        return out
    }

    /// Performs a transition, the one place where the mode changes: the new mode comes with its own data
    /// (`entering`), the old one's is dropped; entering `.landed` drops the flight, any other activity but
    /// emergency starts one if none exists, and the flight drops the timers whose span of modes the new activity
    /// leaves (`Flight.entering`), then takes the flight's data the transition carries (a return's altitude). A
    /// transition that keeps the mode (`Transition.keeping`) only sets the reason: the one place a reason changes.
    /// Returns the transition's log line, if any.
    @discardableResult
    mutating func apply(_ transition: Transition, now: MonotonicInstant) -> [ControllerAction] {
        let next = transition.activity, reason = transition.reason
        guard !transition.keepsMode else {
            self.reason = reason
            return transition.log.map { [$0] } ?? []
        }
        let previous = activity
        mode = entering(transition, now: now)
        self.reason = reason
        if (next == .landing || next == .landed), previous.isAirborne || previous == .takingOff, let target {
            // The flight is over (a land command, a failsafe, or the vehicle landed by itself): its target is not
            // flown again by the next takeoff. A target sent while landing or landed is kept for that takeoff.
            clearTarget()
            pendingLogs.append(.log(.info, "flight ended (\(reason)): target \(target.latitudeDeg),"
                + "\(target.longitudeDeg) dropped; the next takeoff hovers until a new target comes"))
        }
        switch next {
        case .landed: flight = nil
        // Motors cut from the ground is no flight; from the air, the flight stays until navdata shows it landed.
        case .emergency: flight?.entering(next)
        default:
            if flight == nil { flight = Flight() }
            flight?.entering(next)
        }
        if let altitudeM = transition.wantedAltitudeM { flight?.wantedAltitudeM = altitudeM }
        return transition.log.map { [$0] } ?? []
    }

    /// Performs a transition if there is one; its log line, if any.
    mutating func apply(_ transition: Transition?, now: MonotonicInstant) -> [ControllerAction] {
        guard let transition else { return [] }
        return apply(transition, now: now)
    }

    /// Records a refusal: visible in the state's reason and returned for the executable to log and count.
    mutating func refuse(kind: String, reason: Reason, now: MonotonicInstant) -> ControllerAction {
        apply(.keeping(activity, reason: reason), now: now)
        mustPublish = true
        return .rejected(kind: kind, reason: reason)
    }

    /// The refusal of a message addressed to another run than this one, or nil (addressed here, or unaddressed:
    /// those keep the rules of before addressing). Logged with both ids: the sender saw an older state.
    mutating func previousRunRefusal(kind: String, reason: Reason, what: String, from senderId: String,
                                     addressedTo addressed: UInt32, now: MonotonicInstant) -> [ControllerAction]? {
        guard !RunAddress.accepts(addressed: addressed, current: runId) else { return nil }
        return [
            refuse(kind: kind, reason: reason, now: now),
            .log(.warning, "\(what) from '\(senderId)' was sent to controller run \(addressed), this is run \(runId): "
                + "not acted on (queued across a restart?)"),
        ]
    }

    mutating func clearTarget() {
        target = nil
        route = nil
        awaitingPaths = false
        lastNavigation = nil
        resetTargetArrival()
    }

    mutating func enterEmergency(reason: Reason, now: MonotonicInstant) {
        clearTarget()
        apply(Transition(to: .emergency, reason: reason), now: now)
    }
}

extension ControllerStateMachine {
    /// A takeoff id unique to this run and takeoff (non-zero): the run id's bits mixed with the count, so a
    /// restarted controller's first takeoff does not repeat the id a link already used (chance 2^-32).
    static func takeoffId(runId: UInt32, count: UInt32) -> UInt32 {
        var mixer = SplitMix64(seed: UInt64(runId) << 32 | UInt64(count))
        let id = UInt32(truncatingIfNeeded: mixer.next())
        return id == 0 ? 1 : id
    }
}

extension ControllerState.Activity {
    /// In the air and under the controller's steering (taking off is separate: navdata has not confirmed it yet).
    var isAirborne: Bool { [.hovering, .flyingToTarget, .arrived, .returningHome].contains(self) }
}
