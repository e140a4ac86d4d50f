import Clocks
import QuadProtocol

/// A rule the tick runs: its name says what it watches, `run` applies what it decides (`apply`) and returns the
/// actions. A mode's own tick is a rule like the cross-cutting ones, so their order is visible in one place.
struct TickRule: Sendable {
    let name: String
    let run: @Sendable (inout ControllerStateMachine, Int64) -> [ControllerAction]

    init(_ name: String, _ run: @escaping @Sendable (inout ControllerStateMachine, Int64) -> [ControllerAction]) {
        self.name = name
        self.run = run
    }
}

/// The periodic tick: the time-based rules in a fixed order, then a fresh flight command so the link never runs dry.
extension ControllerStateMachine {
    /// The rules in their order, each seeing the mode the previous ones left. A mode's rules are in its file
    /// (`Modes/`), the cross-cutting ones (links, pilot loss, targets) here.
    static let tickRules: [TickRule] = [
        TickRule("taking off: seen in the air in time, navdata still coming") { machine, nowUs in
            guard case .takingOff(let takingOff) = machine.mode else { return [] }
            return machine.apply(machine.takingOffTick(takingOff, nowUs: nowUs), nowUs: nowUs)
        },
        TickRule("drone link: navdata silent in the air → hover (once per silence)") { machine, nowUs in
            machine.droneLinkRule(nowUs: nowUs)
        },
        TickRule("flying to the target: position and navigation fresh") { machine, nowUs in
            guard case .flyingToTarget(let flying) = machine.mode else { return [] }
            return machine.apply(machine.flyingToTargetTick(flying, nowUs: nowUs), nowUs: nowUs)
        },
        TickRule("ground link: beacon silent → the lost-pilot rule") { machine, nowUs in
            let groundLink = machine.checkGroundLink(nowUs: nowUs)
            return groundLink.actions + machine.apply(groundLink.transition, nowUs: nowUs)
        },
        TickRule("returning home: brake, then climb to the return altitude") { machine, nowUs in
            guard case .returningHome(let returning) = machine.mode else { return [] }
            return machine.returningHomeTick(returning, nowUs: nowUs)
        },
        TickRule("lost pilot: return home when due") { machine, nowUs in machine.pilotLossReturnRule(nowUs: nowUs) },
        TickRule("hovering: land over home when due") { machine, nowUs in
            guard case .hovering(let hovering) = machine.mode else { return [] }
            return machine.apply(machine.hoveringTick(hovering, nowUs: nowUs), nowUs: nowUs)
        },
        TickRule("lost pilot: land when due") { machine, nowUs in machine.pilotLossLandRule(nowUs: nowUs) },
        TickRule("abandoned return: land when due") { machine, nowUs in machine.abandonedReturnRule(nowUs: nowUs) },
        TickRule("target: past its ttl → dropped") { machine, nowUs in machine.targetExpiryRule(nowUs: nowUs) },
    ]

    public mutating func tick(now: MonotonicInstant) -> [ControllerAction] {
        let nowUs = now.us
        var actions: [ControllerAction] = []
        for rule in Self.tickRules { actions += rule.run(&self, nowUs) }
        // A command that went out within the last 0.9 periods (on a navigation update) makes the tick's redundant:
        // drone-link repeats the latest one on its own 30 ms cadence. The tick still sends when anything changed
        // on it, and whenever navigation is late, so a command is never more than ~1.9 periods old.
        let changed = !actions.isEmpty || publishedFields != lastPublished || mustPublish
        let due = lastFlight == nil || nowUs &- lastFlightSentAtUs >= tickPeriodUs * 9 / 10
        return finish(actions, nowUs: nowUs, sendFlight: changed || due)
    }

    /// Navdata silent in the air: the link hovers on its own too; say so and keep the target for when navdata
    /// returns.
    mutating func droneLinkRule(nowUs: Int64) -> [ControllerAction] {
        guard activity.isAirborne, flight?.droneLinkLostReported == false, !droneStateFresh(nowUs: nowUs) else {
            return []
        }
        flight?.droneLinkLostReported = true
        return apply(Transition(to: .hovering, reason: .droneLinkLost), nowUs: nowUs)
    }

    /// The lost-pilot rule's return, when due (unless already returning, or a return cannot start).
    mutating func pilotLossReturnRule(nowUs: Int64) -> [ControllerAction] {
        guard let loss = flight?.pilotLoss, let returnAtUs = loss.returnAtUs, nowUs >= returnAtUs else { return [] }
        flight?.pilotLoss.returnAtUs = nil
        guard activity != .returningHome, returnRefusal() == nil else { return [] }
        // The return ends with a landing at home, so the lost-pilot landing timer is not needed.
        flight?.pilotLoss.landAtUs = nil
        let reason: Reason = loss.cause == .groundLinkLost ? .groundLinkLostReturn : .pilotLostReturn
        return apply(returnTransition(goal: .home, reason: reason, nowUs: nowUs), nowUs: nowUs)
            + [.log(.warning, loss.cause == .pilotLost ? "pilot still offline: returning home"
                : "ground still unreachable: returning home")]
    }

