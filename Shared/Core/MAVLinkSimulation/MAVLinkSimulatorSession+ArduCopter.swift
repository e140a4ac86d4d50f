import Clocks
import DroneSimulation
import MAVLink
import Navigation

/// The ArduCopter face (`--autopilot ardupilot`), measured against ArduCopter SITL (V4.7.0-dev, 2025-05): HEARTBEAT
/// autopilot 3 with ArduCopter's `custom_mode` numbers; arming in GUIDED (any mode that needs a position) refused
/// (FAILED, "Arm: Need Position Estimate") until the position estimate is there ("EKF3 IMU0 is using GPS"); NAV_TAKEOFF
/// only armed on the ground in GUIDED (param7 metres above home); any SET_POSITION_TARGET_LOCAL_NED during that climb
/// cancels it: the copter switches to the setpoint and stays where it is; GUIDED velocity setpoints fly until
/// GUID_TIMEOUT after the last one, then it stops and holds (it does not land); LOITER, BRAKE, POSHOLD hold; LAND lands
/// and disarms; RTL climbs to RTL_ALT (capped by the airframe's ceiling), flies home, lands and disarms; armed on the
/// ground for DISARM_DELAY it disarms. Not simulated here: AUTO (missions), DO_REPOSITION, the GCS failsafe
/// (FS_GCS_ENABLE is read only), RC.
extension MAVLinkSimulatorSession {
    /// The messages the ArduCopter face answers its own way; nil for those it shares with the PX4 face.
    mutating func handleArduCopter(_ packet: MAVLinkPacket, nowUs: Int64) -> [SimulatorAction]? {
        switch packet.message {
        case .commandLong(let command):
            guard isForUs(command.targetSystem) else { return [] }
            return answer(command.command, executeArduCopter(command, nowUs: nowUs), to: packet)
        case .commandInt(let command):
            guard isForUs(command.targetSystem) else { return [] }
            let long = CommandLong(command: command.command, targetSystem: command.targetSystem,
                                   targetComponent: command.targetComponent,
                                   params: command.params + [Float(command.x) / 1e7, Float(command.y) / 1e7, command.z])
            return answer(command.command, executeArduCopter(long, nowUs: nowUs), to: packet)
        case .setPositionTargetLocalNED(let target):
            guard isForUs(target.targetSystem) else { return [] }
            return receiveGuidedSetpoint(target, nowUs: nowUs)
        case .paramRequestRead(let request):
            guard isForUs(request.targetSystem) else { return [] }
            guard let value = arduCopter.parameters.read(request) else {
                return [.log(
                    "PARAM_REQUEST_READ \(request.paramId.isEmpty ? "#\(request.paramIndex)" : request.paramId)"
                             + ": no such parameter (not answered, as ArduPilot)")]
            }
            return send(value)
        case .paramRequestList(let request):
            guard isForUs(request.targetSystem) else { return [] }
            return arduCopter.parameters.all.flatMap { send($0) }
        case .paramSet(let set):
            guard isForUs(set.targetSystem) else { return [] }
            do {
                let value = try arduCopter.parameters.apply(set)
                return send(value)
                    + [.log("parameter \(set.paramId) set to \(arduCopter.parameters[set.paramId] ?? .nan)")]
            } catch {
                return [.log("PARAM_SET \(set.paramId) ignored: \(error)")]
            }
        default:
            return nil
        }
    }

    mutating func executeArduCopter(_ command: CommandLong, nowUs: Int64) -> (MAVResult, String?) {
        switch command.command {
        case MAVCmd.componentArmDisarm:
            return command.param(1) == 1 ? armCopter(nowUs: nowUs)
                : disarmCopter(forced: command.param(2) == MAVCmd.forceArmDisarmMagic)
        case MAVCmd.navTakeoff:
            return guidedTakeoff(altitudeM: command.param(7))
        case MAVCmd.navLand:
            return setCopterMode(.land)
        case MAVCmd.navReturnToLaunch:
            return setCopterMode(.rtl)
        case MAVCmd.doSetMode:
            let flags = command.param(1), number = command.param(2)
            guard flags.isFinite, (0...255).contains(flags), UInt8(flags) & MAVModeFlag.customModeEnabled != 0 else {
                return (.failed, "DO_SET_MODE without the custom-mode flag: ArduCopter takes only its own mode numbers")
            }
            guard number.isFinite, number >= 0, number < 1_000_000, let mode = ArduCopterMode(
                rawValue: UInt32(number)) else {
                pendingReplies += say(StatusText.warning,
                    "No such mode \(number.isFinite ? "\(Int(number))" : "\(number)")")
                return (.failed, "no such ArduCopter mode")
            }
            return setCopterMode(mode)
        case MAVCmd.setMessageInterval, MAVCmd.requestMessage, MAVCmd.requestAutopilotCapabilities,
             MAVCmd.getHomePosition:
            return execute(command, nowUs: nowUs)
        default:
            return (.unsupported, "not simulated on the ArduCopter face")
        }
    }

