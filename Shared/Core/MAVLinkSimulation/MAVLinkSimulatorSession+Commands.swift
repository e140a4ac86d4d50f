import Clocks
import DroneSimulation
import MAVLink
import Navigation
import TextSupport

/// COMMAND_LONG and COMMAND_INT, answered as PX4 answers them.
extension MAVLinkSimulatorSession {
    mutating func execute(_ command: CommandLong, nowUs: Int64) -> (MAVResult, String?) {
        switch command.command {
        case MAVCmd.componentArmDisarm:
            return command.param(1) == 1 ? arm(nowUs: nowUs)
                : disarm(forced: command.param(2) == MAVCmd.forceArmDisarmMagic)
        case MAVCmd.navTakeoff:
            return takeoff(altitudeAMSLM: command.param(7), nowUs: nowUs)
        case MAVCmd.navLand:
            return land()
        case MAVCmd.navReturnToLaunch:
            return returnToLaunch()
        case MAVCmd.doSetMode:
            func byte(_ value: Float) -> UInt8 { value.isFinite ? UInt8(clamping: Int(value)) : 0 }
            return setMode(PX4Mode(main: byte(command.param(2)), sub: byte(command.param(3))), nowUs: nowUs)
        case MAVCmd.doReposition:
            let lat = command.param(5), lon = command.param(6)
            let point = lat.isFinite && lon.isFinite ? GeoPoint(latitudeDeg: Double(lat), longitudeDeg: Double(lon))
                : nil
            let altitude = command.param(7).isFinite ? Double(command.param(7)) - homeAltitudeAMSLM : nil
            return reposition(to: point, altitudeM: altitude)
        case MAVCmd.missionStart:
            return startMission(nowUs: nowUs)
        case MAVCmd.setMessageInterval:
            return setInterval(messageId: command.param(1), intervalUs: command.param(2))
        case MAVCmd.requestMessage:
            return request(messageId: command.param(1), nowUs: nowUs)
        case MAVCmd.requestAutopilotCapabilities:
            return request(messageId: Float(AutopilotVersion.messageId), nowUs: nowUs)
        case MAVCmd.getHomePosition:
            return request(messageId: Float(HomePosition.messageId), nowUs: nowUs)
        default:
            return (.unsupported, "not simulated")
        }
    }

    /// COMMAND_INT: DO_REPOSITION (MAVSDK's goto_location) in a global frame; the rest as COMMAND_LONG.
    mutating func execute(_ command: CommandInt, nowUs: Int64) -> (MAVResult, String?) {
        guard command.command == MAVCmd.doReposition else {
            let long = CommandLong(command: command.command, targetSystem: command.targetSystem,
                                   targetComponent: command.targetComponent,
                                   params: command.params + [Float(command.x) / 1e7, Float(command.y) / 1e7, command.z])
            return execute(long, nowUs: nowUs)
        }
        let point = command.x == 0 && command.y == 0 ? nil
            : GeoPoint(latitudeDeg: Double(command.x) / 1e7, longitudeDeg: Double(command.y) / 1e7)
        let altitude: Double?
        switch command.frame {
        case _ where !command.z.isFinite: altitude = nil
        case MAVFrame.global, MAVFrame.globalInt: altitude = Double(command.z) - homeAltitudeAMSLM
        case MAVFrame.globalRelativeAlt, MAVFrame.globalRelativeAltInt: altitude = Double(command.z)
        default: return (.unsupported, "DO_REPOSITION in frame \(command.frame) not simulated")
        }
        return reposition(to: point, altitudeM: altitude)
    }