    /// The lost-pilot rule's landing, when due.
    mutating func pilotLossLandRule(nowUs: Int64) -> [ControllerAction] {
        guard let loss = flight?.pilotLoss, let landAtUs = loss.landAtUs, nowUs >= landAtUs else { return [] }
        flight?.pilotLoss.landAtUs = nil
        return apply(Transition(to: .landing, reason: loss.cause), nowUs: nowUs)
    }

    /// After a return that lost ground: land where the drone is, when due.
    mutating func abandonedReturnRule(nowUs: Int64) -> [ControllerAction] {
        guard let landAtUs = flight?.abandonedReturnLandAtUs, nowUs >= landAtUs, activity.isAirborne else { return [] }
        flight?.abandonedReturnLandAtUs = nil
        return apply(Transition(to: .landing, reason: .returnHomeNotProgressing), nowUs: nowUs)
            + [.log(.warning, "return home was abandoned: landing where the drone is")]
    }

    /// The sender stopped refreshing the target (follow ended, ground out of range): never fly on an expired order.
    mutating func targetExpiryRule(nowUs: Int64) -> [ControllerAction] {
        guard targetExpired(nowUs: nowUs) else { return [] }
        clearTarget()
        let transition = activity == .flyingToTarget || activity == .arrived
            ? Transition(to: .hovering, reason: .targetExpired) : .keeping(activity, reason: .targetExpired)
        return apply(transition, nowUs: nowUs) + [.log(.info, "target expired (ttl counted from receipt): dropped")]
    }

    /// The control loop's period (`tickHz`).
    var tickPeriodUs: Int64 {
        Int64((1_000_000 / max(configuration.tickHz, 0.001)).rounded())
    }

    /// The command for the current activity. Sequence numbers start at 1. Its `timestampUs` is 0: the wire stamp
    /// is wall time, written by the service when it sends; the send time on this clock is `lastFlightSentAtUs`.
    mutating func nextFlightCommand(nowUs: Int64) -> FlightCommand {
        flightSequence &+= 1
        var command = FlightCommand(sequence: flightSequence, timestampUs: 0, refMode: .fly)
        modeCommand(into: &command, nowUs: nowUs)
        lastFlight = command
        lastFlightSentAtUs = nowUs
        return command
    }

    /// Inside the slowdown radius (by the filtered position): fly by the position error, hold the heading
    /// (`PositionHold`). False outside it, or without a filtered position or a heading: the article's law decides.
    mutating func holdPosition(_ filter: ArrivalFilter, into command: inout FlightCommand, nowUs: Int64) -> Bool {
        guard let error = filter.meanErrorM, let distanceM = filter.filteredDistanceM,
              distanceM < law.slowdownRadiusM, let headingDeg = bodyHeadingDeg(nowUs: nowUs) else { return false }
        let state = droneStateFresh(nowUs: nowUs) ? lastDroneState : nil
        let body = wind.bodyWind(headingDeg: headingDeg)
        let hold = PositionHold(gainPerS: configuration.positionGainPerS, maxSpeedMps: configuration.cruiseSpeedMps,
                                compensation: configuration.windCompensation)
        let tilt = hold.steer(northM: error.northM, eastM: error.eastM, headingDeg: headingDeg,
                              forwardMps: state.map { Double($0.velocityXMps) } ?? .nan,
                              rightMps: state.map { Double($0.velocityYMps) } ?? .nan,
                              windForwardMps: body.forwardMps, windRightMps: body.rightMps)
        command.progressive = true
        command.pitchFrac = tilt.pitchFrac
        command.rollFrac = tilt.rollFrac
        command.yawFrac = 0
        return true
    }

    /// The control law on the latest matching solution, or hover when inputs are missing or stale.
    func targetSteering(nowUs: Int64) -> ControlLaw.Steering {
        guard let solution = lastNavigation, navigationFresh(nowUs: nowUs), positionFresh(nowUs: nowUs) else {
            return .hover
        }
        return law.steering(distanceM: solution.distanceM, directionDifferenceDeg: solution.directionDifferenceDeg)
    }

    func apply(_ steering: ControlLaw.Steering, to command: inout FlightCommand, nowUs: Int64) {
        guard case .steer(let yawFrac, let pitchFrac) = steering else { return }
        command.progressive = true
        command.yawFrac = yawFrac
        command.pitchFrac = pitchFrac
        // Measured ground velocity (body frame) corrects the tilt for wind; without fresh navdata, the plain law.
        if droneStateFresh(nowUs: nowUs), let state = lastDroneState {
            let body = headingFor(state).map { wind.bodyWind(headingDeg: $0) } ?? (forwardMps: 0, rightMps: 0)
            let corrected = configuration.windCompensation.correct(
                pitchFrac: pitchFrac, forwardMps: Double(state.velocityXMps), rightMps: Double(state.velocityYMps),
                windForwardMps: body.forwardMps, windRightMps: body.rightMps)
            command.pitchFrac = corrected.pitchFrac
            command.rollFrac = corrected.rollFrac
        }
    }
}