    private mutating func armCopter(nowUs: Int64) -> (MAVResult, String?) {
        guard !isArmed else { return (.accepted, nil) }
        guard isPositionReady(nowUs: nowUs) || !arduCopter.mode.requiresPosition else {
            pendingReplies += say(StatusText.critical, "Arm: Need Position Estimate")
            return (.failed, "not armed: no position estimate yet")
        }
        guard drone.flightState == .landed, drone.batteryPct > drone.parameters.criticalBatteryPct else {
            let flying = drone.flightState != .landed
            pendingReplies += say(StatusText.critical, flying ? "Arm: Vehicle is flying" : "Arm: Battery below minimum")
            return (.failed, "not armed: \(drone.flightState.traceName), battery \(Int(drone.batteryPct)) %")
        }
        if drone.isEmergency { toggleEmergency() }
        isArmed = true
        armedOnGroundSinceUs = nowUs
        landedSinceUs = nil
        pendingReplies += say(StatusText.info, "Arming motors")
        return (.accepted, "armed in \(arduCopter.mode)")
    }

    private mutating func disarmCopter(forced: Bool) -> (MAVResult, String?) {
        guard isArmed else { return (.accepted, nil) }
        guard !isAirborne || forced else { return (.failed, "not disarmed: in the air (not forced)") }
        if isAirborne { toggleEmergency() }
        stopCopterMotors()
        pendingReplies += say(StatusText.info, "Disarming motors")
        return (.accepted, forced ? "forced disarm: motors stopped" : "disarmed")
    }

    /// NAV_TAKEOFF: armed on the ground in GUIDED only; climbs to param7 metres above home, then holds there.
    private mutating func guidedTakeoff(altitudeM asked: Float) -> (MAVResult, String?) {
        guard arduCopter.mode == .guided else {
            return (.failed, "takeoff refused: only in GUIDED (the copter is in \(arduCopter.mode))")
        }
        guard isArmed else { return (.failed, "takeoff refused: not armed") }
        guard drone.flightState == .landed else { return (.failed, "takeoff refused: already in the air") }
        guard asked.isFinite, asked > 0 else { return (.failed, "takeoff refused: altitude \(asked) m") }
        let altitudeM = min(Double(asked), drone.parameters.altitudeMaxM)
        drone.parameters.takeoffAltitudeM = altitudeM
        goal = nil
        setpoint = nil
        arduCopter.isTakingOff = true
        drone.applyReference(bits: SimulatedDrone.flyBit)
        armedOnGroundSinceUs = nil
        let capped = Double(asked) > altitudeM ? " (the airframe's ceiling; \(asked) m asked)" : ""
        return (.accepted, "taking off in GUIDED to \(SimulatorSession.metres(altitudeM)) m" + capped)
    }

    /// A setpoint counts in GUIDED only, armed. During the GUIDED takeoff it ends the climb where the copter is.
    private mutating func receiveGuidedSetpoint(_ target: SetPositionTargetLocalNED,
        nowUs: Int64) -> [SimulatorAction] {
        guard arduCopter.mode == .guided, isArmed,
              let new = OffboardSetpoint(target, headingDeg: drone.headingDeg, nowUs: nowUs) else { return [] }
        var actions: [SimulatorAction] = []
        if arduCopter.isTakingOff {
            let kind = new.goal == nil ? "velocity" : "position"
            let height = SimulatorSession.metres(drone.altitudeM)
            let aimed = SimulatorSession.metres(drone.parameters.takeoffAltitudeM)
            let onGround = endTakeoff()
            actions.append(.log("a \(kind) setpoint during the GUIDED takeoff at \(height) m cancelled the climb to "
                                + "\(aimed) m: the copter follows the setpoint from "
                                + (onGround ? "the ground (it stays there)" : "where it is") + ", as ArduCopter does"))
        }
        guard drone.flightState != .landed, drone.flightState != .landing else { return actions }
        if arduCopter.guidedStopped {
            arduCopter.guidedStopped = false
            actions.append(.log("GUIDED setpoints again: following them"))
        }
        setpoint = new
        goal = nil
        return actions
    }