    private mutating func arm(nowUs: Int64) -> (MAVResult, String?) {
        guard !isArmed else { return (.accepted, nil) }
        guard isPositionReady(nowUs: nowUs) else {
            pendingReplies += say(StatusText.critical, "Arming denied: Resolve system health failures first")
            return (.temporarilyRejected, "not armable: no position estimate and home yet")
        }
        guard drone.flightState == .landed, drone.batteryPct > drone.parameters.criticalBatteryPct else {
            return (.denied, "not armable: \(drone.flightState.traceName), battery \(Int(drone.batteryPct)) %")
        }
        if drone.isEmergency { toggleEmergency() }
        isArmed = true
        armedOnGroundSinceUs = nowUs
        landedSinceUs = nil
        modeBeforeFailsafe = nil
        if mode != .offboard { mode = .hold }
        pendingReplies += say(StatusText.info, "Armed by external command")
        return (.accepted, "armed")
    }

    private mutating func disarm(forced: Bool) -> (MAVResult, String?) {
        guard !isAirborne || forced else { return (.denied, "disarm refused in the air (not forced)") }
        if isAirborne { toggleEmergency() }
        disarmMotors()
        return (.accepted, forced ? "force disarm: motors stopped" : "disarmed")
    }

    /// NAV_TAKEOFF or a switch to AUTO.TAKEOFF (what MAVSDK sends): climb, then hold. As PX4's navigator
    /// (Takeoff::set_takeoff_position): a finite param7 is the altitude AMSL, never below the current one ("Already
    /// higher than takeoff altitude"); NaN is MIS_TAKEOFF_ALT above the current altitude, said as PX4 says it.
    /// The airframe needs 1 m to leave the ground; the PX4 face's ceiling is `px4CeilingM`.
    mutating func takeoff(altitudeAMSLM: Float = .nan, nowUs: Int64) -> (MAVResult, String?) {
        guard isArmed, drone.flightState == .landed else {
            return (.denied, isArmed ? "already in the air" : "takeoff refused: not armed")
        }
        var wantedM: Double
        if altitudeAMSLM.isFinite {
            wantedM = Double(altitudeAMSLM) - homeAltitudeAMSLM
            if wantedM < drone.altitudeM {
                wantedM = drone.altitudeM
                pendingReplies += say(StatusText.critical, "Already higher than takeoff altitude")
            }
        } else {
            wantedM = drone.altitudeM + parameters.takeoffAltitudeM
            let said = DecimalText.fixed(parameters.takeoffAltitudeM, fractionDigits: 1) ?? "?"
            pendingReplies += say(StatusText.info, "Using default takeoff altitude: \(said) m")
        }
        let altitudeM = min(max(wantedM, 1), drone.parameters.altitudeMaxM)
        drone.parameters.takeoffAltitudeM = altitudeM
        drone.parameters.takeoffStopsAtAltitude = true
        mode = .takeoff
        goal = nil
        drone.applyReference(bits: SimulatedDrone.flyBit)
        armedOnGroundSinceUs = nil
        return (.accepted, "taking off to \(SimulatorSession.metres(altitudeM)) m")
    }

    mutating func land() -> (MAVResult, String?) {
        guard isArmed, isAirborne else { return (.denied, "land refused: not flying") }
        mode = .land
        goal = nil
        drone.applyReference(bits: 0)
        return (.accepted, "landing")
    }

    /// RTL: home at the return altitude (RTL_RETURN_ALT, or higher if already there; `returnCeilingM` caps the
    /// climb), then land there.
    mutating func returnToLaunch() -> (MAVResult, String?) {
        guard isArmed, isAirborne, drone.flightState != .landing else { return (.denied, "return refused: not flying") }
        mode = .returnToLaunch
        let ceilingM = min(max(drone.altitudeM, Self.returnCeilingM), drone.parameters.altitudeMaxM)
        let altitudeM = min(max(drone.altitudeM, parameters.returnAltitudeM), ceilingM)
        goal = GoalSteering(northM: 0, eastM: 0, altitudeM: altitudeM)
        return (.accepted, "returning home at \(SimulatorSession.metres(altitudeM)) m")
    }

