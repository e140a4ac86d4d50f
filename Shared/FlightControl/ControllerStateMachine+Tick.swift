import QuadProtocol

/// The periodic tick: time-based failsafes, then a fresh flight command so the link never runs dry.
extension ControllerStateMachine {
    public mutating func tick(nowUs: Int64) -> [ControllerAction] {
        var actions: [ControllerAction] = []
        if case .takingOff(let takingOff) = mode,
           nowUs &- takingOff.startedAtUs > microseconds(fromSeconds: configuration.takeoffTimeoutS) {
            transition(to: .landing, reason: .takeoffTimeout, nowUs: nowUs)
            actions.append(.log(.warning,
                                "takeoff not seen in navdata within \(configuration.takeoffTimeoutS) s: landing"))
        }
        if activity == .takingOff,
           lastDroneState == nil || nowUs &- lastDroneStateAtUs > configuration.takeoffNavdataLossMs &* 1000 {
            // Without navdata this takeoff cannot be watched; a link that comes back must not find it still asked
            // for (its takeoff id would arm a vehicle nobody is watching). Land: it may already be off the ground.
            transition(to: .landing, reason: .takeoffAbortedDroneLinkLost, nowUs: nowUs)
            actions.append(.log(.warning, "no navdata while taking off: takeoff aborted, landing"))
        }
        if activity.isAirborne, flight?.droneLinkLostReported == false, !droneStateFresh(nowUs: nowUs) {
            // The link hovers on its own too; say so and keep the target for when navdata returns.
            flight?.droneLinkLostReported = true
            transition(to: .hovering, reason: .droneLinkLost, nowUs: nowUs)
        }
        if case .flyingToTarget(let flying) = mode, nowUs &- flying.sinceUs > staleAfterUs {
            // The failsafe table's row: hover (default: wait for fresh input, keep the target) or land.
            let action: Activity = configuration.failsafes.staleNavigation == .land ? .landing : .hovering
            if !positionFresh(nowUs: nowUs) {
                transition(to: action, reason: .stalePosition, nowUs: nowUs)
            } else if !navigationFresh(nowUs: nowUs) {
                transition(to: action, reason: .staleNavigation, nowUs: nowUs)
            }
        }
        actions += checkGroundLink(nowUs: nowUs)
        if let loss = flight?.pilotLoss, let returnAtUs = loss.returnAtUs, nowUs >= returnAtUs {
            flight?.pilotLoss.returnAtUs = nil
            if activity != .returningHome, returnRefusal() == nil {
                // The return ends with a landing at home, so the lost-pilot landing timer is not needed.
                flight?.pilotLoss.landAtUs = nil
                let reason: Reason = loss.reason == .groundLinkLost ? .groundLinkLostReturn : .pilotLostReturn
                startReturn(goal: .home, reason: reason, nowUs: nowUs)
                actions.append(.log(.warning, loss.reason == .pilotLost ? "pilot still offline: returning home"
                    : "ground still unreachable: returning home"))
            }
        }
        if case .hovering(let hovering) = mode, let landAtUs = hovering.homeReachedLandAtUs, nowUs >= landAtUs {
            transition(to: .landing, reason: .returnedHome, nowUs: nowUs)
        }
        if let loss = flight?.pilotLoss, let landAtUs = loss.landAtUs, nowUs >= landAtUs {
            flight?.pilotLoss.landAtUs = nil
            transition(to: .landing, reason: loss.reason, nowUs: nowUs)
        }
        if let landAtUs = flight?.abandonedReturnLandAtUs, nowUs >= landAtUs, activity.isAirborne {
            flight?.abandonedReturnLandAtUs = nil
            transition(to: .landing, reason: .returnHomeNotProgressing, nowUs: nowUs)
            actions.append(.log(.warning, "return home was abandoned: landing where the drone is"))
        }
        if targetExpired(nowUs: nowUs) {
            // The sender stopped refreshing it (follow ended, ground out of range): never fly on an expired order.
            clearTarget()
            if activity == .flyingToTarget || activity == .arrived {
                transition(to: .hovering, reason: .targetExpired, nowUs: nowUs)
            } else {
                reason = .targetExpired
            }
            actions.append(.log(.info, "target expired (ttl counted from receipt): dropped"))
        }
        // A command that went out within the last 0.9 periods (on a navigation update) makes the tick's redundant:
        // drone-link repeats the latest one on its own 30 ms cadence. The tick still sends when anything changed
        // on it, and whenever navigation is late, so a command is never more than ~1.9 periods old.
        let changed = !actions.isEmpty || publishedFields != lastPublished || mustPublish
        let due = lastFlight.map { nowUs &- $0.timestampUs >= tickPeriodUs * 9 / 10 } ?? true
        return finish(actions, nowUs: nowUs, sendFlight: changed || due)
    }

    /// The control loop's period (`tickHz`).
    var tickPeriodUs: Int64 {
        Int64((1_000_000 / max(configuration.tickHz, 0.001)).rounded())
    }

    /// The command for the current activity. Sequence numbers start at 1.
    mutating func nextFlightCommand(nowUs: Int64) -> FlightCommand {
        flightSequence &+= 1
        var command = FlightCommand(sequence: flightSequence, timestampUs: nowUs, refMode: .fly)
        switch mode {
        case .landed(var landed):
            command.refMode = .land
            command.flatTrim = landed.flatTrimPending
            landed.flatTrimPending = false
            mode = .landed(landed)
        case .landing:
            command.refMode = .land
        case .emergency(let emergency):
            command.refMode = emergency.recovering ? .emergencyRecover : .emergencyCutoff
        case .takingOff(let takingOff):
            command.takeoffId = takingOff.takeoffId
        case .arrived(let arrived):
            // The drone's own hover drifts a little with the wind: past half the arrival radius (filtered), the
            // position law brings it back; closer, its own hover is steadier than any GPS.
            if let distanceM = arrived.arrival.filteredDistanceM, distanceM > law.arrivalRadiusM / 2,
               navigationFresh(nowUs: nowUs), positionFresh(nowUs: nowUs) {
                _ = holdPosition(arrived.arrival, into: &command, nowUs: nowUs)
            }
            holdAltitude(&command, nowUs: nowUs)
        case .hovering:
            holdAltitude(&command, nowUs: nowUs)
        case .flyingToTarget(let flying):
            if navigationFresh(nowUs: nowUs), positionFresh(nowUs: nowUs),
               holdPosition(flying.arrival, into: &command, nowUs: nowUs) {
            } else {
                apply(targetSteering(nowUs: nowUs), to: &command, nowUs: nowUs)
            }
            holdAltitude(&command, nowUs: nowUs)
        case .returningHome(let returning):
            if returning.goal == .home, positionFresh(nowUs: nowUs),
               let distanceM = returning.homeArrival.filteredDistanceM, distanceM < law.arrivalRadiusM / 2 {
                // Over home, coming down to the approach altitude: the drone's own hover, as `.arrived`. An
                // autopilot then holds its position itself; under the position law's small tilts the real PX4
                // drifted 0.2 → 0.6 m in the descent and landed 0.8–1.4 m off.
            } else if nowUs &- returning.startedAtUs >= microseconds(fromSeconds: configuration.geofenceBrakeS),
               returning.goal == .home, positionFresh(nowUs: nowUs),
               holdPosition(returning.homeArrival, into: &command, nowUs: nowUs) {
            } else {
                apply(returnHomeSteering(returning, nowUs: nowUs), to: &command, nowUs: nowUs)
            }
            holdAltitude(&command, nowUs: nowUs)
        }
        lastFlight = command
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