    /// Ends a GUIDED takeoff where the copter is (below the airframe's floor: back on the ground); whether it
    /// went back down.
    private mutating func endTakeoff() -> Bool {
        arduCopter.isTakingOff = false
        guard drone.flightState == .takingOff || drone.flightState == .landed else { return false }
        if drone.altitudeM < drone.parameters.altitudeMinM {
            drone.applyReference(bits: 0)
            return true
        }
        drone.parameters.takeoffAltitudeM = drone.altitudeM
        return false
    }

    mutating func setCopterMode(_ requested: ArduCopterMode) -> (MAVResult, String?) {
        guard requested != arduCopter.mode else { return (.accepted, nil) }
        let airborne = isArmed && isAirborne
        if requested == .auto {
            return (.failed, "AUTO is not simulated on the ArduCopter face (no missions)")
        }
        if airborne, drone.flightState == .landing, requested != .land {
            return (.failed, "\(requested) refused: the simulator cannot stop a landing once it has begun")
        }
        let wasTakingOff = arduCopter.isTakingOff
        if wasTakingOff { _ = endTakeoff() }
        let old = arduCopter.mode
        arduCopter.mode = requested
        arduCopter.guidedStopped = false
        setpoint = nil
        let here = GoalSteering(northM: drone.northM, eastM: drone.eastM, altitudeM: drone.altitudeM)
        let what: String
        switch requested {
        case .land:
            goal = nil
            if airborne { drone.applyReference(bits: 0) }
            what = airborne ? "landing where it is" : "on the ground"
        case .rtl:
            let altitudeM = min(max(drone.altitudeM, arduCopter.parameters.returnAltitudeM),
                drone.parameters.altitudeMaxM)
            goal = airborne ? GoalSteering(northM: 0, eastM: 0, altitudeM: altitudeM) : nil
            what = airborne ? "returning home at \(SimulatorSession.metres(altitudeM)) m, then landing"
                : "on the ground"
        case .guided:
            goal = airborne ? here : nil
            what = airborne ? "holding until setpoints come" : "ready for NAV_TAKEOFF once armed"
        default:
            goal = airborne && requested.holdsPosition ? here : nil
            what = !airborne ? "on the ground"
                : requested.holdsPosition ? "holding its position" : "no RC in the simulator: hovering where it is"
        }
        // ArduCopter sends a HEARTBEAT at once after a mode change (measured: the same millisecond as the ACK).
        pendingReplies += send(arduCopterHeartbeat)
        return (.accepted, "\(old) → \(requested): \(what)" + (wasTakingOff ? " (the GUIDED takeoff ended)" : ""))
    }

    /// Motors off and the flight's memory cleared (the mode stays, as on ArduCopter).
    private mutating func stopCopterMotors() {
        disarmMotors()
        setpoint = nil
        arduCopter.isTakingOff = false
        arduCopter.guidedStopped = false
    }

    // MARK: - Between messages

