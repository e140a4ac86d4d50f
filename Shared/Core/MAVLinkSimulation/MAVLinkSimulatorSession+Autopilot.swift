import Clocks
import DroneSimulation
import MAVLink

/// What the autopilot does by itself between messages: finish a takeoff, disarm after landing, fly the mode, and
/// the offboard-loss failsafe.
extension MAVLinkSimulatorSession {
    mutating func followFlightState(from old: FlightState, nowUs: Int64) -> [SimulatorAction] {
        let new = drone.flightState
        if old == .takingOff, new == .hovering, mode == .mission {
            return [.log("takeoff complete: flying the mission")]
        }
        if old == .takingOff, new == .hovering, mode == .takeoff {
            mode = .hold
            goal = GoalSteering(northM: drone.northM, eastM: drone.eastM, altitudeM: drone.altitudeM)
            return [.log("takeoff complete: holding")]
        }
        guard isArmed, new == .landed else { return [] }
        if old != .landed {
            landedSinceUs = nowUs
            return say(StatusText.info, "Landing detected")
        }
        // In OFFBOARD PX4's land detector flickers between landed and in the air, so COM_DISARM_LAND's 2 s never
        // pass (none in 15 s on PX4 SIH, 2026-12-04): a companion that lands there disarms itself.
        if mode != .offboard, let since = landedSinceUs, nowUs - since >= parameters.disarmAfterLanding.us {
            disarmMotors()
            return say(StatusText.info, "Disarmed by landing")
        }
        if let since = armedOnGroundSinceUs, nowUs - since >= preflightDisarm.us {
            disarmMotors()
            return [.log("disarmed: no takeoff within \(preflightDisarm.us / 1_000_000) s of arming")]
        }
        return []
    }

    /// Offboard: the setpoint (velocity or position), or the failsafe when setpoints stopped. Hold and return: fly
    /// to the goal (return lands there). Any other mode: hover.
    mutating func control(nowUs: Int64) -> [SimulatorAction] {
        guard isArmed, isAirborne, drone.flightState != .landing else { return [] }
        switch mode {
        case .offboard:
            guard let setpoint, nowUs - setpoint.receivedUs < parameters.offboardLoss.us else {
                return offboardLost(nowUs: nowUs)
            }
            if let position = setpoint.goal, setpoint.downMps > 0 {
                return descend(over: position, downMps: setpoint.downMps)
            }
            if let position = setpoint.goal {
                // At the point: the trace says hovering, as PX4 holds a position setpoint it has reached.
                guard !position.isReached(by: drone) || setpoint.yawRateRadps != 0 else { return hover() }
                drone.applyProgressiveCommand(position.command(for: drone, yawRateRadps: setpoint.yawRateRadps))
            } else {
                drone.applyProgressiveCommand(setpoint.command(parameters: drone.parameters))
            }
            return []
        case .mission:
            return flyMission()
        case .hold, .returnToLaunch:
            guard let goal, drone.flightState != .takingOff else { return hover() }
            // Home: land once stopped over it (landing with speed left drifts off the spot).
            if mode == .returnToLaunch, goal.isReached(by: drone), drone.groundSpeedMps < 0.2 {
                drone.applyReference(bits: 0)
                return hover() + [.log("home reached: landing")]
            }
            // Close enough: stop steering, so the trace says hovering (PX4 holds its position).
            guard !goal.isReached(by: drone) || mode == .returnToLaunch else { return hover() }
            drone.applyProgressiveCommand(goal.command(for: drone))
            return []
        default:
            return hover()
        }
    }

    /// A position setpoint with a descent fed forward: over the point at that speed, and at the airframe's lowest
    /// hover height the ground (the AR.Drone model's own landing takes it the last centimetres).
    private mutating func descend(over position: GoalSteering, downMps: Double) -> [SimulatorAction] {
        guard drone.altitudeM > drone.parameters.altitudeMinM + 0.05 else {
            drone.applyReference(bits: 0)
            return [.log("offboard descent at the ground: landing")]
        }
        let lead = GoalSteering(northM: position.northM, eastM: position.eastM, altitudeM: drone.altitudeM - downMps)
        drone.applyProgressiveCommand(lead.command(for: drone))
        return []
    }

    private mutating func hover() -> [SimulatorAction] {
        if drone.command != .hover { drone.applyProgressiveCommand(.hover) }
        return []
    }

    /// PX4's offboard-loss failsafe: "Failsafe activated" and COM_OBL_RC_ACT's action. Without RC (the simulator
    /// has none) the manual modes descend and land where they are, as PX4 SITL does.
    private mutating func offboardLost(nowUs: Int64) -> [SimulatorAction] {
        let action = parameters.offboardLossAction
        let lostMs = setpoint.map { (nowUs - $0.receivedUs) / 1000 } ?? 0
        var actions = say(StatusText.critical, "Failsafe activated")
        actions.append(.log(
            "no offboard setpoint for \(lostMs) ms (COM_OF_LOSS_T \(parameters["COM_OF_LOSS_T"] ?? 0) s): "
                            + "COM_OBL_RC_ACT \(action)"))
        _ = hover()
        switch action {
        case 3:
            actions.append(.log("returning home: " + (returnToLaunch().1 ?? "")))
        case 4:
            _ = land()
            actions.append(.log("landing where it is"))
        case 5:
            mode = .hold
            goal = GoalSteering(northM: drone.northM, eastM: drone.eastM, altitudeM: drone.altitudeM)
            actions.append(.log("holding position"))
        case 6, 7:
            toggleEmergency()
            disarmMotors()
            actions.append(.log(action == 6 ? "flight terminated: motors off" : "disarmed in the air: motors off"))
        default:
            modeBeforeFailsafe = mode
            mode = action == 1 ? .altitude : action == 2 ? .manual : .position
            goal = nil
            drone.applyReference(bits: 0)
            actions.append(.log("\(mode) mode without RC: descending to land where it is"))
        }
        return actions
    }
}
