import Clocks
import QuadProtocol

/// A rule the tick runs: its name says what it watches, `run` applies what it decides (`apply`) and returns the
/// actions. A mode's own tick is a rule like the cross-cutting ones, so their order is visible in one place.
struct TickRule: Sendable {
    let name: String
    typealias Run = @Sendable (inout ControllerStateMachine, MonotonicInstant) -> [ControllerAction]
    let run: Run

    init(_ name: String, _ run: @escaping Run) {
        self.name = name
        self.run = run
    }
}

/// The periodic tick: the time-based rules in a fixed order, then a fresh flight command so the link never runs dry.
extension ControllerStateMachine {
    /// The rules in their order, each seeing the mode the previous ones left. A mode's rules are in its file
    /// (`Modes/`), the cross-cutting ones (links, pilot loss, targets) here.
    static let tickRules: [TickRule] = [
        TickRule("taking off: seen in the air in time, navdata still coming") { machine, now in
            guard case .takingOff(let takingOff) = machine.mode else { return [] }
            return machine.apply(takingOff.tick(machine.takingOffContext(now: now)), now: now)
        },
        TickRule("drone link: navdata silent in the air → hover (once per silence)") { machine, now in
            machine.droneLinkRule(now: now)
        },
        TickRule("flying to the target: position and navigation fresh") { machine, now in
            guard case .flyingToTarget(let flying) = machine.mode else { return [] }
            return machine.apply(flying.tick(machine.flyingToTargetContext(now: now)), now: now)
        },
        TickRule("ground link: beacon silent → the lost-pilot rule") { machine, now in
            let groundLink = machine.checkGroundLink(now: now)
            return groundLink.actions + machine.apply(groundLink.transition, now: now)
        },
        TickRule("returning home: brake, then climb to the return altitude") { machine, now in
            guard case .returningHome(let returning) = machine.mode else { return [] }
            return machine.returningHomeTick(returning, now: now)
        },
        TickRule("lost pilot: return home when due") { machine, now in machine.pilotLossReturnRule(now: now) },
        TickRule("hovering: the timed landing (over home, or after a return given up) when due") { machine, now in
            guard case .hovering(let hovering) = machine.mode else { return [] }
            return machine.apply(hovering.tick(machine.hoveringContext(now: now)), now: now)
        },
        TickRule("lost pilot: land when due") { machine, now in machine.pilotLossLandRule(now: now) },
        TickRule("target: past its ttl → dropped") { machine, now in machine.targetExpiryRule(now: now) },
        TickRule("mission: a restored record, arrivals, a stay's end") { machine, now in
            machine.missionTickRule(now: now)
        },
    ]

    public mutating func tick(now: MonotonicInstant) -> [ControllerAction] {
        var actions: [ControllerAction] = []
        for rule in Self.tickRules { actions += rule.run(&self, now) }
        // A command that went out within the last 0.9 periods (on a navigation update) makes the tick's redundant:
        // drone-link repeats the latest one on its own 30 ms cadence. The tick still sends when anything changed
        // on it, and whenever navigation is late, so a command is never more than ~1.9 periods old.
        let changed = !actions.isEmpty || publishedFields != lastPublished || mustPublish
        let due = lastFlightSentAt.map { now - $0 >= tickPeriod * 9 / 10 } ?? true
        return finish(actions, now: now, sendFlight: changed || due)
    }

    /// Navdata silent in the air: the link hovers on its own too; say so and keep the target for when navdata
    /// returns.
    mutating func droneLinkRule(now: MonotonicInstant) -> [ControllerAction] {
        guard activity.isAirborne, flight?.droneLinkLostReported == false, !droneStateFresh(now: now) else {
            return []
        }
        flight?.droneLinkLostReported = true
        return apply(Transition(to: .hovering, reason: .droneLinkLost), now: now)
    }

    /// The lost-pilot rule's return, when due (unless already returning, or a return cannot start).
    mutating func pilotLossReturnRule(now: MonotonicInstant) -> [ControllerAction] {
        guard let loss = flight?.pilotLoss, let returnAt = loss.returnAt, now >= returnAt else { return [] }
        flight?.pilotLoss.returnAt = nil
        guard activity != .returningHome, returnRefusal() == nil else { return [] }
        // The return ends with a landing at home, so the lost-pilot landing timer is not needed.
        flight?.pilotLoss.landAt = nil
        let reason: Reason = loss.cause == .groundLinkLost ? .groundLinkLostReturn : .pilotLostReturn
        return apply(returnTransition(goal: .home, reason: reason, now: now), now: now)
            + [.log(.warning, loss.cause == .pilotLost ? "pilot still offline: returning home"
                : "ground still unreachable: returning home")]
    }

    /// The lost-pilot rule's landing, when due.
    mutating func pilotLossLandRule(now: MonotonicInstant) -> [ControllerAction] {
        guard let loss = flight?.pilotLoss, let landAt = loss.landAt, now >= landAt else { return [] }
        flight?.pilotLoss.landAt = nil
        return apply(Transition(to: .landing, reason: loss.cause), now: now)
    }