    /// The position estimate said once; the takeoff's end; disarm on landing in LAND or RTL, and after DISARM_DELAY
    /// armed on the ground.
    mutating func followArduCopter(from old: FlightState, nowUs: Int64) -> [SimulatorAction] {
        var actions: [SimulatorAction] = []
        if !arduCopter.saidPositionReady, isPositionReady(nowUs: nowUs) {
            arduCopter.saidPositionReady = true
            actions += say(StatusText.info, "EKF3 IMU0 is using GPS")
        }
        let new = drone.flightState
        if old == .takingOff, new == .hovering, arduCopter.isTakingOff {
            arduCopter.isTakingOff = false
            goal = GoalSteering(northM: drone.northM, eastM: drone.eastM, altitudeM: drone.altitudeM)
            actions.append(.log("GUIDED takeoff complete at \(SimulatorSession.metres(drone.altitudeM)) m: holding "
                                + "until setpoints come"))
        }
        guard isArmed, new == .landed, !drone.isFlyBitHeld else { return actions }
        if old != .landed {
            // Touchdown: the state's log line goes first; LAND and RTL disarm on the next tick.
            armedOnGroundSinceUs = nowUs
            return actions
        }
        if arduCopter.mode == .land || arduCopter.mode == .rtl {
            stopCopterMotors()
            return actions + say(StatusText.info, "Disarming motors") + [.log("disarmed: landed in \(arduCopter.mode)")]
        }
        let delayUs = arduCopter.parameters.disarmDelay.us
        if delayUs > 0, let since = armedOnGroundSinceUs, nowUs - since >= delayUs {
            stopCopterMotors()
            return actions + say(StatusText.info, "Disarming motors")
                + [.log("disarmed: armed on the ground for \(delayUs / 1_000_000) s (DISARM_DELAY)")]
        }
        return actions
    }

    /// GUIDED: the setpoint (a velocity until GUID_TIMEOUT after it came, then stop and hold; a position), else
    /// hold. RTL: home, then land there. The holding modes hold; the pilot's modes hover (no RC).
    mutating func controlArduCopter(nowUs: Int64) -> [SimulatorAction] {
        guard isArmed, isAirborne, drone.flightState != .landing, drone.flightState != .takingOff else { return [] }
        var actions: [SimulatorAction] = []
        switch arduCopter.mode {
        case .guided:
            if let setpoint {
                if let position = setpoint.goal {
                    drone.applyProgressiveCommand(position.command(for: drone, yawRateRadps: setpoint.yawRateRadps))
                    return []
                }
                let timeoutUs = arduCopter.parameters.guidedTimeout.us
                if nowUs - setpoint.receivedUs < timeoutUs {
                    drone.applyProgressiveCommand(setpoint.command(parameters: drone.parameters))
                    return []
                }
                self.setpoint = nil
                arduCopter.guidedStopped = true
                goal = GoalSteering(northM: drone.northM, eastM: drone.eastM, altitudeM: drone.altitudeM)
                actions.append(.log("no GUIDED setpoint for \(timeoutUs / 1000) ms (GUID_TIMEOUT "
                                    + "\(arduCopter.parameters["GUID_TIMEOUT"] ?? 0) s): stopping and holding "
                                    + "position"))
            }
        case .rtl:
            if let goal, goal.isReached(by: drone), drone.groundSpeedMps < 0.2 {
                drone.applyReference(bits: 0)
                drone.applyProgressiveCommand(.hover)
                return [.log("RTL: over home, landing")]
            }
            if let goal {
                drone.applyProgressiveCommand(goal.command(for: drone))
                return []
            }
        default:
            break
        }
        guard let goal, !goal.isReached(by: drone) else {
            if drone.command != .hover { drone.applyProgressiveCommand(.hover) }
            return actions
        }
        drone.applyProgressiveCommand(goal.command(for: drone))
        return actions
    }

    /// ArduCopter's HEARTBEAT: stabilize and manual input always, guided in the modes that fly by themselves;
    /// active while armed off the ground, else standby.
    var arduCopterHeartbeat: Heartbeat {
        var base = MAVModeFlag.customModeEnabled | MAVModeFlag.stabilizeEnabled | MAVModeFlag.manualInputEnabled
        if arduCopter.mode.isGuidedFlagged { base |= MAVModeFlag.guidedEnabled }
        if isArmed { base |= MAVModeFlag.safetyArmed }
        let status = isArmed && drone.flightState != .landed ? MAVState.active : MAVState.standby
        return Heartbeat(customMode: arduCopter.mode.rawValue, type: MAVType.quadrotor,
                         autopilot: MAVAutopilot.ardupilot, baseMode: base, systemStatus: status)
    }

    /// The mode as the log says it: PX4's name, or ArduCopter's.
    var modeName: String { autopilot == .ardupilot ? "\(arduCopter.mode)" : "\(mode)" }
}
