import Clocks
import QuadProtocol

/// The periodic tick: time-based failsafes, then a fresh flight command so the link never runs dry.
extension ControllerStateMachine {
    public mutating func tick(now: MonotonicInstant) -> [ControllerAction] {
        let nowUs = now.us
        // The rules in a fixed order, each seeing the mode the previous ones left; a mode's own rules are in its
        // file (`Modes/`), the cross-cutting ones (links, pilot loss, targets) here.
        var actions: [ControllerAction] = []
        if case .takingOff(let takingOff) = mode {
            actions += apply(takingOffTick(takingOff, nowUs: nowUs), nowUs: nowUs)
        }
        if activity.isAirborne, flight?.droneLinkLostReported == false, !droneStateFresh(nowUs: nowUs) {
            // The link hovers on its own too; say so and keep the target for when navdata returns.
            flight?.droneLinkLostReported = true
            apply(Transition(to: .hovering, reason: .droneLinkLost), nowUs: nowUs)
        }
        if case .flyingToTarget(let flying) = mode {
            actions += apply(flyingToTargetTick(flying, nowUs: nowUs), nowUs: nowUs)
        }
        let groundLink = checkGroundLink(nowUs: nowUs)
        actions += groundLink.actions
        actions += apply(groundLink.transition, nowUs: nowUs)
        if let loss = flight?.pilotLoss, let returnAtUs = loss.returnAtUs, nowUs >= returnAtUs {
            flight?.pilotLoss.returnAtUs = nil
            if activity != .returningHome, returnRefusal() == nil {
                // The return ends with a landing at home, so the lost-pilot landing timer is not needed.
                flight?.pilotLoss.landAtUs = nil
                let reason: Reason = loss.reason == .groundLinkLost ? .groundLinkLostReturn : .pilotLostReturn
                actions += apply(returnTransition(goal: .home, reason: reason, nowUs: nowUs), nowUs: nowUs)
                actions.append(.log(.warning, loss.reason == .pilotLost ? "pilot still offline: returning home"
                    : "ground still unreachable: returning home"))
            }
        }
        if case .hovering(let hovering) = mode { actions += apply(hoveringTick(hovering, nowUs: nowUs), nowUs: nowUs) }
        if let loss = flight?.pilotLoss, let landAtUs = loss.landAtUs, nowUs >= landAtUs {
            flight?.pilotLoss.landAtUs = nil
            apply(Transition(to: .landing, reason: loss.reason), nowUs: nowUs)
        }
        if let landAtUs = flight?.abandonedReturnLandAtUs, nowUs >= landAtUs, activity.isAirborne {
            flight?.abandonedReturnLandAtUs = nil
            apply(Transition(to: .landing, reason: .returnHomeNotProgressing), nowUs: nowUs)
            actions.append(.log(.warning, "return home was abandoned: landing where the drone is"))
        }
        if targetExpired(nowUs: nowUs) {
            // The sender stopped refreshing it (follow ended, ground out of range): never fly on an expired order.
            clearTarget()
            if activity == .flyingToTarget || activity == .arrived {
                apply(Transition(to: .hovering, reason: .targetExpired), nowUs: nowUs)
            } else {
                reason = .targetExpired
            }
            actions.append(.log(.info, "target expired (ttl counted from receipt): dropped"))
        }
        // A command that went out within the last 0.9 periods (on a navigation update) makes the tick's redundant:
        // drone-link repeats the latest one on its own 30 ms cadence. The tick still sends when anything changed
        // on it, and whenever navigation is late, so a command is never more than ~1.9 periods old.
        let changed = !actions.isEmpty || publishedFields != lastPublished || mustPublish
        let due = lastFlight == nil || nowUs &- lastFlightSentAtUs >= tickPeriodUs * 9 / 10
        return finish(actions, nowUs: nowUs, sendFlight: changed || due)
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