    /// The sender stopped refreshing the target (follow ended, ground out of range): never fly on an expired order.
    mutating func targetExpiryRule(now: MonotonicInstant) -> [ControllerAction] {
        guard targetExpired(now: now) else { return [] }
        clearTarget()
        let transition = activity == .flyingToTarget || activity == .arrived
            ? Transition(to: .hovering, reason: .targetExpired) : .keeping(activity, reason: .targetExpired)
        return apply(transition, now: now) + [.log(.info, "target expired (ttl counted from receipt): dropped")]
    }

    /// The control loop's period (`tickHz`).
    var tickPeriod: Duration {
        .seconds(clamping: 1 / max(configuration.tickHz, 0.001))
    }

    /// The command for the current activity. Sequence numbers start at 1. Its `timestampUs` is 0: the wire stamp
    /// is wall time, written by the service when it sends; the send time on this clock is `lastFlightSentAt`.
    mutating func nextFlightCommand(now: MonotonicInstant) -> FlightCommand {
        flightSequence &+= 1
        var command = FlightCommand(sequence: flightSequence, timestampUs: 0, refMode: .fly)
        modeCommand(into: &command, now: now)
        lastFlight = command
        lastFlightSentAt = now
        return command
    }

    /// Inside the slowdown radius (by the filtered position): fly by the position error, hold the heading
    /// (`PositionHold`). False outside it, or without a filtered position or a heading: the article's law decides.
    /// `leg`: the target flown now (a mission leg's speed is the most it asks for); else the return's.
    mutating func holdPosition(_ filter: ArrivalFilter, leg: Bool, into command: inout FlightCommand,
                               now: MonotonicInstant) -> Bool {
        guard let error = filter.meanErrorM, let distanceM = filter.filteredDistanceM,
              distanceM < law.slowdownRadiusM, let headingDeg = bodyHeadingDeg(now: now) else { return false }
        let state = droneStateFresh(now: now) ? lastDroneState : nil
        let body = wind.bodyWind(headingDeg: headingDeg)
        let maxSpeedMps = leg ? missionLegSpeedMps ?? targetCruiseSpeedMps : configuration.cruiseSpeedMps
        let gainPerS = leg ? targetPositionGainPerS : configuration.positionGainPerS
        let hold = PositionHold(gainPerS: gainPerS, maxSpeedMps: maxSpeedMps,
                                compensation: leg ? targetCompensation : configuration.windCompensation)
        // Behind an autopilot cruise the law steers on where the drone is now, not where the mean of the last
        // `arrivalWindow` of fixes saw it (~0.5 s ago): that lag, on top of the autopilot's own velocity lag, carried
        // a 5 m/s approach 1.2–1.4 m past its target on PX4 SIH (its own goto: 0.9 m).
        let errorAgeS = leg && autopilotCruiseMps != nil ? filter.meanAge(now: now)?.inSeconds ?? 0 : 0
        let tilt = hold.steer(northM: error.northM, eastM: error.eastM, headingDeg: headingDeg,
                              forwardMps: state.map { Double($0.velocityXMps) } ?? .nan,
                              rightMps: state.map { Double($0.velocityYMps) } ?? .nan,
                              windForwardMps: body.forwardMps, windRightMps: body.rightMps, errorAgeS: errorAgeS)
        command.progressive = true
        command.pitchFrac = tilt.pitchFrac
        command.rollFrac = tilt.rollFrac
        command.yawFrac = 0
        return true
    }

    /// The control law on the latest matching solution, or hover when inputs are missing or stale.
    func targetSteering(now: MonotonicInstant) -> ControlLaw.Steering {
        guard let solution = lastNavigation, navigationFresh(now: now), positionFresh(now: now) else {
            return .hover
        }
        return targetArrivalLaw.steering(distanceM: solution.distanceM,
                                         directionDifferenceDeg: solution.directionDifferenceDeg)
    }

    /// `compensation`: the target's (`targetCompensation`) or the return's (the configuration's).
    func apply(_ steering: ControlLaw.Steering, compensation: WindCompensation, to command: inout FlightCommand,
               now: MonotonicInstant) {
        guard case .steer(let yawFrac, let pitchFrac) = steering else { return }
        command.progressive = true
        command.yawFrac = yawFrac
        command.pitchFrac = pitchFrac
        // Measured ground velocity (body frame) corrects the tilt for wind; without fresh navdata, the plain law.
        if droneStateFresh(now: now), let state = lastDroneState {
            let body = headingFor(state).map { wind.bodyWind(headingDeg: $0) } ?? (forwardMps: 0, rightMps: 0)
            let corrected = compensation.correct(
                pitchFrac: pitchFrac, forwardMps: Double(state.velocityXMps), rightMps: Double(state.velocityYMps),
                windForwardMps: body.forwardMps, windRightMps: body.rightMps)
            command.pitchFrac = corrected.pitchFrac
            command.rollFrac = corrected.rollFrac
        }
    }
}