    /// DO_REPOSITION: hold, flying to the point (nil = here) at the altitude (nil = this one).
    private mutating func reposition(to point: GeoPoint?, altitudeM: Double?) -> (MAVResult, String?) {
        guard isArmed, isAirborne, drone.flightState != .landing else {
            return (.denied, "reposition refused: not flying")
        }
        let altitude = min(max(altitudeM ?? drone.altitudeM, 1), drone.parameters.altitudeMaxM)
        goal = point.map { GoalSteering($0, home: drone.home, altitudeM: altitude) }
            ?? GoalSteering(northM: drone.northM, eastM: drone.eastM, altitudeM: altitude)
        mode = .hold
        let distance = goal.map { SimulatorSession.metres($0.horizontalDistanceM(from: drone)) } ?? "0"
        return (.accepted, "repositioning \(distance) m away at \(SimulatorSession.metres(altitude)) m")
    }

    private mutating func setMode(_ requested: PX4Mode, nowUs: Int64) -> (MAVResult, String?) {
        switch requested {
        case .offboard:
            guard isArmed, isAirborne, drone.flightState != .landing else {
                return (.denied, "offboard refused: not armed in the air")
            }
            guard let setpoint, nowUs - setpoint.receivedUs < parameters.offboardLoss.us else {
                return (.denied, "offboard refused: no setpoints streaming")
            }
            mode = .offboard
            goal = nil
            return (.accepted, "offboard")
        case .takeoff:
            return takeoff(nowUs: nowUs)
        case .hold:
            mode = .hold
            goal = isAirborne ? GoalSteering(northM: drone.northM, eastM: drone.eastM, altitudeM: drone.altitudeM) : nil
            return (.accepted, "hold")
        case .land:
            return land()
        case .returnToLaunch:
            return returnToLaunch()
        case .mission:
            return startMission(nowUs: nowUs)
        case .position, .altitude, .manual:
            // PX4's manual modes need manual control input; the simulator has no RC.
            return (.denied, "\(requested) mode refused: no manual control input (no RC)")
        default:
            return (.unsupported, "\(requested) mode not simulated")
        }
    }

    private mutating func setInterval(messageId id: Float, intervalUs interval: Float) -> (MAVResult, String?) {
        guard id.isFinite, id >= 0, id < 16_777_216, interval.isFinite else { return (.denied, "bad parameters") }
        let messageId = UInt32(id)
        guard Self.defaultIntervalsUs[messageId] != nil else {
            return (.unsupported, "message \(messageId) not simulated")
        }
        switch interval {
        case -1: intervalsUs[messageId] = nil
        case 0: intervalsUs[messageId] = Self.defaultIntervalsUs[messageId]
        default: intervalsUs[messageId] = max(Int64(interval), 10_000)
        }
        nextSendUs[messageId] = nil
        return (.accepted, nil)
    }

    /// REQUEST_MESSAGE: the message once, after the ACK.
    private mutating func request(messageId id: Float, nowUs: Int64) -> (MAVResult, String?) {
        guard id.isFinite, id >= 0, id < 16_777_216 else { return (.denied, "bad parameters") }
        let messageId = UInt32(id)
        guard messageId == AutopilotVersion.messageId || Self.defaultIntervalsUs[messageId] != nil else {
            return (.unsupported, "message \(messageId) not simulated")
        }
        let reply = message(messageId, nowUs: nowUs)
        guard !reply.isEmpty else { return (.temporarilyRejected, "message \(messageId) not available yet") }
        pendingReplies += reply
        return (.accepted, nil)
    }

    mutating func toggleEmergency() {
        // REF bit 8's 0→1 edge toggles the airframe's emergency; release it so the next edge is clean.
        drone.applyReference(bits: SimulatedDrone.emergencyBit)
        drone.applyReference(bits: 0)
    }

    mutating func disarmMotors() {
        isArmed = false
        armedOnGroundSinceUs = nil
        landedSinceUs = nil
        goal = nil
        drone.applyReference(bits: 0)
        drone.applyProgressiveCommand(.hover)
        if let before = modeBeforeFailsafe {
            mode = before
            modeBeforeFailsafe = nil
        } else if mode.isOffboard {
            mode = .hold
        }
    }
}
